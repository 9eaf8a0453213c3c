/**
 * get_pnl_rolling against a hand-computed fixture, as_of 2026-11-20:
 *   7d: current 11-14..11-20, prior 11-07..11-13; 30d: current 10-22..11-20, prior 09-22..10-21.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, CHECKING, createTenant, deliver, judge, ro, rw, session, syncNow, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { pnlReportSchema } from "./schema";

// Aggregator sign: positive = money out.
const LINES = [
  txn("s1", { name: "SALE ON AS_OF", amount: -1000, date: "2026-11-20" }),
  txn("s2", { name: "SALE ON 7D START", amount: -500, date: "2026-11-14" }),
  txn("s3", { name: "SALE ON 7D PRIOR END", amount: -300, date: "2026-11-13" }),
  txn("s4", { name: "SALE REFUND", amount: 20, date: "2026-11-15" }),
  txn("i1", { name: "INVENTORY A", amount: 200, date: "2026-11-16" }),
  txn("i2", { name: "INVENTORY B", amount: 100, date: "2026-10-25" }),
  txn("w1", { name: "SOFTWARE A", amount: 50, date: "2026-11-01" }),
  txn("w2", { name: "SOFTWARE B", amount: 40, date: "2026-10-10" }),
  txn("d1", { name: "OWNER CASH", amount: 400, date: "2026-11-18" }),
  txn("t1", { name: "TO SAVINGS", amount: 1000, date: "2026-11-17" }),
  txn("u1", { name: "NOBODY KNOWS", amount: -70, date: "2026-11-19" }),
  txn("p1", { name: "PENDING SALE", amount: -999, date: "2026-11-19", pending: true }),
  txn("o1", { name: "SALE AFTER AS_OF", amount: -10, date: "2026-11-21" }),
  txn("x1", { name: "SALE TOO OLD", amount: -5, date: "2026-09-21" }),
];
const CATEGORY_OF: Record<string, string> = {
  SALE: "Sales",
  INVENTORY: "Inventory",
  SOFTWARE: "Software",
  OWNER: "Owner draw",
  TO: "Transfers",
  PENDING: "Sales",
};

/** A tenant whose books hold the fixture, categorised under a taxonomy of the five headers. */
async function bookedTenant(options: Record<string, unknown> = {}): Promise<SandboxTenant> {
  const t = await createTenant(options);
  await deliver(t.tenant, { accounts: [CHECKING], added: LINES });
  await syncNow(t);
  for (const [name, header] of [["Sales", "income"], ["Inventory", "cogs"], ["Software", "expense"], ["Owner draw", "draw"], ["Transfers", "transfer"]]) {
    expect((await api(rw(t), "/api/v1/new-category", { method: "POST", body: { name, header } })).status).toBe(200);
  }
  for (const row of (await api(rw(t), "/api/v1/transactions?per_page=100")).body.rows) {
    const category = CATEGORY_OF[row.description.split(" ")[0]];
    if (category) await judge(t, row.src_id, category);
  }
  return t;
}

