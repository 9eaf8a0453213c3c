import { settle } from "../../errors";
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app";
import { addDays, booksDate } from "../../clock";
import { recordHumanJudgement } from "../../ledger/books/judgements";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, BASE, CHECKING, createTenant, deliver, judge, ro, rw, session, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";

const newCategory = (t: SandboxTenant, name: string, header: string, credential = rw(t)) =>
  api(credential, "/api/v1/new-category", { method: "POST", body: { name, header } });

const newCategories = (t: SandboxTenant, categories: unknown, credential = rw(t)) =>
  api(credential, "/api/v1/new-categories", { method: "POST", body: { categories } });

const taxonomy = async (t: SandboxTenant) => {
  const answer = await api(rw(t), "/api/v1/taxonomy");
  expect(answer.status).toBe(200);
  return answer.body.categories as any[];
};

const ledgerOf = (t: SandboxTenant) => env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(t.tenant));

/** A person categorises the side-A line whose description is `description`. */
async function judgeByDescription(t: SandboxTenant, description: string, category: string) {
  const rows = (await api(rw(t), `/api/v1/transactions?q=${encodeURIComponent(description)}`)).body.rows as any[];
  const line = rows.find((r) => r.side === "A" && r.description === description);
  expect(line, description).toBeDefined();
  await judge(t, line.src_id, category);
}

const entry = (name: string, cat_key: string, header_key: string, header_name: string, sort_order: number) => ({
  name,
  cat_key,
  header_key,
  header_name,
  sort_order,
});

describe("create_category", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant({ bank: false });
  });

  it("appends a category under a header and answers it with its id and key", async () => {
    const answer = await newCategory(t, "  Office   Supplies ", "expense");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      category: { id: expect.any(Number), ...entry("Office Supplies", "office-supplies", "expense", "Expenses", 3) },
    });
    expect(await taxonomy(t)).toContainEqual(entry("Office Supplies", "office-supplies", "expense", "Expenses", 3));
  });

  it("answers the existing entry for the same name under the same header, appending nothing", async () => {
    const first = await newCategory(t, "Rent", "expense");
    const again = await newCategory(t, " RENT ", "expense");
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await taxonomy(t)).filter((e) => e.cat_key.startsWith("rent"))).toHaveLength(1);
  });

  it("relays the ledger's refusal verbatim when the name lives under another header", async () => {
    await newCategory(t, "Flour", "cogs");
    const before = await taxonomy(t);
    const answer = await newCategory(t, "flour", "expense");
    expect(answer.status).toBe(409);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(answer.body).toMatchObject({
      type: "urn:ledger:problem:ledger_refusal",
      status: 409,
      code: "ledger_refusal",
      detail: 'category "Flour" already lives under header "cogs"; a name lives under one header only',
    });
    expect(await taxonomy(t)).toEqual(before);
  });

  it("refuses the queue's labels, a bad header and a long name, naming every field", async () => {
    for (const queue of ["uncategorised", "Uncategorized ", " UNCATEGORISED"]) {
      const answer = await newCategory(t, queue, "expense");
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe("invalid_request");
      expect(answer.body.errors.map((e: any) => e.field)).toEqual(["body.name"]);
      expect(answer.body.errors[0].message).toContain("means the queue");
    }
    const both = await newCategory(t, "uncategorized", "assets");
    expect(both.body.errors.map((e: any) => e.field).sort()).toEqual(["body.header", "body.name"]);
    for (const name of ["", "   ", "x".repeat(101)]) {
      const answer = await newCategory(t, name, "expense");
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect(answer.body.errors.map((e: any) => e.field)).toEqual(["body.name"]);
    }
    const missing = await api(rw(t), "/api/v1/new-category", { method: "POST", body: {} });
    expect(missing.body.errors.map((e: any) => e.field).sort()).toEqual(["body.header", "body.name"]);
    expect((await taxonomy(t)).map((e) => e.name)).not.toContain("uncategorized");
  });

  it("is written by a session too, recorded as that tenant's", async () => {
    const answer = await api(session(t), "/api/v1/new-category", { method: "POST", body: { name: "Bank Fees", header: "expense" } });
    expect(answer.status).toBe(200);
    expect(answer.body.category.cat_key).toBe("bank-fees");
  });
});

