/**
 * An owner in the workspace, in a real browser (Debian's chromium through playwright-core):
 * signs in and lands on the review; categorises a line with one key press, labels one,
 * asks why a line waits, turns a decision into a rule after seeing how many lines it would
 * take, and sees the queue shrink; reads the P&L and a parity verdict. Every page is checked
 * with axe-core (no serious or critical violation), and walked again with JavaScript off,
 * where every action is a plain form.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fetchService, launchChromium, newContext } from "./browser";

const baseUrl = inject("baseUrl");
const browserBase = process.env.BROWSER_HOST ? `http://${process.env.BROWSER_HOST}:${inject("port")}` : baseUrl;
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const password = "correct horse battery staple";
const AS_OF = "2026-11-20";
const CATEGORIES = [
  { name: "Sales", header: "income" },
  { name: "Ingredients", header: "cogs" },
  { name: "Meals", header: "expense" },
  { name: "Software", header: "expense" },
];
const NAMES = ["SQ *BLUE BOTTLE 1234", "GITHUB INC", "STRIPE TRANSFER", "MYSTERY VENDOR 77", "SQ *BLUE BOTTLE 5678", "FLOUR MILL CO"];

interface Owner {
  tenant: string;
  token: string;
}

async function call(path: string, token: string | null, init: { method?: string; body?: unknown } = {}): Promise<any> {
  const response = await fetchService(`${baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** A bakery signed up through the sandbox with a day's lines synced and its categories, nothing decided. */
