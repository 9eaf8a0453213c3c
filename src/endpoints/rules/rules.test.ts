import { beforeAll, describe, expect, it } from "vitest";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, CHECKING, createTenant, deliver, ro, rw, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";

const rule = (rule_key: string, fields: Record<string, unknown> = {}) => ({
  rule_key,
  match_kind: "description_regex",
  match_value: "coffee",
  category: "Meals",
  ...fields,
});

async function categoriesByDescription(t: SandboxTenant): Promise<Record<string, string>> {
  const rows = (await api(rw(t), "/api/v1/transactions?per_page=100")).body.rows;
  return Object.fromEntries(rows.filter((r: any) => r.side === "A").map((r: any) => [r.description, r.category]));
}

async function withLines(...lines: ReturnType<typeof txn>[]): Promise<SandboxTenant> {
  const t = await createTenant();
  await deliver(t.tenant, { accounts: [CHECKING], added: lines });
  await landSandboxBank(t);
  return t;
}

describe("create_rule", () => {
  it("appends revisions per key and decides every matching undecided line at once", async () => {
    const t = await withLines(
      txn("c1", { name: "Blue Bottle Coffee" }),
      txn("c2", { name: "COFFEE HOUSE" }),
      txn("r1", { name: "Rent November", amount: 1500 }),
    );
    const first = await api(rw(t), "/api/v1/create-rule", { method: "POST", body: rule("coffee") });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      rule: { rule_key: "coffee", revision: 1, priority: 100, retired: false, born_from_a_id: null, category: "Meals" },
      decided: 2,
    });
    const second = await api(rw(t), "/api/v1/create-rule", { method: "POST", body: rule("coffee", { category: "Office" }) });
    // Decided lines keep their categories: the revision decides only undecided lines.
    expect(second.body).toMatchObject({ rule: { revision: 2, category: "Office" }, decided: 0 });
    expect(await categoriesByDescription(t)).toEqual({ "Blue Bottle Coffee": "Meals", "COFFEE HOUSE": "Meals", "Rent November": "uncategorised" });
    expect((await api(rw(t), "/api/v1/rules")).body.rules).toEqual([expect.objectContaining({ rule_key: "coffee", revision: 2 })]);
  });

  it("matches exact descriptions whole, case-insensitively with spaces folded, and amount signs", async () => {
    const t = await withLines(
      txn("e1", { name: "  stripe   PAYOUT " }),
      txn("e2", { name: "STRIPE PAYOUT FEE" }),
      txn("s1", { name: "Refund", amount: -20 }),
    );
    const exact = await api(rw(t), "/api/v1/create-rule", {
      method: "POST",
      body: rule("payouts", { match_kind: "description_exact", match_value: "Stripe Payout", category: "Sales" }),
    });
    expect(exact.body.decided).toBe(1);
    const sign = await api(rw(t), "/api/v1/create-rule", {
      method: "POST",
      body: rule("money-in", { match_kind: "amount_sign", match_value: "in", category: "Other income" }),
    });
    expect(sign.body.decided).toBe(1);
    expect(await categoriesByDescription(t)).toEqual({
      "  stripe   PAYOUT ": "Sales",
      "STRIPE PAYOUT FEE": "uncategorised",
      Refund: "Other income",
    });
  });

  it("refuses malformed patterns, constructs RE2 does not have, and queue categories, before writing anything", async () => {
    const t = await createTenant();
    for (const match_value of ["(unclosed", "(COFFEE)\\1", "COFFEE(?= SHOP)", "a{1001}"]) {
      const answer = await api(rw(t), "/api/v1/create-rule", { method: "POST", body: rule("bad", { match_value }) });
      expect(answer.status, match_value).toBe(400);
      expect(answer.body.errors.map((e: any) => e.field)).toEqual(["body.match_value"]);
    }
    const sign = await api(rw(t), "/api/v1/create-rule", { method: "POST", body: rule("bad", { match_kind: "amount_sign", match_value: "up", category: "uncategorized" }) });
    expect(sign.body.errors.map((e: any) => e.field).sort()).toEqual(["body.category", "body.match_value"]);
    expect((await api(rw(t), "/api/v1/rules")).body.rules).toEqual([]);
  });

  it("never overrides a human judgement", async () => {
    const t = await withLines(txn("h1", { name: "Coffee with client" }));
    const line = (await api(rw(t), "/api/v1/transactions")).body.rows[0];
    await api(rw(t), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: line.src_id, category: "Client entertainment" } });
    expect((await api(rw(t), "/api/v1/create-rule", { method: "POST", body: rule("coffee") })).body.decided).toBe(0);
    expect((await api(rw(t), "/api/v1/run-rules", { method: "POST" })).body.decided).toBe(0);
    expect(await categoriesByDescription(t)).toEqual({ "Coffee with client": "Client entertainment" });
  });

  it("is refused to a read-only token and answers a session", async () => {
    const t = await createTenant();
    expect((await api(ro(t), "/api/v1/create-rule", { method: "POST", body: rule("x") })).status).toBe(403);
    expect((await api({ session: t.session }, "/api/v1/create-rule", { method: "POST", body: rule("x") })).status).toBe(200);
  });
});

