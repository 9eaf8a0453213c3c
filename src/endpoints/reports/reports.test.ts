/**
 * get_pnl_rolling against a hand-computed fixture, as_of 2026-11-20:
 *   7d: current 11-14..11-20, prior 11-07..11-13; 30d: current 10-22..11-20, prior 09-22..10-21.
 * Beside the sections: an uncategorised line and one under a label the taxonomy does not
 * hold (the unknown-label line), and a sale in euros (left out, counted, flagged).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, CHECKING, createTenant, deliver, judge, ro, rw, session, syncNow, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { pnlReportSchema, pnlTransactionsResponse } from "./schema";

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
  txn("m1", { name: "MISC CHARGE", amount: 30, date: "2026-11-16" }),
  txn("e1", { name: "SALE IN EUROS", amount: -250, date: "2026-11-18", iso_currency_code: "EUR" }),
  txn("n1", { name: "SALE NAMED IN DOLLARS", amount: -1, date: "2026-09-30", iso_currency_code: " usd" }),
];
const CATEGORY_OF: Record<string, string> = {
  SALE: "Sales",
  INVENTORY: "Inventory",
  SOFTWARE: "Software",
  OWNER: "Owner draw",
  TO: "Transfers",
  PENDING: "Sales",
  MISC: "Misc",
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
  /** The full form, the default: every line with its transactions. */
  let report: any;
  /** The totals form: numbers and counts. */
  let totals: any;

  beforeAll(async () => {
    t = await bookedTenant();
    const answer = await api(ro(t), "/api/v1/reports/pnl-rolling?as_of=2026-11-20&form=full");
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    report = answer.body;
    totals = (await api(ro(t), "/api/v1/reports/pnl-rolling?as_of=2026-11-20&form=totals")).body;
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
    // The 30-day prior sale named " usd" is the books' own currency, so it counts.
    expect(numbers("30d")).toEqual({
      revenue: [178000, 100],
      cogs: [30000, 0],
      gross_margin: [148000, 100],
      biz_expenses: [5000, 4000],
      net_income: [143000, -3900],
      owners_draw: [40000, 0],
    });
  });

  it("answers the totals on form=totals: the full report without its transactions, each line counting them", () => {
    expect(totals.form).toBe("totals");
    expect(report.form).toBe("full");
    const stripped = structuredClone(report);
    stripped.form = "totals";
    for (const w of Object.values<any>(stripped.windows)) {
      for (const section of Object.values<any>(w.sections)) for (const line of section.lines) delete line.transactions;
      delete w.unknown_label.transactions;
    }
    expect(totals).toEqual(stripped);
    const sales = report.windows["7d"].sections.revenue.lines[0];
    expect(sales.transaction_count).toEqual({ current: 3, prior: 1 });
    expect(sales.transactions.filter((x: any) => x.period === "current")).toHaveLength(3);
    expect(pnlReportSchema.parse(totals)).toEqual(totals);
  });

  it("gathers booked lines with no category or a label the taxonomy does not hold under one line, and warns", () => {
    const unknown = report.windows["7d"].unknown_label;
    // NOBODY KNOWS: +70.00 in, no category; MISC CHARGE: 30.00 out, "Misc" (not in the taxonomy).
    expect(unknown).toMatchObject({
      category: "Uncategorised / unknown label",
      current: 4000,
      prior: 0,
      sign: 1,
      transaction_count: { current: 2, prior: 0 },
      labels: [
        { category: "Misc", current: -3000, prior: 0, transaction_count: { current: 1, prior: 0 } },
        { category: "uncategorised", current: 7000, prior: 0, transaction_count: { current: 1, prior: 0 } },
      ],
    });
    expect(unknown.transactions.map((x: any) => [x.description, x.category, x.amount_cents, x.period])).toEqual([
      ["MISC CHARGE", "Misc", -3000, "current"],
      ["NOBODY KNOWS", "uncategorised", 7000, "current"],
    ]);
    // In none of the sections, so in none of the twelve numbers.
    const inSections = Object.values<any>(report.windows["30d"].sections).flatMap((s) => s.lines.map((l: any) => l.category));
    expect(inSections).not.toContain("Misc");
    expect(report.warnings.find((w: any) => w.code === "unknown_label")).toEqual({
      code: "unknown_label",
      lines: 2,
      message: expect.stringMatching(/2 booked lines .*"Misc", "uncategorised".*"Uncategorised \/ unknown label"/),
    });
  });

  it("leaves lines in another currency out, counts them and warns; their rows say so", async () => {
    expect(report.currency).toBe("USD");
    expect(report.windows["7d"].foreign_currency).toEqual({ current: 1, prior: 0, currencies: ["EUR"] });
    expect(report.windows["30d"].foreign_currency).toEqual({ current: 1, prior: 0, currencies: ["EUR"] });
    expect(report.warnings.find((w: any) => w.code === "foreign_currency")).toEqual({
      code: "foreign_currency",
      lines: 1,
      message: expect.stringContaining("(USD): EUR 1. It is left out of the P&L."),
    });
    const everywhere = Object.values<any>(report.windows).flatMap((w) => [
      ...Object.values<any>(w.sections).flatMap((s) => s.lines.flatMap((l: any) => l.transactions)),
      ...w.unknown_label.transactions,
    ]);
    expect(everywhere.map((x: any) => x.description)).not.toContain("SALE IN EUROS");
    const rows = (await api(ro(t), "/api/v1/transactions?q=SALE&per_page=100")).body.rows;
    const euros = rows.find((r: any) => r.description === "SALE IN EUROS");
    expect(euros).toMatchObject({ category: "Sales", in_books: true, currency: "EUR", foreign_currency: true });
    expect(rows.find((r: any) => r.description === "SALE NAMED IN DOLLARS")).toMatchObject({ currency: "USD", foreign_currency: false });
    expect(rows.find((r: any) => r.description === "SALE ON AS_OF")).toMatchObject({ currency: "USD", foreign_currency: false });
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
      ["2026-09-30", "prior"],
      ["2026-11-13", "current"],
      ["2026-11-14", "current"],
      ["2026-11-15", "current"],
      ["2026-11-20", "current"],
    ]);
    expect(sales[1]).toEqual({ side: "A", src_id: expect.any(Number), posted_on: "2026-11-13", description: "SALE ON 7D PRIOR END", amount_cents: 30000, period: "current" });
    const all = Object.values<any>(report.windows["30d"].sections).flatMap((s) => s.lines.flatMap((l: any) => l.transactions.map((x: any) => x.description)));
    for (const excluded of ["TO SAVINGS", "NOBODY KNOWS", "MISC CHARGE", "SALE IN EUROS", "PENDING SALE", "SALE AFTER AS_OF", "SALE TOO OLD"]) expect(all).not.toContain(excluded);
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
    const answer = await api(ro(odd), "/api/v1/reports/pnl-rolling?as_of=2026-11-20&form=full");
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
    const answer = (await api(ro(floored), "/api/v1/reports/pnl-rolling?as_of=2026-11-20&form=full")).body;
    const revenue = answer.windows["7d"].sections.revenue;
    // Of the 7-day sales, the one on 11-14 and the prior one on 11-13 are before the floor.
    expect([revenue.current, revenue.prior]).toEqual([98000, 0]);
    const listed = Object.values<any>(answer.windows["30d"].sections).flatMap((s) => s.lines.flatMap((l: any) => l.transactions.map((x: any) => x.posted_on)));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((d: string) => d >= "2026-11-15")).toBe(true);
  });

  it("takes the tenant from the credential: its own name is fine, another's is 403", async () => {
    expect((await api(session(t), `/api/v1/reports/pnl-rolling?tenant=${t.tenant}&as_of=2026-11-20&form=full`)).body).toEqual(report);
    const other = await createTenant();
    const mismatch = await api(rw(other), `/api/v1/reports/pnl-rolling?tenant=${t.tenant}`);
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.code).toBe("tenant_mismatch");
    const own = await api(rw(other), "/api/v1/reports/pnl-rolling?as_of=2026-11-20");
    expect(own.body.windows["30d"].sections.revenue).toEqual({ current: 0, prior: 0, derived: false, lines: [] });
    expect(own.body.warnings).toEqual([]);
  });

  it("defaults as_of to today in America/Chicago and refuses a bad date", async () => {
    const today = await api(rw(t), "/api/v1/reports/pnl-rolling");
    expect(today.body.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await api(rw(t), "/api/v1/reports/pnl-rolling?as_of=2026-02-30")).body.errors[0].field).toBe("query.as_of");
    expect((await api(rw(t), "/api/v1/reports/pnl-rolling?form=all")).body.errors[0].field).toBe("query.form");
  });
});

