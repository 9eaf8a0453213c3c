/**
 * The tools' hooks on the sandbox surface: the benchmark's floor (each read's domain code,
 * timed inside the tenant's object) and the soak's invariant check.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { FLOOR_READS } from "../bench/instrumented/in-object-cost";
import { BASE, CHECKING, createTenant, deliver, syncNow, txn } from "./fixtures/sandbox";

describe("POST /sandbox/tenants/{tenant}/floor", () => {
  it("times every read the benchmark compares with", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("a"), txn("b", { name: "COFFEE" })] });
    await syncNow(t);
    for (const read of FLOOR_READS) {
      const answer = await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/floor`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ read, args: { filter: { q: "coffee" } }, iterations: 3 }),
      });
      expect(answer.status, read).toBe(200);
      const body = (await answer.json()) as { ms_per_call: number; iterations: number };
      expect(body.iterations).toBe(3);
      expect(body.ms_per_call).toBeGreaterThanOrEqual(0);
    }
    const unknown = await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/floor`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ read: "drop_tables" }) });
    expect(unknown.status).toBe(400);
  });
});

describe("GET /sandbox/tenants/{tenant}/invariants", () => {
  it("answers no broken invariant for books kept by the service, and 404 for an unknown tenant", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("a"), txn("b", { name: "COFFEE" }), txn("a")] });
    await syncNow(t);
    const answer = await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/invariants`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ broken: [] });
    const unknown = await SELF.fetch(`${BASE}/sandbox/tenants/no-such-tenant-here/invariants`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("application/problem+json");
  });
});
