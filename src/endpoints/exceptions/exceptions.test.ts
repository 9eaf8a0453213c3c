import { beforeAll, describe, expect, it } from "vitest";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, CHECKING, createTenant, deliver, ro, rw, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";

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
    await landSandboxBank(t);
    await deliver(t.tenant, { removed: [{ transaction_id: "u3" }] });
    await landSandboxBank(t);
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
    await landSandboxBank(t);
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

describe("list_exceptions over a long queue", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant();
    // No rules yet: the whole first pull waits in the queue.
    const added = Array.from({ length: 130 }, (_, i) => txn(`q${i}`, { name: `UNKNOWN VENDOR ${i}`, date: `2026-10-${String(1 + (i % 30)).padStart(2, "0")}` }));
    await deliver(t.tenant, { accounts: [CHECKING], added });
    await landSandboxBank(t);
  });

  it("pages it 100 at a time by default, newest first, with the whole queue's count", async () => {
    const first = (await api(ro(t), "/api/v1/exceptions")).body;
    expect(first).toMatchObject({ page: 1, per_page: 100, total: 130 });
    expect(first.exceptions).toHaveLength(100);
    const second = (await api(ro(t), "/api/v1/exceptions?page=2")).body;
    expect(second).toMatchObject({ page: 2, per_page: 100, total: 130 });
    expect(second.exceptions).toHaveLength(30);
    const all = [...first.exceptions, ...second.exceptions];
    expect(new Set(all.map((e: any) => e.a_id)).size).toBe(130);
    const order = all.map((e: any) => [e.posted_on, -e.src_id]);
    expect(order).toEqual([...order].sort(([d1, i1], [d2, i2]) => (d1 === d2 ? i1 - i2 : d1 < d2 ? 1 : -1)));
    expect((await api(ro(t), "/api/v1/exceptions?page=3")).body).toMatchObject({ exceptions: [], total: 130 });
  });

  it("clamps per_page at 100, takes a smaller one, and refuses a page or per_page below 1", async () => {
    expect((await api(ro(t), "/api/v1/exceptions?per_page=500")).body).toMatchObject({ per_page: 100 });
    const small = (await api(ro(t), "/api/v1/exceptions?per_page=7&page=3")).body;
    expect(small).toMatchObject({ page: 3, per_page: 7, total: 130 });
    const first = (await api(ro(t), "/api/v1/exceptions")).body.exceptions;
    expect(small.exceptions.map((e: any) => e.a_id)).toEqual(first.slice(14, 21).map((e: any) => e.a_id));
    const bad = await api(ro(t), "/api/v1/exceptions?page=0&per_page=0");
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["query.page", "query.per_page"]);
  });

  it("drops a line from the count once a rule decides it", async () => {
    await api(rw(t), "/api/v1/create-rule", { method: "POST", body: { rule_key: "v7", match_kind: "description_exact", match_value: "UNKNOWN VENDOR 7", category: "Supplies" } });
    expect((await api(ro(t), "/api/v1/exceptions")).body.total).toBe(129);
  });

  it("counts only what the face serves: a floor leaves the lines before it out of the list and the count", async () => {
    const floored = await createTenant({ visible_from: "2026-10-21" });
    const added = Array.from({ length: 30 }, (_, i) => txn(`f${i}`, { name: `UNKNOWN VENDOR ${i}`, date: `2026-10-${String(1 + i).padStart(2, "0")}` }));
    await deliver(floored.tenant, { accounts: [CHECKING], added });
    await landSandboxBank(floored);
    const answer = (await api(ro(floored), "/api/v1/exceptions")).body;
    expect(answer.total).toBe(10);
    expect(answer.exceptions.map((e: any) => e.posted_on).every((d: string) => d >= "2026-10-21")).toBe(true);
    expect(answer.exceptions).toHaveLength(10);
  });
});
