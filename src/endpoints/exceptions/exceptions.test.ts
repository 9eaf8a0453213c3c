import { beforeAll, describe, expect, it } from "vitest";
import { api, CHECKING, createTenant, deliver, ro, rw, syncNow, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";

describe("list_exceptions and adjudicate", () => {
  let t: SandboxTenant;
  let byName: Record<string, any>;
  beforeAll(async () => {
    t = await createTenant();
    await deliver(t.tenant, {
      accounts: [CHECKING],
      added: [
        txn("u1", { name: "ACME SUPPLY 0042" }),
        txn("u2", { name: "Mystery charge", pending: true }),
        txn("u3", { name: "Gone", date: "2026-11-19" }),
        txn("u4", { name: "Known coffee" }),
      ],
    });
    await syncNow(t);
    await deliver(t.tenant, { removed: [{ transaction_id: "u3" }] });
    await syncNow(t);
    await api(rw(t), "/api/v1/create-rule", { method: "POST", body: { rule_key: "coffee", match_kind: "description_regex", match_value: "coffee", category: "Meals" } });
    const rows = (await api(rw(t), "/api/v1/transactions")).body.rows;
    byName = Object.fromEntries(rows.map((r: any) => [r.description, r]));
  });

  it("lists the lines in books or pending that nothing has explained, by side-A id", async () => {
    const answer = await api(ro(t), "/api/v1/exceptions");
    expect(answer.status).toBe(200);
    expect(answer.body.exceptions.map((e: any) => e.description).sort()).toEqual(["ACME SUPPLY 0042", "Mystery charge"]);
    const acme = answer.body.exceptions.find((e: any) => e.description === "ACME SUPPLY 0042");
    expect(acme).toEqual({ a_id: byName["ACME SUPPLY 0042"].src_id, ...byName["ACME SUPPLY 0042"] });
  });

  it("resolves an exception and mints a rule born from it, which decides the next such line", async () => {
    const acme = byName["ACME SUPPLY 0042"];
    const answer = await api(rw(t), "/api/v1/adjudicate", {
      method: "POST",
      body: { a_id: acme.src_id, rule_key: "acme", match_kind: "description_regex", match_value: "^acme supply", category: "Supplies" },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      op_seq: expect.any(Number),
      rule: { rule_key: "acme", revision: 1, born_from_a_id: acme.src_id, category: "Supplies", priority: 100 },
      row: { src_id: acme.src_id, category: "Supplies" },
    });
    expect((await api(ro(t), "/api/v1/exceptions")).body.exceptions.map((e: any) => e.description)).toEqual(["Mystery charge"]);
    const rules = (await api(ro(t), "/api/v1/rules")).body.rules;
    expect(rules.find((r: any) => r.rule_key === "coffee").born_from_a_id).toBeNull();

    await deliver(t.tenant, { added: [txn("u5", { name: "ACME SUPPLY 0077" })] });
    await syncNow(t);
    const next = (await api(rw(t), "/api/v1/transactions?q=0077")).body.rows[0];
    expect(next.category).toBe("Supplies");
  });

  it("refuses a line that is no exception, and a rule that does not match its line", async () => {
    const decided = await api(rw(t), "/api/v1/adjudicate", {
      method: "POST",
      body: { a_id: byName["Known coffee"].src_id, rule_key: "x", match_kind: "amount_sign", match_value: "out", category: "Meals" },
    });
    expect(decided.status).toBe(409);
    expect(decided.body.detail).toBe(`A:${byName["Known coffee"].src_id} is no exception: it already has category "Meals"`);
    const retracted = await api(rw(t), "/api/v1/adjudicate", {
      method: "POST",
      body: { a_id: byName.Gone.src_id, rule_key: "x", match_kind: "amount_sign", match_value: "out", category: "Meals" },
    });
    expect(retracted.body.detail).toBe(`A:${byName.Gone.src_id} is no exception: it is retracted, not in the books`);
    const mismatch = await api(rw(t), "/api/v1/adjudicate", {
      method: "POST",
      body: { a_id: byName["Mystery charge"].src_id, rule_key: "x", match_kind: "amount_sign", match_value: "in", category: "Sales" },
    });
    expect(mismatch.status).toBe(409);
    expect((await api(ro(t), "/api/v1/rules")).body.rules.map((r: any) => r.rule_key)).not.toContain("x");
  });

  it("answers 404, 400 and 403 as it should, and never sees another tenant's exceptions", async () => {
    const body = { a_id: 999, rule_key: "x", match_kind: "amount_sign", match_value: "out", category: "Meals" };
    expect((await api(rw(t), "/api/v1/adjudicate", { method: "POST", body })).status).toBe(404);
    const bad = await api(rw(t), "/api/v1/adjudicate", { method: "POST", body: { ...body, a_id: 0, match_value: "(x+x+)+y" } });
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["body.a_id", "body.match_value"]);
    expect((await api(ro(t), "/api/v1/adjudicate", { method: "POST", body })).status).toBe(403);
    const other = await createTenant();
    expect((await api(rw(other), "/api/v1/exceptions")).body.exceptions).toEqual([]);
  });
});