describe("list_category_taxonomy", () => {
  it("lists live entries by header order, then name, whether or not a line carries them", async () => {
    const t = await createTenant({ bank: false });
    expect(await taxonomy(t)).toEqual([]);
    for (const [name, header] of [
      ["Transfers Out", "transfer"],
      ["utilities", "expense"],
      ["Sales", "income"],
      ["Owner Pay", "draw"],
      ["Advertising", "expense"],
      ["Flour", "cogs"],
      ["Interest", "income"],
    ]) {
      expect((await newCategory(t, name!, header!)).status).toBe(200);
    }
    expect(await taxonomy(t)).toEqual([
      entry("Interest", "interest", "income", "Income", 1),
      entry("Sales", "sales", "income", "Income", 1),
      entry("Flour", "flour", "cogs", "Cost of goods sold", 2),
      entry("Advertising", "advertising", "expense", "Expenses", 3),
      entry("utilities", "utilities", "expense", "Expenses", 3),
      entry("Owner Pay", "owner-pay", "draw", "Owner's draw", 4),
      entry("Transfers Out", "transfers-out", "transfer", "Transfers", 5),
    ]);
    // A read-only token reads it too.
    expect((await api(ro(t), "/api/v1/taxonomy")).body.categories).toHaveLength(7);
  });
});

describe("create_categories", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant({ bank: false });
    await newCategory(t, "Rent", "expense");
  });

  it("appends every row in order and answers one entry per row", async () => {
    const rent = (await newCategory(t, "Rent", "expense")).body.category;
    const answer = await newCategories(t, [
      { name: "Sales", header: "income" },
      { name: "rent", header: "expense" },
      { name: "Packaging", header: "cogs" },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      created: [
        { id: expect.any(Number), ...entry("Sales", "sales", "income", "Income", 1) },
        rent,
        { id: expect.any(Number), ...entry("Packaging", "packaging", "cogs", "Cost of goods sold", 2) },
      ],
    });
    const [sales, , packaging] = answer.body.created;
    expect(new Set([sales.id, rent.id, packaging.id]).size).toBe(3);
    expect((await taxonomy(t)).map((e) => e.name)).toEqual(["Sales", "Packaging", "Rent"]);
  });

  it("validates every row before writing anything and lists every failing field", async () => {
    const before = await taxonomy(t);
    const answer = await newCategories(t, [
      { name: "Fine", header: "expense" },
      { name: "uncategorized", header: "expense" },
      { name: "Also Fine", header: "income" },
      { name: "Bad Header", header: "liability" },
      { name: "", header: "draw" },
      { header: "draw" },
      { name: "Uncategorised", header: "nope" },
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("invalid_request");
    expect(answer.body.errors.map((e: any) => e.field)).toEqual([
      "body.categories.1.name",
      "body.categories.3.header",
      "body.categories.4.name",
      "body.categories.5.name",
      "body.categories.6.name",
      "body.categories.6.header",
    ]);
    expect(answer.body.detail).toContain("body.categories.3.header");
    expect(await taxonomy(t)).toEqual(before);
  });

  it("refuses more than 100 rows, and none", async () => {
    const before = await taxonomy(t);
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `Bulk ${i}`, header: "expense" }));
    const tooMany = await newCategories(t, many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.map((e: any) => e.field)).toEqual(["body.categories"]);
    const none = await newCategories(t, []);
    expect(none.status).toBe(400);
    expect(none.body.errors.map((e: any) => e.field)).toEqual(["body.categories"]);
    expect(await taxonomy(t)).toEqual(before);
    // Exactly 100 is allowed.
    const hundred = await newCategories(t, many.slice(0, 100));
    expect(hundred.status).toBe(200);
    expect(hundred.body.created).toHaveLength(100);
  });

  it("stops at the first ledger refusal, names the row and its words, and lists the rows already created", async () => {
    const u = await createTenant({ bank: false });
    await newCategory(u, "Flour", "cogs");
    const single = await newCategory(u, "FLOUR", "expense");
    const answer = await newCategories(u, [
      { name: "Eggs", header: "cogs" },
      { name: "Wages", header: "expense" },
      { name: "FLOUR", header: "expense" },
      { name: "Butter", header: "cogs" },
      { name: "Wages", header: "income" },
    ]);
    expect(answer.status).toBe(409);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(answer.body).toEqual({
      type: "urn:ledger:problem:ledger_refusal",
      title: "Ledger refusal",
      status: 409,
      code: "ledger_refusal",
      detail: single.body.detail,
      row: 2,
      created: [
        { id: expect.any(Number), ...entry("Eggs", "eggs", "cogs", "Cost of goods sold", 2) },
        { id: expect.any(Number), ...entry("Wages", "wages", "expense", "Expenses", 3) },
      ],
    });
    expect(answer.body.detail).toBe('category "Flour" already lives under header "cogs"; a name lives under one header only');
    // The rows before the refusal stay created; the rows after it were not tried.
    expect((await taxonomy(u)).map((e) => e.name)).toEqual(["Eggs", "Flour", "Wages"]);
  });
});

