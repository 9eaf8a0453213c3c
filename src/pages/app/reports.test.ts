/**
 * /app/reports: the rolling P&L as the API reports it (chart, table, drill-down to the
 * contributing lines), the parity verdicts with their localisations, and export downloads.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, rw, session, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { bakery, page, textOf } from "../../../test/fixtures/workspace";

const AS_OF = "2026-11-20";

describe("the reports page", () => {
  let t: SandboxTenant;
  let report: any;
  beforeAll(async () => {
    t = await bakery({
      rules: [
        { rule_key: "sales", match_kind: "description_regex", match_value: "STRIPE", category: "Sales" },
        { rule_key: "coffee", match_kind: "description_regex", match_value: "BLUE BOTTLE", category: "Meals" },
        { rule_key: "software", match_kind: "description_regex", match_value: "GITHUB", category: "Software" },
        { rule_key: "flour", match_kind: "description_regex", match_value: "FLOUR", category: "Ingredients" },
      ],
    });
    // The whole report (form=full): the tests read the transactions behind its lines.
    report = (await api(rw(t), `/api/v1/reports/pnl-rolling?as_of=${AS_OF}&form=full`)).body;
  });

  it("shows both windows' sections as the API reports them, with a chart", async () => {
    const answer = await page(t, `/app/reports?as_of=${AS_OF}`);
    expect(answer.status).toBe(200);
    for (const window of ["7d", "30d"]) {
      const table = new RegExp(`<table data-testid="pnl-${window}">([\\s\\S]*?)</table>`).exec(answer.html)![1]!;
      const sections = report.windows[window].sections;
      const dollars = (cents: number) => `${cents < 0 ? "\u2212" : ""}$${(Math.abs(cents) / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
      expect(textOf(table)).toContain(`Revenue ${dollars(sections.revenue.current)} ${dollars(sections.revenue.prior)}`);
      expect(textOf(table)).toContain(`Net income ${dollars(sections.net_income.current)} ${dollars(sections.net_income.prior)}`);
      for (const line of sections.biz_expenses.lines) expect(textOf(table)).toContain(`${line.category} ${dollars(line.current)}`);
    }
    expect(answer.html).toMatch(/<svg class="chart" viewBox="0 0 640 260" role="img" aria-labelledby="pnl-7d-chart-title pnl-7d-chart-desc"/);
    expect(answer.html).toContain("<title id=\"pnl-30d-chart-title\">");
  });

  it("drills down from a line to the transactions behind it", async () => {
    const meals = report.windows["30d"].sections.biz_expenses.lines.find((l: any) => l.category === "Meals");
    const current = meals.transactions.filter((x: any) => x.period === "current");
    const answer = await page(t, `/app/reports/lines?as_of=${AS_OF}&window=30d&section=biz_expenses&category=Meals&period=current`);
    expect(answer.status).toBe(200);
    const linked = [...answer.html.matchAll(/<a href="\/app\/transactions\/A\/(\d+)">/g)].map((m) => Number(m[1]));
    expect(linked.sort((a, b) => a - b)).toEqual(current.map((x: any) => x.src_id).sort((a: number, b: number) => a - b));
    expect(textOf(answer.html)).toContain(`The ${current.length} booked lines behind Business expenses: Meals`);
    expect((await page(t, `/app/reports/lines?as_of=${AS_OF}&window=90d&section=biz_expenses&period=current`)).status).toBe(400);
  });

  it("lists a filed verdict and shows its localisations, each tied to its line", async () => {
    // The oracle has one coffee line as Software: the verdict localises it as RECATEGORIZED.
    const oracle = structuredClone(report);
    const biz = oracle.windows["7d"].sections.biz_expenses;
    const meals = biz.lines.find((l: any) => l.category === "Meals");
    const moved = meals.transactions.find((x: any) => x.period === "current");
    meals.transactions = meals.transactions.filter((x: any) => x !== moved);
    meals.current -= -moved.amount_cents;
    const software = biz.lines.find((l: any) => l.category === "Software");
    software.transactions.push(moved);
    software.current += -moved.amount_cents;
    const filed = await api(rw(t), "/api/v1/reports/pnl-parity", { method: "POST", body: { oracle, as_of: AS_OF } });
    expect(filed.status, JSON.stringify(filed.body)).toBe(200);

    const listed = await page(t, "/app/reports");
    expect(listed.html).toContain(`<a href="/app/reports/verdicts/${AS_OF}">${AS_OF}</a>`);
    const verdict = await page(t, `/app/reports/verdicts/${AS_OF}`);
    expect(verdict.status).toBe(200);
    const table = /<table data-testid="localisations">([\s\S]*?)<\/table>/.exec(verdict.html)![1]!;
    expect(table).toContain(`<a href="/app/transactions/A/${moved.src_id}">`);
    expect(textOf(table)).toContain("categorised differently");
    expect(textOf(table)).toMatch(/Business expenses, Meals, .* Business expenses, Software/);
    expect((await page(t, "/app/reports/verdicts/2026-01-01")).status).toBe(404);
    expect((await page(t, "/app/reports/verdicts/not-a-day")).status).toBe(404);
  });

  it("exports the books and links the four files, which download in the session", async () => {
    const made = await page(t, "/app/reports/export", { form: {} });
    expect(made.status).toBe(303);
    expect(made.location).toMatch(/^\/app\/reports\/exports\/\d+$/);
    const receipt = await page(t, made.location!);
    const files = [...receipt.html.matchAll(/<a href="(\/api\/v1\/exports\/\d+\/[a-z.-]+)" download=/g)].map((m) => m[1]!);
    expect(files.map((f) => f.split("/").at(-1))).toEqual(["transactions.csv", "accounts.csv", "accounting-bank.csv", "accounting.iif"]);
    const download = await api(session(t), files[0]!);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain("transactions.csv");
  });

  it("keeps exports and verdicts to their tenant, and refuses exports read-only or from another origin", async () => {
    const other = await createTenant();
    expect((await page(other, "/app/reports/exports/1")).status).toBe(404);
    expect((await page(other, `/app/reports/verdicts/${AS_OF}`)).status).toBe(404);
    expect((await page(t, "/app/reports/export", { form: {}, bearer: t.tokens.read_only })).status).toBe(403);
    expect((await page(t, "/app/reports/export", { form: {}, origin: "https://evil.example" })).status).toBe(403);
    expect((await page(t, "/app/reports", { noCredential: true })).location).toBe("/signin");
  });
});
