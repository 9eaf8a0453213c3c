/**
 * The instrumented Worker (bench/instrumented/) that the benchmark, the profile and the soak
 * serve: its objects answer a read's in-object cost and the ledger's invariants, and the
 * service as deployed answers neither.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { IN_OBJECT_READS } from "../../bench/instrumented/in-object-cost";
import { startLocalService, UNLIMITED, type LocalService } from "../../scripts/local-service";

let service: LocalService;
const deployed = inject("baseUrl");

beforeAll(async () => {
  service = await startLocalService({ instrumented: true, vars: UNLIMITED, log: join(tmpdir(), `ledger-instrumented-${process.pid}.log`) });
}, 120_000);
afterAll(() => service?.stop());

const json = (method: string, body?: unknown) => ({ method, headers: { "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

async function tenantWithLines(base: string): Promise<string> {
  const tenant = `instrumented-${Date.now().toString(36)}`;
  const signedUp = await fetch(`${base}/sandbox/tenants`, json("POST", { tenant }));
  expect(signedUp.status).toBe(201);
  const { tokens } = (await signedUp.json()) as { tokens: { read_write: string } };
  const txn = (id: string, name: string) => ({ transaction_id: id, account_id: "acc_checking", amount: 4.5, date: "2026-11-20", name });
  const queued = await fetch(`${base}/sandbox/tenants/${tenant}/bank`, json("POST", { accounts: [{ account_id: "acc_checking", name: "Checking" }], added: [txn("a", "COFFEE"), txn("b", "RENT"), txn("a", "COFFEE")] }));
  expect(queued.status).toBe(202);
  const auth = { authorization: `Bearer ${tokens.read_write}` };
  expect((await fetch(`${base}/api/v1/sync-now`, { method: "POST", headers: auth })).status).toBe(202);
  for (let i = 0; i < 100; i++) {
    const history = (await (await fetch(`${base}/api/v1/sync-history`, { headers: auth })).json()) as { runs: { final: boolean }[] };
    if (history.runs.some((r) => r.final)) return tenant;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the sync did not end");
}

/** The rule dry_run_rule tries (the other reads take no rule). */
const DRY_RUN_RULE = { rule_key: "coffee", match_kind: "description_regex", match_value: "COFFEE", category: "Meals" };

describe("the instrumented Worker", () => {
  it("times every read the benchmark compares with, inside the tenant's object", { timeout: 60_000 }, async () => {
    const tenant = await tenantWithLines(service.baseUrl);
    for (const read of IN_OBJECT_READS) {
      const answer = await fetch(`${service.baseUrl}/sandbox/tenants/${tenant}/in-object-cost`, json("POST", { read, args: { filter: { q: "coffee" }, rule: DRY_RUN_RULE }, iterations: 3 }));
      expect(answer.status, read).toBe(200);
      const body = (await answer.json()) as { ms_per_call: number; iterations: number };
      expect(body.iterations).toBe(3);
      expect(body.ms_per_call).toBeGreaterThanOrEqual(0);
    }
    const unknown = await fetch(`${service.baseUrl}/sandbox/tenants/${tenant}/in-object-cost`, json("POST", { read: "drop_tables" }));
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("content-type")).toBe("application/problem+json");
  });

  it("answers no broken invariant for books kept by the service, and 404 for an unknown tenant", { timeout: 60_000 }, async () => {
    const tenant = await tenantWithLines(service.baseUrl);
    const answer = await fetch(`${service.baseUrl}/sandbox/tenants/${tenant}/invariants`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ broken: [] });
    const unknown = await fetch(`${service.baseUrl}/sandbox/tenants/no-such-tenant-here/invariants`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("application/problem+json");
  });

  it("is not the service as deployed: there, neither inspection exists", async () => {
    const tenant = await tenantWithLines(deployed);
    expect((await fetch(`${deployed}/sandbox/tenants/${tenant}/invariants`)).status).toBe(404);
    expect((await fetch(`${deployed}/sandbox/tenants/${tenant}/in-object-cost`, json("POST", { read: "get_me" }))).status).toBe(404);
  });
});