describe("list_categories", () => {
  let t: SandboxTenant;
  let other: SandboxTenant;

  beforeAll(async () => {
    t = await createTenant();
    await deliver(t.tenant, {
      accounts: [CHECKING],
      added: [
        txn("sale", { date: "2026-10-01", amount: -1000, name: "CLIENT PAYMENT" }),
        txn("pens", { date: "2026-10-02", amount: 12.5, name: "PENS" }),
        txn("paper", { date: "2026-10-03", amount: 40, name: "PAPER" }),
        txn("refund", { date: "2026-10-04", amount: -2.5, name: "PAPER REFUND" }),
        txn("lunch", { date: "2026-10-05", amount: 7.25, name: "LUNCH" }),
        txn("fee", { date: "2026-10-06", amount: 3, name: "BANK FEE" }),
        txn("interest", { date: "2026-10-07", amount: -3, name: "INTEREST" }),
        txn("taxi", { date: "2026-10-08", amount: 30, name: "TAXI" }),
        txn("dinner", { date: "2026-10-09", amount: 80, name: "DINNER PENDING", pending: true }),
        txn("queue", { date: "2026-10-10", amount: 999, name: "NOT YET DECIDED" }),
      ],
    });
    await landSandboxBank(t);
    await judgeByDescription(t, "CLIENT PAYMENT", "Sales");
    await judgeByDescription(t, "PENS", "Office Supplies");
    await judgeByDescription(t, "PAPER", "Office Supplies");
    await judgeByDescription(t, "PAPER REFUND", "Office Supplies");
    await judgeByDescription(t, "LUNCH", "Meals");
    await judgeByDescription(t, "BANK FEE", "Bank Fees");
    await judgeByDescription(t, "INTEREST", "Interest");
    // The latest decision is the line's category.
    await judgeByDescription(t, "TAXI", "Meals");
    await judgeByDescription(t, "TAXI", "Travel");
    // Pending lines are in no total.
    await judgeByDescription(t, "DINNER PENDING", "Meals");
    // Unset back to the queue: the label goes.
    await judgeByDescription(t, "NOT YET DECIDED", "Gifts");
    await judgeByDescription(t, "NOT YET DECIDED", "uncategorized");
    // A second arrival of the sale is archived (side B): it counts nowhere.
    await deliver(t.tenant, { added: [txn("sale", { date: "2026-10-01", amount: -1000, name: "CLIENT PAYMENT" })] });
    await landSandboxBank(t);
    // A taxonomy entry no line carries is not listed.
    await newCategory(t, "Unused", "expense");

    other = await createTenant();
    await deliver(other.tenant, { accounts: [CHECKING], added: [txn("theirs", { date: "2026-10-01", amount: 5000, name: "OTHER TENANT LINE" })] });
    await landSandboxBank(other);
    await judgeByDescription(other, "OTHER TENANT LINE", "Other Tenant Secret");
    await newCategory(other, "Other Tenant Taxonomy", "expense");
  });

  it("lists the labels booked lines carry with booked total and line count, most money first, ties by label", async () => {
    const answer = await api(rw(t), "/api/v1/categories");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      categories: [
        { category: "Sales", total_cents: 100000, lines: 1 },
        { category: "Office Supplies", total_cents: -1250 - 4000 + 250, lines: 3 },
        { category: "Travel", total_cents: -3000, lines: 1 },
        { category: "Meals", total_cents: -725, lines: 1 },
        { category: "Bank Fees", total_cents: -300, lines: 1 },
        { category: "Interest", total_cents: 300, lines: 1 },
      ],
    });
  });

  it("reads the same with a session and a read-only token", async () => {
    const asToken = await api(rw(t), "/api/v1/categories");
    expect((await api(session(t), "/api/v1/categories")).body).toEqual(asToken.body);
    expect((await api(ro(t), "/api/v1/categories")).body).toEqual(asToken.body);
  });

  it("never shows one tenant's categories or taxonomy to another", async () => {
    const mine = JSON.stringify([(await api(rw(t), "/api/v1/categories")).body, await taxonomy(t)]);
    expect(mine).not.toContain("Other Tenant");
    const theirs = (await api(rw(other), "/api/v1/categories")).body;
    expect(theirs).toEqual({ categories: [{ category: "Other Tenant Secret", total_cents: -500000, lines: 1 }] });
    expect((await taxonomy(other)).map((e) => e.name)).toEqual(["Other Tenant Taxonomy"]);
    // Taxonomies are per tenant: a name one tenant keeps under a header is free under another header elsewhere.
    expect((await newCategory(other, "Unused", "income")).status).toBe(200);
  });

  it("counts only the lines the caller's face serves", async () => {
    const today = booksDate();
    const free = await createTenant({ tier: "free" });
    await deliver(free.tenant, {
      accounts: [CHECKING],
      added: [
        txn("new", { date: today, amount: 20, name: "FRESH LINE" }),
        txn("old", { date: addDays(today, -10), amount: 500, name: "OLD LINE" }),
      ],
    });
    await landSandboxBank(free);
    await judgeByDescription(free, "FRESH LINE", "Supplies");
    // The old line is before the free tier's window: find and judge it through the ledger directly.
    const vault = { tier: "paid" as const, visibleFrom: null, windowHours: null, effectiveFrom: null, today };
    const old = (settle(await ledgerOf(free).listTransactions(vault, { q: "OLD LINE" }, 1, 10))).rows[0]!;
    // Off the free tier's face, so no API call can reach it: judged straight in the vault.
    await runInDurableObject(ledgerOf(free), (ledger) => recordHumanJudgement(ledger.db, old.src_id, "Old Stuff", `human:${free.tenant}`, new Date().toISOString()));
    const answer = await api(rw(free), "/api/v1/categories");
    expect(answer.body).toEqual({ categories: [{ category: "Supplies", total_cents: -2000, lines: 1 }] });
  });
});

