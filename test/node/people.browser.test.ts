/**
 * A bookkeeper across two businesses, in a real browser (Debian's chromium through
 * playwright-core): each owner invites them from People, they accept the first invitation
 * from the sandbox's mail outbox with a new account and the second with its password,
 * sign in by email and land on the practice dashboard, switch between the businesses,
 * categorise in one, and are refused where a bookkeeper must be (settings, minting a token)
 * and, as a viewer in the other, are offered no change and refused one posted anyway.
 * axe-core finds no serious violation on People, the invitation's page and the dashboard.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fetchService, launchChromium, newContext } from "./browser";

const baseUrl = inject("baseUrl");
const browserBase = process.env.BROWSER_HOST ? `http://${process.env.BROWSER_HOST}:${inject("port")}` : baseUrl;
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const ownerPassword = "correct horse battery staple";
const personPassword = "the bookkeeper's long password";

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

/** A business signed up through the sandbox with `lines` lines synced, nothing decided. */
async function business(name: string, lines: number): Promise<{ tenant: string; token: string }> {
  const tenant = `${name}-${Date.now().toString(36)}`;
  const token = (await call("/sandbox/tenants", null, { method: "POST", body: { tenant, password: ownerPassword } })).tokens.read_write as string;
  await call("/api/v1/new-categories", token, { method: "POST", body: { categories: [{ name: "Meals", header: "expense" }] } });
  const added = Array.from({ length: lines }, (_, i) => ({ transaction_id: `txn_${i + 1}`, account_id: "acc_checking", amount: 10 + i, date: "2026-11-18", name: `VENDOR ${i + 1}` }));
  await call(`/sandbox/tenants/${tenant}/bank`, null, { method: "POST", body: { accounts: [{ account_id: "acc_checking", name: "Business Checking", mask: "0042" }], added } });
  const { request_id } = await call("/api/v1/sync-now", token, { method: "POST" });
  for (let i = 0; i < 200; i++) {
    const { runs } = await call("/api/v1/sync-history", token);
    if (runs.some((r: any) => r.request_id === request_id && r.final)) return { tenant, token };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the sync never finished");
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const results = await page.evaluate<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>("axe.run(document, { resultTypes: ['violations'] })");
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe("a bookkeeper across two businesses", () => {
  const email = `pat-${Date.now().toString(36)}@books.example`;
  let first: { tenant: string; token: string };
  let second: { tenant: string; token: string };
  let owners: BrowserContext;
  let context: BrowserContext;
  let page: Page;
  const checked: Record<string, string[]> = {};

  beforeAll(async () => {
    [first, second] = await Promise.all([business("bakery", 4), business("florist", 2)]);
    owners = await newContext(browser);
    context = await newContext(browser);
    page = await context.newPage();
  });

  afterAll(async () => {
    await owners?.close();
    await context?.close();
  });

  /** The business's owner signs in and invites the bookkeeper's address to `role` on People. */
  async function ownerInvites(tenant: string, role: "bookkeeper" | "viewer"): Promise<void> {
    const owner = await owners.newPage();
    await owner.goto(`${browserBase}/signin`);
    await owner.fill("#tenant", tenant);
    await owner.fill("#password", ownerPassword);
    await Promise.all([owner.waitForURL(`${browserBase}/app/review`), owner.getByRole("button", { name: "Sign in", exact: true }).click()]);
    await owner.getByRole("link", { name: "People" }).click();
    await owner.fill("#invite-email", email);
    await owner.selectOption("#invite-role", role);
    await Promise.all([owner.waitForURL(/\/app\/people\?invited=/), owner.getByRole("button", { name: "Send the invitation" }).click()]);
    expect(await owner.locator("[data-testid=pending]").textContent()).toContain(email);
    checked.people ??= await seriousViolations(owner);
    // Closed only once signed out: a page closed while its navigation is in flight can
    // abort the next page's first navigation in the same browser.
    await Promise.all([owner.waitForURL(`${browserBase}/signin`), owner.getByRole("button", { name: "Sign out" }).click()]);
    await owner.close();
  }

  /** Opens the newest invitation mailed to the bookkeeper from the sandbox's outbox. */
  async function openInvitation(): Promise<void> {
    await page.goto(`${browserBase}/sandbox/mail`);
    await page.locator("[data-testid=mail]").filter({ hasText: email }).first().getByRole("link").first().click();
    await page.waitForURL(/\/invitations\/accept\?token=/);
  }

  it("accepts the first invitation with a new account and lands in that business's review", async () => {
    await ownerInvites(first.tenant, "bookkeeper");
    await openInvitation();
    checked.invitation = await seriousViolations(page);
    await page.fill("#name", "Pat Practice");
    await page.fill("#password", personPassword);
    await Promise.all([page.waitForURL(`${browserBase}/app/review`), page.getByRole("button", { name: "Accept and sign in" }).click()]);
    expect(await page.getByTestId("who").textContent()).toContain("Pat Practice, bookkeeper");
    expect(await page.locator("tr[data-row]").count()).toBe(4);
  });

  it("accepts the second (as a viewer) with the account's password", async () => {
    await ownerInvites(second.tenant, "viewer");
    await openInvitation();
    expect(await page.locator("#name").count()).toBe(0);
    await page.fill("#password", personPassword);
    await Promise.all([page.waitForURL(`${browserBase}/app/review`), page.getByRole("button", { name: "Accept and sign in" }).click()]);
  });

  it("signs in by email and lands on the practice dashboard: both businesses, their queues, a switch", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.goto(`${browserBase}/signin`);
    await page.fill("#person-email", email);
    await page.fill("#person-password", personPassword);
    await Promise.all([page.waitForURL(`${browserBase}/app/practice`), page.getByRole("button", { name: "Continue with your email" }).click()]);
    const rows = page.locator("[data-testid=practice] tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await page.locator(`tr[data-tenant="${first.tenant}"] [data-testid=queue]`).textContent()).toBe("4");
    expect(await page.locator(`tr[data-tenant="${second.tenant}"] [data-testid=queue]`).textContent()).toBe("2");
    checked.practice = await seriousViolations(page);
  });

  it("categorises in the business where they are a bookkeeper, and the dashboard's queue follows", async () => {
    await page.goto(`${browserBase}/app/review`);
    const row = page.locator("tr[data-row]").first();
    const id = (await row.getAttribute("id"))!;
    await row.locator("select").selectOption("Meals");
    await row.getByRole("button", { name: "Categorise" }).click();
    await page.locator(`#${id}.done`).waitFor();
    await page.goto(`${browserBase}/app/practice`);
    expect(await page.locator(`tr[data-tenant="${first.tenant}"] [data-testid=queue]`).textContent()).toBe("3");
  });

  it("is refused the owner's settings and minting a token", async () => {
    expect(await page.getByRole("link", { name: "Settings" }).count()).toBe(0);
    const settings = await page.goto(`${browserBase}/app/settings`);
    expect(settings!.status()).toBe(403);
    expect(await page.getByTestId("refusal").textContent()).toContain("bookkeeper");
  });

  it("switches to the other business, where as a viewer no change is offered, and one posted anyway is refused", async () => {
    await page.goto(`${browserBase}/app/practice`);
    await Promise.all([page.waitForURL(`${browserBase}/app/review`), page.getByRole("button", { name: /Switch to florist/ }).click()]);
    expect(await page.getByTestId("viewer-notice").count()).toBe(1);
    expect(await page.locator("tr[data-row]").count()).toBe(2);
    const row = page.locator("tr[data-row]").first();
    expect(await row.locator("select, button").count()).toBe(0);
    expect(await page.locator("form[method=post]:not(.signout)").count()).toBe(0);
    const line = (await row.getAttribute("id"))!.replace("line-", "");
    const posted = await page.request.post(`${browserBase}/app/review/decide`, { form: { line, category: "Meals", action: "categorise" }, headers: { origin: browserBase } });
    expect(posted.status()).toBe(403);
    expect(await posted.text()).toContain("viewer");
  });

  it("shows no serious accessibility violation on People, the invitation and the dashboard", () => {
    expect(checked).toEqual({ people: [], invitation: [], practice: [] });
  });
});