describe("get_pnl_rolling", () => {
  let t: SandboxTenant;
  let report: any;

  beforeAll(async () => {
    t = await bookedTenant();
    const answer = await api(ro(t), "/api/v1/reports/pnl-rolling?as_of=2026-11-20");
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    report = answer.body;
  });

  const numbers = (window: string) =>
    Object.fromEntries(Object.entries<any>(report.windows[window].sections).map(([name, s]) => [name, [s.current, s.prior]]));

  it("frames both windows and says what classified the rows", () => {
    expect(report).toMatchObject({ as_of: "2026-11-20", lineage_basis: "unreadable", lists_source: expect.stringContaining("taxonomy") });
    expect(report.windows["7d"]).toMatchObject({ from: "2026-11-14", to: "2026-11-20", prior_from: "2026-11-07", prior_to: "2026-11-13" });
    expect(report.windows["30d"]).toMatchObject({ from: "2026-10-22", to: "2026-11-20", prior_from: "2026-09-22", prior_to: "2026-10-21" });
  });

  it("computes every section's current and prior by hand's numbers", () => {
    expect(numbers("7d")).toEqual({
      revenue: [148000, 30000],
      cogs: [20000, 0],
      gross_margin: [128000, 30000],
      biz_expenses: [0, 0],
      net_income: [128000, 30000],
      owners_draw: [40000, 0],
    });
    expect(numbers("30d")).toEqual({
      revenue: [178000, 0],
      cogs: [30000, 0],
      gross_margin: [148000, 0],
      biz_expenses: [5000, 4000],
      net_income: [143000, -4000],
      owners_draw: [40000, 0],
    });
  });

  it("lists every contributing transaction under its category, with its period", () => {
    const revenue = report.windows["7d"].sections.revenue;
    expect(revenue.derived).toBe(false);
    expect(revenue.lines).toHaveLength(1);
    expect(revenue.lines[0]).toMatchObject({ category: "Sales", current: 148000, prior: 30000, sign: 1 });
    expect(revenue.lines[0].transactions.map((x: any) => [x.description, x.amount_cents, x.period])).toEqual([
      ["SALE ON 7D PRIOR END", 30000, "prior"],
      ["SALE ON 7D START", 50000, "current"],
      ["SALE REFUND", -2000, "current"],
      ["SALE ON AS_OF", 100000, "current"],
    ]);
    // 30 days: the prior period's lines first, then the current period's, each oldest first.
    const software = report.windows["30d"].sections.biz_expenses.lines[0];
    expect(software.transactions.map((x: any) => [x.description, x.period])).toEqual([["SOFTWARE B", "prior"], ["SOFTWARE A", "current"]]);
    const sales = report.windows["30d"].sections.revenue.lines[0].transactions;
    expect(sales.map((x: any) => [x.posted_on, x.period])).toEqual([
      ["2026-11-13", "current"],
      ["2026-11-14", "current"],
      ["2026-11-15", "current"],
      ["2026-11-20", "current"],
    ]);
    expect(sales[0]).toEqual({ side: "A", src_id: expect.any(Number), posted_on: "2026-11-13", description: "SALE ON 7D PRIOR END", amount_cents: 30000, period: "current" });
    const all = Object.values<any>(report.windows["30d"].sections).flatMap((s) => s.lines.flatMap((l: any) => l.transactions.map((x: any) => x.description)));
    for (const excluded of ["TO SAVINGS", "NOBODY KNOWS", "PENDING SALE", "SALE AFTER AS_OF", "SALE TOO OLD"]) expect(all).not.toContain(excluded);
  });

  it("answers exactly the documented shape: the schema's parse changes nothing", () => {
    expect(pnlReportSchema.parse(report)).toEqual(report);
  });

  it("carries descriptions as the bank printed them: quotes, backslashes, non-ASCII text", async () => {
    const odd = await createTenant();
    const descriptions = ['CAF\u00c9 "LE BON" \\ 50% #1', "\u30ab\u30d5\u30a7 \u{1f600} TAB\tEND", '{"period":"current"}'];
    await deliver(odd.tenant, { accounts: [CHECKING], added: descriptions.map((name, i) => txn(`odd${i}`, { name, amount: -10, date: "2026-11-19" })) });
    await syncNow(odd);
    expect((await api(rw(odd), "/api/v1/new-category", { method: "POST", body: { name: "Sales", header: "income" } })).status).toBe(200);
    for (const row of (await api(rw(odd), "/api/v1/transactions")).body.rows) await judge(odd, row.src_id, "Sales");
    const answer = await api(ro(odd), "/api/v1/reports/pnl-rolling?as_of=2026-11-20");
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    const listed = answer.body.windows["7d"].sections.revenue.lines[0].transactions.map((x: any) => x.description);
    expect(listed.sort()).toEqual([...descriptions].sort());
  });

  it("re-carries the components' lines in the derived sections with the sign each enters with", () => {
    const net = report.windows["30d"].sections.net_income;
    expect(net.derived).toBe(true);
    expect(net.lines.map((l: any) => [l.category, l.sign, l.current])).toEqual([
      ["Sales", 1, 178000],
      ["Inventory", -1, 30000],
      ["Software", -1, 5000],
    ]);
    expect(net.lines.reduce((s: number, l: any) => s + l.sign * l.current, 0)).toBe(net.current);
    expect(report.windows["7d"].sections.gross_margin.lines.map((l: any) => [l.category, l.sign])).toEqual([["Sales", 1], ["Inventory", -1]]);
  });

  it("counts only the lines the face serves: a floor leaves out every line before it", async () => {
    const floored = await bookedTenant({ visible_from: "2026-11-15" });
    const answer = (await api(ro(floored), "/api/v1/reports/pnl-rolling?as_of=2026-11-20")).body;
    const revenue = answer.windows["7d"].sections.revenue;
    // Of the 7-day sales, the one on 11-14 and the prior one on 11-13 are before the floor.
    expect([revenue.current, revenue.prior]).toEqual([98000, 0]);
    const listed = Object.values<any>(answer.windows["30d"].sections).flatMap((s) => s.lines.flatMap((l: any) => l.transactions.map((x: any) => x.posted_on)));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((d: string) => d >= "2026-11-15")).toBe(true);
  });

  it("takes the tenant from the credential: its own name is fine, another's is 403", async () => {
    expect((await api(session(t), `/api/v1/reports/pnl-rolling?tenant=${t.tenant}&as_of=2026-11-20`)).body).toEqual(report);
    const other = await createTenant();
    const mismatch = await api(rw(other), `/api/v1/reports/pnl-rolling?tenant=${t.tenant}`);
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.code).toBe("tenant_mismatch");
    const own = await api(rw(other), "/api/v1/reports/pnl-rolling?as_of=2026-11-20");
    expect(own.body.windows["30d"].sections.revenue).toEqual({ current: 0, prior: 0, derived: false, lines: [] });
  });

  it("defaults as_of to today in America/Chicago and refuses a bad date", async () => {
    const today = await api(rw(t), "/api/v1/reports/pnl-rolling");
    expect(today.body.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await api(rw(t), "/api/v1/reports/pnl-rolling?as_of=2026-02-30")).body.errors[0].field).toBe("query.as_of");
  });
});

