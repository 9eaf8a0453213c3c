/**
 * A new customer at a real browser (Debian's chromium through playwright-core), on the
 * service as `npm start` serves it: signs up at /signup, follows the verification link
 * from the sandbox's mail outbox, connects a bank on /settings through the sandbox's
 * stand-in of the aggregator's page, signs in to it again when its bank asks, and
 * disconnects it. The pages run no script: every step is a link or a form.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fetchService, launchChromium, newContext } from "./browser";

const baseUrl = inject("baseUrl");
const browserBase = process.env.BROWSER_HOST ? `http://${process.env.BROWSER_HOST}:${inject("port")}` : baseUrl;

const tenant = `newbiz-${Date.now().toString(36)}`;
const email = `owner@${tenant}.example`;

let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  page = await (await newContext(browser)).newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
});

describe("a new customer, sign-up to a connected bank", () => {
  it("signs up on /signup and lands on /settings, signed in, the email waiting for verification", async () => {
    await page.goto(`${browserBase}/signin`);
    await Promise.all([page.waitForURL(`${browserBase}/signup`), page.getByRole("link", { name: "Sign up" }).click()]);
    await page.fill("#business-name", "New Biz Coffee LLC");
    await page.fill("#tenant", tenant);
    await page.fill("#owner-email", email);
    await page.fill("#password", "a long enough password");
    await page.selectOption("#tier", "paid");
    await page.check("input[name=terms_accepted]");
    // The page's own markup is what is asserted: its load event also waits on every
    // subresource, and once in CI it never fired though the page had arrived.
    await Promise.all([
      page.waitForURL(`${browserBase}/settings`, { waitUntil: "domcontentloaded" }),
      page.getByRole("button", { name: "Sign up" }).click(),
    ]);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain(tenant);
    await page.locator("[data-testid=email-unverified]").waitFor();
    expect(await page.getByText("Connecting a bank waits until your email is verified.").count()).toBe(1);
  });

  it("follows the link in the mail outbox and verifies the email", async () => {
    await page.goto(`${browserBase}/sandbox/mail`);
    const mail = page.locator("[data-testid=mail]").filter({ hasText: email });
    await mail.getByRole("link").first().click();
    await page.getByRole("button", { name: "Verify my email" }).click();
    await page.getByText("is verified").first().waitFor();
    await page.goto(`${browserBase}/settings`);
    await page.locator("[data-testid=email-verified]").waitFor();
  });

  it("connects a bank through the aggregator's page (the sandbox's stand-in) and comes back to it connected", async () => {
    await page.getByRole("button", { name: "Connect a bank" }).click();
    await page.getByRole("link", { name: "Continue to your bank" }).click();
    await page.waitForURL(/\/sandbox\/link\/link-sandbox-/);
    expect(await page.locator("[data-testid=institution]").count()).toBe(3);
    expect(await page.getByText("Business Checking ····1100").count()).toBe(1);
    await page.getByRole("button", { name: "Connect Prairie Credit Union" }).click();
    await page.waitForURL(/\/settings\/banks\/linked\?state=/);
    expect(await page.locator("p[role=status]").textContent()).toContain("Prairie Credit Union is connected");
    expect(await page.locator("[data-testid=bank]").first().textContent()).toContain("connected");
  });

  it("signs in to the bank again when it asks, and disconnects it", async () => {
    const items = (await (await fetchService(`${baseUrl}/sandbox/tenants/${tenant}/items`)).json()) as { items: { item_id: string }[] };
    const reset = await fetchService(`${baseUrl}/sandbox/tenants/${tenant}/items/${items.items[0]!.item_id}/reset-login`, { method: "POST" });
    expect(reset.status, await reset.clone().text()).toBe(202);
    await page.goto(`${browserBase}/settings`);
    expect(await page.locator("[data-testid=bank]").first().textContent()).toContain("needs you to sign in again");
    expect(await page.getByText("Prairie Credit Union asks you to sign in to it again").count()).toBeGreaterThan(0);
    await page.getByRole("button", { name: /^Sign in again to bank / }).click();
    await page.getByRole("link", { name: "Continue to your bank" }).click();
    await page.getByRole("button", { name: "Sign in again" }).click();
    await page.waitForURL(/\/settings\/banks\/linked\?state=/);
    expect(await page.locator("p[role=status]").textContent()).toContain("is signed in again");

    await page.getByRole("button", { name: /^Disconnect bank / }).click();
    expect(await page.locator("p[role=status]").textContent()).toContain("is disconnected");
    expect(await page.locator("[data-testid=bank]").first().textContent()).toContain("disconnected");
    expect(pageErrors).toEqual([]);
  });
});