describe("record_pnl_parity", () => {
  let t: SandboxTenant;
  let own: any;
  const file = (body: unknown) => api(rw(t), "/api/v1/reports/pnl-parity", { method: "POST", body });

  beforeAll(async () => {
    t = await bookedTenant();
    own = (await api(rw(t), "/api/v1/reports/pnl-rolling?as_of=2026-11-20&form=full")).body;
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

  it("localises what the books leave out of every section (an unknown label, another currency) to the books' missing side", async () => {
    const oracle = copy();
    const found = async () => {
      const answer = await file({ oracle });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.verdict;
    };
    const { category: _label, ...miscEntry } = own.windows["7d"].unknown_label.transactions.find((x: any) => x.description === "MISC CHARGE");
    // The oracle counts the line the books leave under "Misc" as a business expense, and the euro sale as revenue.
    oracle.windows["7d"].sections.biz_expenses.lines.push({ category: "Misc", current: 3000, prior: 0, sign: 1, transactions: [miscEntry] });
    oracle.windows["7d"].sections.biz_expenses.current += 3000;
    const euros = (await api(ro(t), "/api/v1/transactions?q=EUROS")).body.rows[0];
    lineOf(oracle, "7d", "revenue", "Sales").transactions.push({ side: "A", src_id: euros.src_id, posted_on: "2026-11-18", description: "SALE IN EUROS", amount_cents: 25000, period: "current" });
    const verdict = await found();
    expect(verdict.deltas["7d.biz_expenses"]).toBe(-3000);
    expect(verdict.localisations.filter((l: any) => l.window === "7d").map((l: any) => [l.kind, l.description, l.oracle?.section])).toEqual([
      ["MISSING_ON_LOCAL", "MISC CHARGE", "biz_expenses"],
      ["MISSING_ON_LOCAL", "SALE IN EUROS", "revenue"],
    ]);
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

describe("list_pnl_transactions", () => {
  let t: SandboxTenant;
  let full: any;
  const page = (query: string) => api(ro(t), `/api/v1/reports/pnl-rolling/transactions?as_of=2026-11-20&${query}`);

  beforeAll(async () => {
    t = await bookedTenant();
    full = (await api(ro(t), "/api/v1/reports/pnl-rolling?as_of=2026-11-20&form=full")).body;
  });

  const keys = (entries: any[]) => entries.map((x: any) => `${x.side}:${x.src_id}:${x.period}`).sort();

  it("pages a section's transactions, by category then newest first, as many as its lines count", async () => {
    const first = await page("window=7d&section=revenue&per_page=3");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(pnlTransactionsResponse.parse(first.body)).toEqual(first.body);
    expect(first.body).toMatchObject({ as_of: "2026-11-20", window: "7d", section: "revenue", category: null, period: null, page: 1, per_page: 3, total: 4 });
    expect(first.body.transactions.map((x: any) => [x.description, x.period, x.category])).toEqual([
      ["SALE ON AS_OF", "current", "Sales"],
      ["SALE REFUND", "current", "Sales"],
      ["SALE ON 7D START", "current", "Sales"],
    ]);
    const second = (await page("window=7d&section=revenue&per_page=3&page=2")).body;
    expect(second.transactions.map((x: any) => x.description)).toEqual(["SALE ON 7D PRIOR END"]);
    expect((await page("window=7d&section=revenue&per_page=3&page=3")).body).toMatchObject({ transactions: [], total: 4 });
    expect(keys([...first.body.transactions, ...second.transactions])).toEqual(keys(full.windows["7d"].sections.revenue.lines[0].transactions));
  });

  it("narrows to one category line and one period; a derived section gives its components' transactions", async () => {
    const prior = (await page("window=7d&section=revenue&category=Sales&period=prior")).body;
    expect(prior).toMatchObject({ category: "Sales", period: "prior", total: 1 });
    expect(prior.transactions.map((x: any) => x.description)).toEqual(["SALE ON 7D PRIOR END"]);
    expect((await page("window=7d&section=revenue&category=Inventory")).body).toMatchObject({ transactions: [], total: 0 });
    const margin = (await page("window=30d&section=gross_margin&per_page=100")).body;
    const components = ["revenue", "cogs"].flatMap((s) => full.windows["30d"].sections[s].lines.flatMap((l: any) => l.transactions));
    expect(margin.total).toBe(components.length);
    expect(keys(margin.transactions)).toEqual(keys(components));
  });

  it("pages the unknown-label line's transactions, the queue's under `uncategorised`", async () => {
    const unknown = (await page("window=7d&section=unknown_label")).body;
    expect(unknown.total).toBe(2);
    expect(unknown.transactions.map((x: any) => [x.description, x.category])).toEqual([
      ["NOBODY KNOWS", "uncategorised"],
      ["MISC CHARGE", "Misc"],
    ]);
    expect((await page("window=7d&section=unknown_label&category=uncategorised")).body.transactions.map((x: any) => x.description)).toEqual(["NOBODY KNOWS"]);
  });

  it("clamps per_page to 500 and refuses what it cannot read", async () => {
    expect((await page("window=30d&section=net_income&per_page=100000")).body.per_page).toBe(500);
    const bad = await page("window=90d&section=profit&period=later");
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["query.period", "query.section", "query.window"]);
    expect((await api(ro(t), "/api/v1/reports/pnl-rolling/transactions?section=revenue")).body.errors.map((e: any) => e.field)).toEqual(["query.window"]);
  });

  it("serves only the caller's own books, on its face", async () => {
    const other = await createTenant();
    expect((await api(ro(other), "/api/v1/reports/pnl-rolling/transactions?as_of=2026-11-20&window=30d&section=revenue")).body).toMatchObject({ transactions: [], total: 0 });
    const floored = await bookedTenant({ visible_from: "2026-11-15" });
    const seen = (await api(ro(floored), "/api/v1/reports/pnl-rolling/transactions?as_of=2026-11-20&window=30d&section=revenue")).body;
    expect(seen.total).toBe(2);
    expect(seen.transactions.every((x: any) => x.posted_on >= "2026-11-15")).toBe(true);
    expect((await api({}, "/api/v1/reports/pnl-rolling/transactions?window=7d&section=revenue")).status).toBe(401);
  });
});

describe("the books' currency", () => {
  it("is USD until set; set, it decides which lines the P&L leaves out", async () => {
    const t = await bookedTenant();
    expect((await api(ro(t), "/api/v1/books-currency")).body).toEqual({ currency: "USD", set_at: null, set_by: null });
    const set = await api(rw(t), "/api/v1/books-currency", { method: "POST", body: { currency: "EUR" } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ currency: "EUR", set_at: expect.any(String), set_by: expect.stringMatching(/^token:/) });
    expect((await api(ro(t), "/api/v1/books-currency")).body).toEqual(set.body);
    // Setting it again appends nothing: the same fact answers.
    expect((await api(rw(t), "/api/v1/books-currency", { method: "POST", body: { currency: "EUR" } })).body).toEqual(set.body);

    const report = (await api(ro(t), "/api/v1/reports/pnl-rolling?as_of=2026-11-20")).body;
    expect(report.currency).toBe("EUR");
    // The euro sale now counts; the sale the bank named in dollars is the foreign one; lines naming none are the books' own.
    expect(report.windows["7d"].sections.revenue.current).toBe(148000 + 25000);
    expect(report.windows["30d"].sections.revenue.prior).toBe(0);
    expect(report.windows["30d"].foreign_currency).toEqual({ current: 0, prior: 1, currencies: ["USD"] });
    const rows = (await api(ro(t), "/api/v1/transactions?q=SALE&per_page=100")).body.rows;
    expect(rows.find((r: any) => r.description === "SALE IN EUROS")).toMatchObject({ currency: "EUR", foreign_currency: false });
    expect(rows.find((r: any) => r.description === "SALE NAMED IN DOLLARS")).toMatchObject({ currency: "USD", foreign_currency: true });
    expect(rows.find((r: any) => r.description === "SALE ON AS_OF")).toMatchObject({ currency: "EUR", foreign_currency: false });
  });

  it("takes an ISO 4217 code in capitals, from a credential that may write", async () => {
    const t = await createTenant();
    for (const currency of ["eur", "EURO", "", "E1R"]) {
      const answer = await api(rw(t), "/api/v1/books-currency", { method: "POST", body: { currency } });
      expect(answer.status, currency).toBe(400);
      expect(answer.body.errors[0].field).toBe("body.currency");
    }
    expect((await api(ro(t), "/api/v1/books-currency", { method: "POST", body: { currency: "EUR" } })).status).toBe(403);
    expect((await api(session(t), "/api/v1/books-currency", { method: "POST", body: { currency: "GBP" } })).body.currency).toBe("GBP");
    // Another tenant's books keep their own.
    expect((await api(ro(await createTenant()), "/api/v1/books-currency")).body.currency).toBe("USD");
  });
});
