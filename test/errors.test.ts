/** Every non-2xx answer is application/problem+json (RFC 9457) with a stable `code`. */
import { env } from "cloudflare:test";
import { z } from "@hono/zod-openapi";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { defineEndpoint } from "../src/endpoints/define";
import { api, BASE, createTenant, rw, type SandboxTenant } from "./fixtures/sandbox";

function expectProblem(answer: { status: number; body: any; headers: Headers }, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  expect(answer.body).toMatchObject({ type: `urn:ledger:problem:${code}`, status, code, title: expect.any(String), detail: expect.any(String) });
}

describe("problem+json for every failure", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant();
  });

  it("malformed JSON is 400", async () => {
    expectProblem(await api(rw(t), "/api/v1/sync-now", { method: "POST", body: "{not json" }), 400, "malformed_json");
    const sandbox = await api(undefined, "/sandbox/tenants", { method: "POST", body: '{"tenant": ' });
    expectProblem(sandbox, 400, "malformed_json");
  });

  it("a body that is not JSON is 415", async () => {
    const answer = await api(rw(t), "/api/v1/sync-now", { method: "POST", body: "tenant=x", headers: { "content-type": "text/plain" } });
    expectProblem(answer, 415, "unsupported_media_type");
  });

  it("an unknown path is 404", async () => {
    expectProblem(await api(rw(t), "/api/v1/nothing-here"), 404, "not_found");
    expectProblem(await api(undefined, "/nothing-here.txt"), 404, "not_found");
    // The browser's icon is answered, empty, so that no page's console shows a 404.
    expect((await api(undefined, "/favicon.ico")).status).toBe(204);
  });

  it("a wrong method is 405 and says which methods are served", async () => {
    const post = await api(rw(t), "/api/v1/me", { method: "POST", body: {} });
    expectProblem(post, 405, "method_not_allowed");
    expect(post.headers.get("allow")).toBe("GET");
    const del = await api(rw(t), "/api/v1/transactions/A/1", { method: "DELETE" });
    expectProblem(del, 405, "method_not_allowed");
    expect((await api(rw(t), "/api/v1/sync-now")).headers.get("allow")).toBe("POST");
  });

  it("a POST to the rulebook or the categories is 405 naming the verbs that add to them, and adds nothing", async () => {
    const rule = { rule_key: "coffee", match_kind: "description_exact", match_value: "COFFEE", category: "Meals" };
    const rules = await api(rw(t), "/api/v1/rules", { method: "POST", body: rule });
    expectProblem(rules, 405, "method_not_allowed");
    expect(rules.headers.get("allow")).toBe("GET");
    expect(rules.body.detail).toBe(
      "POST is not served here; use GET. To add to it, call create_rule (POST /api/v1/create-rule) or create_rules (POST /api/v1/create-rules).",
    );
    for (const path of ["/api/v1/categories", "/api/v1/taxonomy"]) {
      const categories = await api(rw(t), path, { method: "POST", body: { name: "Meals", header: "expense" } });
      expectProblem(categories, 405, "method_not_allowed");
      expect(categories.headers.get("allow")).toBe("GET");
      expect(categories.body.detail).toContain("call create_category (POST /api/v1/new-category) or create_categories (POST /api/v1/new-categories).");
    }
    // Whatever the credential (none at all included): the path is not served for POST.
    expect((await api(undefined, "/api/v1/rules", { method: "POST", body: rule })).body.detail).toContain("create_rule (POST /api/v1/create-rule)");
    expect((await api(rw(t), "/api/v1/rules")).body.rules).toEqual([]);
    expect((await api(rw(t), "/api/v1/taxonomy")).body.categories.map((c: any) => c.name)).not.toContain("Meals");
    // Another method names no verb: the hint is for a guess at a REST create.
    expect((await api(rw(t), "/api/v1/rules", { method: "DELETE" })).body.detail).toBe("DELETE is not served here; use GET.");
  });

  it("a validation failure lists every failing field", async () => {
    const query = await api(rw(t), "/api/v1/transactions?page=0&per_page=abc&from=2026-13-45");
    expectProblem(query, 400, "invalid_request");
    expect(query.body.errors.map((e: any) => e.field).sort()).toEqual(["query.from", "query.page", "query.per_page"]);
    const path = await api(rw(t), "/api/v1/transactions/C/abc");
    expectProblem(path, 400, "invalid_request");
    expect(path.body.errors.map((e: any) => e.field).sort()).toEqual(["path.side", "path.src_id"]);
    const sandbox = await api(undefined, "/sandbox/tenants", { method: "POST", body: { tenant: "X", tier: "gold", phone: "555" } });
    expect(sandbox.body.errors.map((e: any) => e.field).sort()).toEqual(["body.phone", "body.tenant", "body.tier"]);
  });

  it("clamps the documented caps instead of refusing them", async () => {
    expect((await api(rw(t), "/api/v1/transactions?per_page=1000")).body.per_page).toBe(100);
    expect((await api(rw(t), "/api/v1/usage?days=9999")).body.volume.days).toBe(365);
  });

  it("an uncaught fault is 500 and names nothing internal", async () => {
    const boom = defineEndpoint({
      operationId: "boom",
      method: "get",
      path: "/api/v1/boom",
      tag: "test",
      summary: "Fails",
      description: "Throws a plain error.",
      credential: "read",
      success: { status: 200, description: "never", schema: z.object({}) },
      async handler() {
        throw new Error("secret internals at src/ledger/secret.ts:42");
      },
    });
    const response = await createApp([boom]).request(`${BASE}/api/v1/boom`, { headers: { authorization: `Bearer ${t.tokens.read_write}` } }, env);
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const text = await response.text();
    expect(text).not.toContain("secret");
    expect(text).not.toContain(".ts");
    expect(JSON.parse(text)).toMatchObject({ status: 500, code: "internal_error" });
  });

  it("the sandbox is 404 when the deployment turns it off", async () => {
    const response = await createApp().request(`${BASE}/sandbox/tenants`, { method: "POST", body: "{}" }, { ...env, SANDBOX: "off" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });
});