async function bakery(name: string): Promise<Owner> {
  const tenant = `${name}-${Date.now().toString(36)}`;
  const signup = await call("/sandbox/tenants", null, { method: "POST", body: { tenant, password } });
  const token = signup.tokens.read_write as string;
  await call("/api/v1/new-categories", token, { method: "POST", body: { categories: CATEGORIES } });
  const added = Array.from({ length: 12 }, (_, i) => ({
    transaction_id: `txn_${i + 1}`,
    account_id: "acc_checking",
    amount: NAMES[i % NAMES.length] === "STRIPE TRANSFER" ? -(400 + i) : 10 + i,
    date: `2026-11-${String(10 + (i % 10)).padStart(2, "0")}`,
    name: NAMES[i % NAMES.length],
  }));
  await call(`/sandbox/tenants/${tenant}/bank`, null, { method: "POST", body: { accounts: [{ account_id: "acc_checking", name: "Business Checking", mask: "0042" }], added } });
  const { request_id } = await call("/api/v1/sync-now", token, { method: "POST" });
  for (let i = 0; i < 200; i++) {
    const { runs } = await call("/api/v1/sync-history", token);
    if (runs.some((r: any) => r.request_id === request_id && r.final)) return { tenant, token };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the sync never finished");
}

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** A browser context signed in as the owner (with or without JavaScript), and what it saw go wrong. */
async function signedIn(owner: Owner, javaScriptEnabled: boolean): Promise<{ context: BrowserContext; page: Page; errors: string[]; elsewhere: string[] }> {
  const context = await newContext(browser, { javaScriptEnabled });
  const page = await context.newPage();
  const errors: string[] = [];
  const elsewhere: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on("request", (request) => {
    if (!request.url().startsWith(browserBase) && !request.url().startsWith("data:")) elsewhere.push(request.url());
  });
  await page.goto(`${browserBase}/signin`);
  await page.fill("#tenant", owner.tenant);
  await page.fill("#password", password);
  await Promise.all([page.waitForURL(`${browserBase}/app/review`), page.getByRole("button", { name: "Sign in" }).click()]);
  return { context, page, errors, elsewhere };
}

/** axe-core's serious and critical violations on the page as it stands (WCAG 2.x A and AA rules, best practices). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const results = await page.evaluate<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>(
    "axe.run(document, { resultTypes: ['violations'] })",
  );
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function queueCount(page: Page): Promise<number> {
  const text = (await page.locator("#queue-count").textContent()) ?? "";
  return Number(/^\d+/.exec(text.replace(/,/g, ""))![0]);
}

describe("an owner in the workspace", () => {
  let owner: Owner;
  let page: Page;
  let context: BrowserContext;
  let errors: string[];
  let elsewhere: string[];
  const checked: Record<string, string[]> = {};

  beforeAll(async () => {
    owner = await bakery("owner");
    ({ page, context, errors, elsewhere } = await signedIn(owner, true));
  });

  afterAll(async () => {
    await context?.close();
  });

  it("lands on the review: the queue, the longest-waiting first, its size in the navigation", async () => {
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Review");
    expect(await queueCount(page)).toBe(12);
    expect(await page.locator("tr[data-row]").count()).toBe(12);
    const dates = await page.locator("tr[data-row] td.date").allTextContents();
    expect(dates).toEqual([...dates].sort());
    checked.review = await seriousViolations(page);
  });

  it("is reachable by keyboard: the skip link first, focus always shown", async () => {
    await page.keyboard.press("Tab");
    const skip = page.locator("a.skip");
    expect(await skip.evaluate((a) => a === (a.ownerDocument as any).activeElement)).toBe(true);
    expect(await skip.evaluate("e => getComputedStyle(e).outlineStyle")).not.toBe("none");
    await page.keyboard.press("Enter");
    expect(await page.evaluate<string>("document.activeElement.id")).toBe("main");
  });

  it("categorises a line with one key press, and moves on to the next", async () => {
    const digit = await page.locator('#quick-categories [data-category="Meals"]').getAttribute("data-quick");
    await page.keyboard.press("j");
    const first = page.locator("tr[data-row]").first();
    const id = (await first.getAttribute("id"))!;
    expect(await page.evaluate<string>("document.activeElement.closest('tr').id")).toBe(id);
    await page.keyboard.press(digit!);
    await page.locator(`#${id}.done`).waitFor();
    expect(await page.locator(`#${id}`).textContent()).toContain("is now Meals");
    expect(await queueCount(page)).toBe(11);
    // Focus went on to the next line still waiting.
    await expect.poll(() => page.evaluate<string | null>("document.activeElement.closest('tr[data-row]')?.id ?? null")).not.toBeNull();
  });

  it("asks why a line waits, in place", async () => {
    await page.keyboard.press("w");
    const row = await page.evaluate<string>("document.activeElement.closest('tr').id");
    const why = page.locator(`#${row} .why`);
    await expect.poll(() => why.textContent()).toContain("No rule, judgement or model has decided");
  });

  it("labels a line with the category chosen in its row", async () => {
    const row = page.locator("tr[data-row]").first();
    const id = (await row.getAttribute("id"))!;
    await row.locator("select").selectOption("Software");
    await row.getByRole("button", { name: "Label" }).click();
    await page.locator(`#${id}.done`).waitFor();
    expect(await page.locator(`#${id}`).textContent()).toContain("Labelled: ");
    expect(await queueCount(page)).toBe(10);
  });

  it("turns a decision into a rule after seeing how many lines it would take, and the queue shrinks by them", async () => {
    const before = await queueCount(page);
    await page.locator("tr.done").first().getByRole("link", { name: "Make a rule from it" }).click();
    await page.waitForURL(/\/app\/rules\/new\?/);
    const dryRun = (await page.getByTestId("dry-run").textContent()) ?? "";
    const would = Number(/would decide (\d+) lines?/.exec(dryRun)![1]);
    expect(would).toBeGreaterThan(0);
    checked["rule form"] = await seriousViolations(page);
    // Tried again in place after an edit: the same count for the same rule.
    await page.getByRole("button", { name: "Test against the books" }).click();
    await expect.poll(() => page.getByTestId("dry-run").textContent()).toContain(`would decide ${would}`);
    await Promise.all([page.waitForURL(/\/app\/review\?rule=/), page.getByRole("button", { name: "Save the rule" }).click()]);
    expect(await page.getByTestId("notice").first().textContent()).toContain(`it decided ${would}`);
    expect(await queueCount(page)).toBe(before - would);
  });

  it("searches the books and opens a line's history", async () => {
    await page.goto(`${browserBase}/app/transactions`);
    checked.transactions = await seriousViolations(page);
    await page.keyboard.press("/");
    await page.keyboard.type("blue bottle");
    await Promise.all([page.waitForURL(/q=blue\+bottle/), page.keyboard.press("Enter")]);
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(4);
    await rows.first().getByRole("link").first().click();
    await page.waitForURL(/\/app\/transactions\/A\/\d+$/);
    expect(await page.getByTestId("explanation").textContent()).toMatch(/by rule|by human/);
    checked["a line"] = await seriousViolations(page);
  });

  it("reads the P&L with its chart, drills into a line, and reads a parity verdict", async () => {
    // Every line decided, so the report has each section; then a verdict against an oracle that differs on one line.
    await call("/api/v1/create-rules", owner.token, {
      method: "POST",
      body: {
        rules: [
          { rule_key: "sales", match_kind: "description_regex", match_value: "STRIPE", category: "Sales" },
          { rule_key: "flour", match_kind: "description_regex", match_value: "FLOUR", category: "Ingredients" },
          { rule_key: "software", match_kind: "description_regex", match_value: "GITHUB|MYSTERY", category: "Software" },
        ],
      },
    });
    await call("/api/v1/run-rules", owner.token, { method: "POST" });
    const report = await call(`/api/v1/reports/pnl-rolling?as_of=${AS_OF}&form=full`, owner.token);
    const oracle = structuredClone(report);
    const revenue = oracle.windows["7d"].sections.revenue.lines[0];
    revenue.current += 1000;
    revenue.transactions[revenue.transactions.length - 1].amount_cents += 1000;
    oracle.windows["7d"].sections.revenue.current += 1000;
    await call("/api/v1/reports/pnl-parity", owner.token, { method: "POST", body: { oracle, as_of: AS_OF } });

    await page.goto(`${browserBase}/app/reports?as_of=${AS_OF}`);
    expect(await page.locator("svg.chart").count()).toBe(2);
    expect(await page.getByRole("img", { name: /The last 7 days/ }).count()).toBe(1);
    expect(await page.getByTestId("pnl-30d").textContent()).toContain("Revenue");
    checked.reports = await seriousViolations(page);
    await page.getByTestId("pnl-30d").getByRole("link", { name: /behind Sales/ }).first().click();
    await page.waitForURL(/\/app\/reports\/lines\?/);
    expect(await page.locator("tbody tr").count()).toBeGreaterThan(0);
    checked["the lines behind a number"] = await seriousViolations(page);
    await page.goto(`${browserBase}/app/reports`);
    await page.getByRole("link", { name: AS_OF, exact: true }).click();
    await page.waitForURL(`${browserBase}/app/reports/verdicts/${AS_OF}`);
    expect(await page.getByTestId("localisations").textContent()).toContain("a different amount");
    checked.verdict = await seriousViolations(page);
  });

  it("exports the books and reaches the settings gathered in one place", async () => {
    await page.goto(`${browserBase}/app/reports`);
    await Promise.all([page.waitForURL(/\/app\/reports\/exports\/\d+$/), page.getByRole("button", { name: "Export the books" }).click()]);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "transactions.csv" }).click()]);
    expect(download.suggestedFilename()).toBe("transactions.csv");
    checked.export = await seriousViolations(page);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.waitForURL(`${browserBase}/app/settings`);
    expect(await page.getByTestId("bank").first().textContent()).toContain("Sandbox bank");
    expect(await page.getByTestId("meter-now").textContent()).toContain("This month:");
    checked.settings = await seriousViolations(page);
    await page.goto(`${browserBase}/app/rules`);
    checked.rules = await seriousViolations(page);
  });

  it("shows no serious or critical accessibility violation on any page, loads nothing from elsewhere, and raises no script error", () => {
    expect(Object.keys(checked).sort()).toEqual(["a line", "export", "reports", "review", "rule form", "rules", "settings", "the lines behind a number", "transactions", "verdict"]);
    expect(checked).toEqual(Object.fromEntries(Object.keys(checked).map((k) => [k, []])));
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe("the workspace with JavaScript off", () => {
  let owner: Owner;
  let page: Page;
  let context: BrowserContext;

  beforeAll(async () => {
    owner = await bakery("nojs");
    ({ page, context } = await signedIn(owner, false));
  });

  afterAll(async () => {
    await context?.close();
  });

  it("categorises a line with its row's form, and the redirect back shows it decided", async () => {
    expect(await queueCount(page)).toBe(12);
    const row = page.locator("tr[data-row]").first();
    const description = (await row.getByRole("link").first().textContent())!;
    await row.locator("select").selectOption("Meals");
    await Promise.all([page.waitForURL(/\/app\/review\?decided=\d+$/), row.getByRole("button", { name: "Categorise" }).click()]);
    expect(await page.getByTestId("notice").textContent()).toContain(`${description}`);
    expect(await queueCount(page)).toBe(11);
  });

  it("decides the selected lines together", async () => {
    const rows = page.locator("tr[data-row]");
    await rows.nth(0).locator('input[type="checkbox"]').check();
    await rows.nth(1).locator('input[type="checkbox"]').check();
    await page.locator("#bulk-category").selectOption("Software");
    await Promise.all([page.waitForURL(/decided=/), page.getByRole("button", { name: "Categorise the selected" }).click()]);
    expect(await queueCount(page)).toBe(9);
  });

  it("tests a rule with a plain GET, saves it, and goes back to the queue", async () => {
    const before = await queueCount(page);
    await page.locator("tr[data-row]").first().getByRole("link", { name: /Make a rule/ }).click();
    await page.waitForURL(/\/app\/rules\/new\?from=/);
    await page.fill("#rule-category", "Meals");
    await Promise.all([page.waitForURL(/\/app\/rules\/new\?.*category=Meals/), page.getByRole("button", { name: "Test against the books" }).click()]);
    const would = Number(/would decide (\d+)/.exec((await page.getByTestId("dry-run").textContent())!)![1]);
    await Promise.all([page.waitForURL(/\/app\/review\?rule=/), page.getByRole("button", { name: "Save the rule" }).click()]);
    expect(await queueCount(page)).toBe(before - would);
  });

  it("shows a refused form's errors linked to its fields", async () => {
    await page.goto(`${browserBase}/app/transactions?from=2026-02-30`);
    const summary = page.locator(".error-summary");
    expect(await summary.textContent()).toContain("Posted from");
    await summary.getByRole("link").first().click();
    expect(await page.evaluate<string>("document.activeElement.id")).toBe("f-from");
  });

  it("serves every page whole", async () => {
    for (const [path, heading] of [
      ["/app/transactions?q=github", "Transactions"],
      ["/app/transactions/A/2", "GITHUB INC"],
      ["/app/rules", "Rules"],
      [`/app/reports?as_of=${AS_OF}`, "Reports"],
      ["/app/settings", `Settings for ${owner.tenant}`],
    ] as const) {
      const answer = await page.goto(`${browserBase}${path}`);
      expect(answer?.status(), path).toBe(200);
      expect(await page.getByRole("heading", { level: 1 }).textContent(), path).toBe(heading);
    }
    await page.goto(`${browserBase}/app/transactions/A/2#why`);
    await page.locator("#line-category").fill("Software");
    await Promise.all([page.waitForURL(/decided=1$/), page.getByRole("button", { name: "Label (teaches the model)" }).click()]);
    expect(await page.getByTestId("notice").textContent()).toContain("The line is now Software");
  });
});
