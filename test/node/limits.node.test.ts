/**
 * The client's address as `npm start` serves it: wrangler dev passes a client's own
 * CF-Connecting-IP through, and npm start does not trust it. A service of its own, since
 * spending the unknown address's sign-in failures would slow every other suite's sign-ins.
 * And wrangler.toml's rate limits are the numbers the API's description quotes (the
 * limits themselves are spent in test/rate-limits.test.ts; here a machine this busy may
 * not send 600 calls in 10 s).
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNIN } from "../../src/limits/attempts";
import { RATE_LIMITS } from "../../src/limits/rate-limit";
import { startLocalService, type LocalService } from "../../scripts/local-service";

describe("wrangler.toml", () => {
  it("configures the rate limit bindings with the numbers the code quotes", () => {
    const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
    const configured = [...toml.matchAll(/\[\[ratelimits\]\]\s*name = "(\w+)"\s*namespace_id = "\d+"\s*simple = \{ limit = (\d+), period = (\d+) \}/g)].map(
      ([, name, limit, period]) => ({ binding: name, limit: Number(limit), periodSeconds: Number(period) }),
    );
    expect(configured).toEqual(Object.values(RATE_LIMITS));
    expect(toml).toMatch(/^TRUST_CF_CONNECTING_IP = "on"$/m);
  });
});

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