describe("record_pnl_parity", () => {
  let t: SandboxTenant;
  let own: any;
  const file = (body: unknown) => api(rw(t), "/api/v1/reports/pnl-parity", { method: "POST", body });

  beforeAll(async () => {
    t = await bookedTenant();
    own = (await api(rw(t), "/api/v1/reports/pnl-rolling?as_of=2026-11-20")).body;
  });

  /** A copy of the books' own report, to plant differences in. */
  const copy = () => structuredClone(own);
  const lineOf = (report: any, window: string, section: string, category: string) =>
    report.windows[window].sections[section].lines.find((l: any) => l.category === category);

  it("files a zero coefficient against its own report, and a higher revision for the same day", async () => {
    const first = await file({ oracle: own });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.verdict).toMatchObject({ as_of: "2026-11-20", revision: 1, coefficient: 0, localisations: [] });
    expect(Object.values(first.body.verdict.deltas)).toEqual(Array(12).fill(0));
    const again = await file({ oracle: own, local: own });
    expect(again.body.verdict).toEqual({ ...first.body.verdict, revision: 2 });
  });

  it("localises each kind of difference to its transactions", async () => {
    const oracle = copy();
    const sales = lineOf(oracle, "7d", "revenue", "Sales");
    // AMOUNT_DIFF: the oracle has the as_of sale at 900.00, not 1,000.00.
    const asOfSale = sales.transactions.find((x: any) => x.description === "SALE ON AS_OF");
    asOfSale.amount_cents = 90000;
    // WINDOW_EDGE: the oracle puts the sale on the 7d window's first day outside its window.
    sales.transactions = sales.transactions.filter((x: any) => x.description !== "SALE ON 7D START");
    // RECATEGORIZED: the oracle books the refund under biz_expenses.
    const refund = sales.transactions.find((x: any) => x.description === "SALE REFUND");
    sales.transactions = sales.transactions.filter((x: any) => x !== refund);
    oracle.windows["7d"].sections.biz_expenses.lines.push({ category: "Refunds", current: 2000, prior: 0, sign: 1, transactions: [refund] });
    // MISSING_ON_ORACLE: the oracle lacks an inventory purchase mid-window.
    lineOf(oracle, "7d", "cogs", "Inventory").transactions = [];
    // MISSING_ON_LOCAL: the oracle has a sale the books do not.
    sales.transactions.push({ side: "A", src_id: 9999, posted_on: "2026-11-17", description: "CASH SALE", amount_cents: 12345, period: "current" });
    oracle.windows["7d"].sections.revenue.current = 100;

    const answer = await file({ oracle });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const found = answer.body.verdict.localisations.filter((l: any) => l.window === "7d").map((l: any) => [l.kind, l.description]);
    expect(found).toEqual([
      ["WINDOW_EDGE", "SALE ON 7D START"],
      ["RECATEGORIZED", "SALE REFUND"],
      ["MISSING_ON_ORACLE", "INVENTORY A"],
      ["MISSING_ON_LOCAL", "CASH SALE"],
      ["AMOUNT_DIFF", "SALE ON AS_OF"],
    ]);
    const recategorized = answer.body.verdict.localisations.find((l: any) => l.kind === "RECATEGORIZED");
    expect(recategorized).toMatchObject({ local: { section: "revenue", category: "Sales" }, oracle: { section: "biz_expenses", category: "Refunds" } });
    expect(answer.body.verdict.deltas["7d.revenue"]).toBe(148000 - 100);
    // Coefficient: |148000 - 100| over the oracle's twelve numbers.
    const twelve = Object.values<any>(oracle.windows).flatMap((w) => Object.values<any>(w.sections).map((s) => Math.abs(s.current)));
    expect(answer.body.verdict.coefficient).toBeCloseTo(147900 / twelve.reduce((a: number, b: number) => a + b, 0), 10);
    // The same books and oracle give the same verdict, but for the revision.
    const repeat = await file({ oracle });
    expect({ ...repeat.body.verdict, revision: 0 }).toEqual({ ...answer.body.verdict, revision: 0 });
  });

  it("refuses a rendered card or raw workflow output as the oracle (400)", async () => {
    for (const oracle of ["## P&L 7d\nRevenue: $1,480.00", { steps: [{ name: "fetch", output: "ok" }] }, [1, 2, 3]]) {
      const answer = await file({ oracle });
      expect(answer.status).toBe(400);
      expect(answer.body.errors.map((e: any) => e.field).every((f: string) => f.startsWith("body.oracle"))).toBe(true);
    }
  });

  it("files nothing when the asserted local numbers disagree with the books (409)", async () => {
    const before = (await file({ oracle: own, as_of: "2026-11-20" })).body.verdict.revision;
    const local = copy();
    local.windows["30d"].sections.net_income.current += 1;
    const answer = await file({ oracle: own, local });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: "local_disagrees", detail: expect.stringContaining("30d.net_income") });
    expect((await file({ oracle: own })).body.verdict.revision).toBe(before + 1);
  });

  it("is refused to a read-only token", async () => {
    expect((await api(ro(t), "/api/v1/reports/pnl-parity", { method: "POST", body: { oracle: own } })).status).toBe(403);
  });
});