describe("credentials on the category verbs", () => {
  it("refuses a read-only token on both verbs and writes nothing", async () => {
    const t = await createTenant({ bank: false });
    const one = await newCategory(t, "Rent", "expense", ro(t));
    expect(one.status).toBe(403);
    expect(one.body.code).toBe("read_only_token");
    const many = await newCategories(t, [{ name: "Rent", header: "expense" }], ro(t));
    expect(many.status).toBe(403);
    expect(many.body.code).toBe("read_only_token");
    expect(await taxonomy(t)).toEqual([]);
  });
});

describe("deployment switches", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant({ bank: false });
    await newCategory(t, "Rent", "expense");
  });

  const call = (path: string, switches: Record<string, string>, init: { method?: string; body?: unknown; bearer?: string | null } = {}) => {
    const headers: Record<string, string> = {};
    if (init.bearer !== null) headers.authorization = `Bearer ${init.bearer ?? t.tokens.read_write}`;
    if (init.body !== undefined) headers["content-type"] = "application/json";
    const request = { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) };
    return createApp().request(`${BASE}${path}`, request, { ...env, ...switches }) as Promise<Response>;
  };

  it("answers 404 for the taxonomy read when TAXONOMY_READ is off, after the credential check", async () => {
    const off = await call("/api/v1/taxonomy", { TAXONOMY_READ: "off" });
    expect(off.status).toBe(404);
    expect(off.headers.get("content-type")).toBe("application/problem+json");
    const body = (await off.json()) as any;
    expect(body).toMatchObject({ status: 404, code: "taxonomy_read_disabled" });
    expect(body.detail).toContain("TAXONOMY_READ");
    expect((await call("/api/v1/taxonomy", { TAXONOMY_READ: "off" }, { bearer: null })).status).toBe(401);
    // The other switch leaves it alone, and the aggregate is not switched.
    expect((await call("/api/v1/taxonomy", { CATEGORY_VERBS: "off" })).status).toBe(200);
    expect((await call("/api/v1/categories", { TAXONOMY_READ: "off", CATEGORY_VERBS: "off" })).status).toBe(200);
    expect((await call("/api/v1/taxonomy", { TAXONOMY_READ: "on" })).status).toBe(200);
  });

  it("answers 404 for both new-category verbs when CATEGORY_VERBS is off, and writes nothing", async () => {
    const one = await call("/api/v1/new-category", { CATEGORY_VERBS: "off" }, { method: "POST", body: { name: "Payroll", header: "expense" } });
    expect(one.status).toBe(404);
    const oneBody = (await one.json()) as any;
    expect(oneBody).toMatchObject({ status: 404, code: "category_verbs_disabled" });
    expect(oneBody.detail).toContain("CATEGORY_VERBS");
    const many = await call("/api/v1/new-categories", { CATEGORY_VERBS: "off" }, { method: "POST", body: { categories: [{ name: "Payroll", header: "expense" }] } });
    expect(many.status).toBe(404);
    expect(((await many.json()) as any).code).toBe("category_verbs_disabled");
    expect((await taxonomy(t)).map((e) => e.name)).toEqual(["Rent"]);
    // Credentials are still checked first.
    expect((await call("/api/v1/new-category", { CATEGORY_VERBS: "off" }, { method: "POST", body: {}, bearer: null })).status).toBe(401);
    expect((await call("/api/v1/new-category", { CATEGORY_VERBS: "off" }, { method: "POST", body: { name: "Payroll", header: "expense" }, bearer: t.tokens.read_only })).status).toBe(403);
    // On, the verb writes.
    expect((await call("/api/v1/new-category", { CATEGORY_VERBS: "on" }, { method: "POST", body: { name: "Payroll", header: "expense" } })).status).toBe(200);
  });
});