describe("priority, listing and move_rule_to_end", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant();
    await api(rw(t), "/api/v1/create-rules", {
      method: "POST",
      body: {
        rules: [
          rule("b-general", { match_value: "shop", category: "Supplies", priority: 100 }),
          rule("a-general", { match_value: "shop", category: "Office", priority: 100 }),
          rule("coffee", { match_value: "coffee", category: "Meals", priority: 50 }),
        ],
      },
    });
  });

  it("lists by priority descending, ties by key, so the bottom row decides first", async () => {
    const rules = (await api(ro(t), "/api/v1/rules")).body.rules;
    expect(rules.map((r: any) => r.rule_key)).toEqual(["b-general", "a-general", "coffee"]);
  });

  it("decides by the lowest priority, ties by key", async () => {
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("p1", { name: "Coffee shop" }), txn("p2", { name: "Print shop" })] });
    await landSandboxBank(t);
    // New lines from the feed are decided as they arrive.
    expect(await categoriesByDescription(t)).toEqual({ "Coffee shop": "Meals", "Print shop": "Office" });
  });

  it("moves a rule below every other live rule, and appends nothing when it already decides first", async () => {
    const moved = await api(rw(t), "/api/v1/move-rule-to-end", { method: "POST", body: { rule_key: "b-general" } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ moved: true, rule: { rule_key: "b-general", revision: 2, priority: 49 } });
    expect((await api(ro(t), "/api/v1/rules")).body.rules.map((r: any) => r.rule_key)).toEqual(["a-general", "coffee", "b-general"]);
    // Decided lines are untouched.
    expect(await categoriesByDescription(t)).toEqual({ "Coffee shop": "Meals", "Print shop": "Office" });
    const again = await api(rw(t), "/api/v1/move-rule-to-end", { method: "POST", body: { rule_key: "b-general" } });
    expect(again.body).toMatchObject({ moved: false, rule: { revision: 2 } });
  });

  it("retires a rule: it stays listed, decides nothing more, and its lines keep their categories", async () => {
    const retired = await api(rw(t), "/api/v1/retire-rule", { method: "POST", body: { rule_key: "coffee" } });
    expect(retired.body.rule).toMatchObject({ rule_key: "coffee", retired: true, revision: 2 });
    expect((await api(rw(t), "/api/v1/retire-rule", { method: "POST", body: { rule_key: "coffee" } })).body.rule.revision).toBe(2);
    await deliver(t.tenant, { added: [txn("p3", { name: "Coffee beans" })] });
    await landSandboxBank(t);
    const categories = await categoriesByDescription(t);
    expect(categories).toMatchObject({ "Coffee shop": "Meals", "Coffee beans": "uncategorised" });
    expect((await api(ro(t), "/api/v1/rules")).body.rules.find((r: any) => r.rule_key === "coffee").retired).toBe(true);
    const move = await api(rw(t), "/api/v1/move-rule-to-end", { method: "POST", body: { rule_key: "coffee" } });
    expect(move.status).toBe(409);
    expect(move.body.code).toBe("ledger_refusal");
  });

  it("answers 404 for a key the rulebook does not hold", async () => {
    for (const path of ["/api/v1/move-rule-to-end", "/api/v1/retire-rule"]) {
      const answer = await api(rw(t), path, { method: "POST", body: { rule_key: "nope" } });
      expect(answer.status).toBe(404);
    }
  });
});

describe("create_rules and run_rules", () => {
  it("validates every row before writing anything", async () => {
    const t = await createTenant();
    const answer = await api(rw(t), "/api/v1/create-rules", {
      method: "POST",
      body: { rules: [rule("ok"), rule("bad-1", { match_value: "(a+)\\1" }), rule("ok-2"), rule("bad-3", { match_kind: "fuzzy" })] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.field)).toEqual(["body.rules.1.match_value", "body.rules.3.match_kind"]);
    expect((await api(rw(t), "/api/v1/rules")).body.rules).toEqual([]);
    const tooMany = await api(rw(t), "/api/v1/create-rules", { method: "POST", body: { rules: Array.from({ length: 101 }, (_, i) => rule(`r${i}`)) } });
    expect(tooMany.status).toBe(400);
  });

  it("appends in order without deciding; run_rules decides and a second run decides 0", async () => {
    const t = await withLines(txn("x1", { name: "coffee" }), txn("x2", { name: "tea" }), txn("x3", { name: "pending coffee", pending: true }));
    const created = await api(rw(t), "/api/v1/create-rules", {
      method: "POST",
      body: { rules: [rule("coffee"), rule("tea", { match_value: "^tea$", category: "Meals" }), rule("coffee", { category: "Drinks" })] },
    });
    expect(created.body.created.map((r: any) => [r.rule_key, r.revision])).toEqual([["coffee", 1], ["tea", 1], ["coffee", 2]]);
    expect(await categoriesByDescription(t)).toEqual({ coffee: "uncategorised", tea: "uncategorised", "pending coffee": "uncategorised" });
    expect((await api(rw(t), "/api/v1/run-rules", { method: "POST", body: {} })).body).toEqual({ decided: 3 });
    expect((await api(rw(t), "/api/v1/run-rules", { method: "POST" })).body).toEqual({ decided: 0 });
    expect(await categoriesByDescription(t)).toEqual({ coffee: "Drinks", tea: "Meals", "pending coffee": "Drinks" });
  });

  it("decides only the caller's own lines", async () => {
    const mine = await withLines(txn("m1", { name: "coffee" }));
    const theirs = await withLines(txn("t1", { name: "coffee" }));
    await api(rw(mine), "/api/v1/create-rule", { method: "POST", body: rule("coffee") });
    expect(await categoriesByDescription(theirs)).toEqual({ coffee: "uncategorised" });
    expect((await api(rw(theirs), "/api/v1/rules")).body.rules).toEqual([]);
  });
});
