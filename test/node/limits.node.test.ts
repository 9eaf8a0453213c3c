/**
 * The client's address as `npm start` serves it: wrangler dev passes a client's own
 * CF-Connecting-IP through, and npm start does not trust it. A service of its own, since
 * spending the unknown address's sign-in failures would slow every other suite's sign-ins.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNIN } from "../../src/limits/attempts";
import { startLocalService, type LocalService } from "../../scripts/local-service";

describe("npm start", () => {
  let service: LocalService;
  beforeAll(async () => {
    service = await startLocalService({ log: join(tmpdir(), `ledger-limits-${process.pid}.log`) });
  }, 120_000);
  afterAll(async () => service?.stop());

  async function signUp(): Promise<{ tenant: string }> {
    const tenant = `limits-${Date.now().toString(36)}`;
    const answer = await fetch(`${service.baseUrl}/sandbox/tenants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tenant }) });
    expect(answer.status).toBe(201);
    return (await answer.json()) as any;
  }

  it("ignores a client's own CF-Connecting-IP: guesses under made-up addresses share one address's failures", async () => {
    const { tenant } = await signUp();
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNIN.address.free; i++) {
      const answer = await fetch(`${service.baseUrl}/signin`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: service.baseUrl, "cf-connecting-ip": `192.0.2.${i + 1}` },
        body: new URLSearchParams({ tenant, password: "guess" }).toString(),
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(SIGNIN.address.free).fill(401), 429]);
  }, 60_000);
});
