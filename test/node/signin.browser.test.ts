/**
 * A person at a real browser (Debian's chromium through playwright-core): signs in at
 * /signin, mints a read-write token on /settings, and the token works against the API
 * from outside the browser; offers, confirms and revokes an auditor grant. Then signs out.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fetchService, launchChromium, newContext } from "./browser";

const baseUrl = inject("baseUrl");
// The server is plain http on 127.0.0.1 and the session cookie is Secure: Chromium counts
// 127.0.0.1 (like localhost) as potentially trustworthy and keeps Secure cookies from it.
// BROWSER_HOST=localhost runs the browser side against http://localhost:<port> instead.
const browserBase = process.env.BROWSER_HOST ? `http://${process.env.BROWSER_HOST}:${inject("port")}` : baseUrl;

const tenant = `browser-${Date.now().toString(36)}`;
const password = "correct horse battery staple";

let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const response = await fetchService(`${baseUrl}/sandbox/tenants`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tenant, password }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  expect(JSON.parse(text)).toMatchObject({ tenant, password });

  browser = await launchChromium();
  context = await newContext(browser);
  page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
});

async function sessionCookie() {
  return (await context.cookies(browserBase)).find((c) => c.name === "svc_session");
}

describe("sign in, mint a token, sign out", () => {
  it("signs in with the tenant's password, lands on the workspace's review, and reaches /settings", async () => {
    await page.goto(`${browserBase}/signin`);
    await page.fill("#tenant", tenant);
    await page.fill("#password", password);
    await Promise.all([page.waitForURL(`${browserBase}/app/review`), page.getByRole("button", { name: "Sign in" }).click()]);
    expect(new URL(page.url()).pathname).toBe("/app/review");
    await page.goto(`${browserBase}/settings`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain(tenant);
  });

  it("keeps the session in an HttpOnly, Secure, SameSite=Lax cookie", async () => {
    const cookie = await sessionCookie();
    expect(cookie, "svc_session is not stored by the browser").toBeDefined();
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: "Lax", path: "/" });
    // HttpOnly: page scripts cannot read it.
    // (A string expression: the tsconfig has no DOM lib.)
    expect(await page.evaluate<string>("document.cookie")).not.toContain("svc_session");
  });

  it("mints a read-write token that the API accepts", async () => {
    await page.fill("#label", "browser test token");
    await page.selectOption("#scope", "read_write");
    await page.getByRole("button", { name: "Mint token" }).click();
    const shown = page.locator("[data-testid=new-token]");
    await shown.waitFor();
    const token = (await shown.textContent())?.trim() ?? "";
    expect(token).toMatch(/^\S{20,}$/);
    expect(await page.locator("table", { hasText: "Key id" }).textContent()).toContain("browser test token");

    const response = await fetchService(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const me = JSON.parse(text) as { auth: { kind: string; scope: string } };
    expect(me.auth.kind).toBe("token");
    expect(me.auth.scope).toBe("read_write");
  });

  it("offers an auditor grant, confirms it with the texted code, and revokes it", async () => {
    await page.goto(`${browserBase}/settings`);
    await page.fill("#viewer-name", "Dana Whitfield, CPA");
    await page.fill("#viewer-channel", "+15555550123");
    await page.getByRole("button", { name: "Offer a grant" }).click();
    await page.locator("#grant-code").waitFor();

    // The code went to the customer's own phone, through the sandbox carrier.
    const outbox = (await (await fetchService(`${baseUrl}/sandbox/tenants/${tenant}/outbox`)).json()) as { messages: { to: string; body: string }[] };
    expect(outbox.messages[0]!.to).toBe("+15555550100");
    const code = /\b(\d{6})\b/.exec(outbox.messages[0]!.body)![1]!;
    await page.fill("#grant-code", code);
    await page.getByRole("button", { name: "Confirm the grant" }).click();
    const shown = page.locator("[data-testid=grant-token]");
    await shown.waitFor();
    const token = (await shown.textContent())?.trim() ?? "";
    const read = await fetchService(`${baseUrl}/api/v1/auditor/view`, { headers: { authorization: `Bearer ${token}` } });
    expect(read.status, await read.clone().text()).toBe(200);
    expect(await page.locator("[data-testid=grant-status]").first().textContent()).toBe("live");

    await page.getByRole("button", { name: "Revoke the grant to Dana Whitfield, CPA" }).click();
    await page.getByText("is revoked").waitFor();
    expect(await page.locator("[data-testid=grant-status]").first().textContent()).toBe("revoked");
    const refused = await fetchService(`${baseUrl}/api/v1/auditor/view`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe("grant_revoked");
  });

  it("shows the API reference at /docs from this origin only", async () => {
    const fetched: string[] = [];
    const listener = (request: { url(): string }) => fetched.push(request.url());
    page.on("request", listener);
    await page.goto(`${browserBase}/docs`);
    await page.getByText("/api/v1/transactions/{side}/{src_id}/why").first().waitFor();
    page.off("request", listener);
    expect(fetched.filter((url) => !url.startsWith(browserBase) && !url.startsWith("data:"))).toEqual([]);
    expect(fetched).toContain(`${browserBase}/openapi.json`);
  });

  it("signs out; /settings then sends the browser to /signin", async () => {
    await page.goto(`${browserBase}/settings`);
    await Promise.all([page.waitForURL(`${browserBase}/signin`), page.getByRole("button", { name: "Sign out" }).click()]);
    expect(await sessionCookie()).toBeUndefined();
    await page.goto(`${browserBase}/settings`);
    expect(new URL(page.url()).pathname).toBe("/signin");
    expect(pageErrors).toEqual([]);
  });
});
