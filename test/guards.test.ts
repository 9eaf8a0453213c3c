/** Every answer's guards: bounded bodies (413 before parsing) and the headers browsers obey. */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { HSTS, MAX_BODY_BYTES, PAGE_CSP, WORKSPACE_CSP } from "../src/http/guards";
import { api, BASE, createTenant, rw, session, type SandboxTenant } from "./fixtures/sandbox";

describe("request bodies", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant();
  });

  it("are refused with 413 above the limit, declared or streamed, before anything parses them", async () => {
    const big = JSON.stringify({ side: "A", src_id: 1, category: "x".repeat(MAX_BODY_BYTES) });
    const declared = await api(rw(t), "/api/v1/categorize", { method: "POST", body: big });
    expect(declared.status).toBe(413);
    expect(declared.headers.get("content-type")).toBe("application/problem+json");
    expect(declared.body.code).toBe("body_too_large");
    // A streamed body has no length to declare: it is counted as it arrives.
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new TextEncoder().encode("x".repeat(MAX_BODY_BYTES / 2)));
        controller.close();
      },
    });
    const streamed = await SELF.fetch(`${BASE}/api/v1/categorize`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.tokens.read_write}`, "content-type": "application/json" },
      body: chunks,
      // @ts-expect-error: workerd's fetch takes a streamed body without `duplex`.
      duplex: "half",
    });
    expect(streamed.status).toBe(413);
  });

  it("below the limit go through as before", async () => {
    expect((await api(rw(t), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: 999, category: "Meals" } })).status).toBe(404);
  });
});

describe("response headers", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant();
  });

  it("never let a page be framed or sniffed, and send a referrer only to this origin", async () => {
    for (const path of ["/api/v1/me", "/signin", "/openapi.json", "/docs"]) {
      const answer = await SELF.fetch(`${BASE}${path}`, { headers: { authorization: `Bearer ${t.tokens.read_only}` } });
      expect(answer.headers.get("x-frame-options"), path).toBe("DENY");
      expect(answer.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(answer.headers.get("referrer-policy"), path).toBe("same-origin");
    }
  });

  it("tell browsers to use only HTTPS, on every answer: errors, pages, descriptions, the tool face, the sandbox and the webhook", async () => {
    const answers = {
      "a read": await SELF.fetch(`${BASE}/api/v1/me`, { headers: { authorization: `Bearer ${t.tokens.read_only}` } }),
      "a 401 problem": await SELF.fetch(`${BASE}/api/v1/me`),
      "a 404 problem": await SELF.fetch(`${BASE}/api/v1/nothing-here`),
      "a 405 problem": await SELF.fetch(`${BASE}/mcp`),
      "a page": await SELF.fetch(`${BASE}/signin`),
      "a sign-in refused": await SELF.fetch(`${BASE}/signin`, { method: "POST", headers: { origin: BASE, "content-type": "application/x-www-form-urlencoded" }, body: "tenant=nobody-here&password=x" }),
      "/openapi.json": await SELF.fetch(`${BASE}/openapi.json`),
      "/api/v1": await SELF.fetch(`${BASE}/api/v1`),
      "/docs": await SELF.fetch(`${BASE}/docs`),
      "/mcp": await SELF.fetch(`${BASE}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
      "the sandbox": await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/outbox`),
      "the webhook": await SELF.fetch(`${BASE}/hooks/sms`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "Body=hi" }),
    };
    for (const [what, answer] of Object.entries(answers)) {
      expect(answer.headers.get("strict-transport-security"), what).toBe("max-age=63072000; includeSubDomains");
      expect(answer.headers.get("x-frame-options"), what).toBe("DENY");
      await answer.body?.cancel();
    }
    expect(answers["/mcp"].status).toBe(200);
    expect(answers["the webhook"].status).toBe(403);
    expect(HSTS).not.toContain("preload");
  });

  it("keep anything carrying books, credentials or codes out of caches", async () => {
    for (const path of ["/api/v1/me", "/api/v1/transactions", "/api/v1/nothing-here"]) {
      expect((await api(rw(t), path)).headers.get("cache-control"), path).toBe("no-store");
    }
    const settings = await SELF.fetch(`${BASE}/settings`, { headers: { cookie: `svc_session=${session(t).session}` } });
    expect(settings.headers.get("cache-control")).toBe("no-store");
    expect((await SELF.fetch(`${BASE}/openapi.json`)).headers.get("cache-control")).toBeNull();
  });

  it("put pages under a strict Content-Security-Policy", async () => {
    const page = await SELF.fetch(`${BASE}/signin`);
    expect(page.headers.get("content-security-policy")).toBe(PAGE_CSP);
    expect(PAGE_CSP).toContain("frame-ancestors 'none'");
    expect(PAGE_CSP).not.toContain("script-src");
    expect(await page.text()).not.toContain("<script");
  });

  it("put the workspace under a CSP that runs this origin's own scripts and nothing inline", async () => {
    const page = await SELF.fetch(`${BASE}/app/review`, { headers: { cookie: `svc_session=${session(t).session}` } });
    expect(page.headers.get("content-security-policy")).toBe(WORKSPACE_CSP);
    expect(WORKSPACE_CSP).toContain("script-src 'self'");
    expect(WORKSPACE_CSP).toContain("frame-ancestors 'none'");
    expect(WORKSPACE_CSP).not.toContain("unsafe-inline");
    expect(WORKSPACE_CSP).not.toContain("unsafe-eval");
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\ssrc="\/app\/assets\/)/);
    expect(html).not.toMatch(/<style|\sstyle="|\son[a-z]+="/);
  });
});
