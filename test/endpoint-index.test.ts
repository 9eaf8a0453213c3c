/** The routes, /openapi.json and /api/v1 are generated from one index and name the same endpoints. */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { endpoints } from "../src/endpoints/index";
import { RATE_LIMITS } from "../src/limits/rate-limit";
import { BASE, concretePath } from "./fixtures/sandbox";

const key = (method: string, path: string, id: string) => `${method.toUpperCase()} ${path} ${id}`;
const fromIndex = endpoints.map((e) => key(e.method, e.path, e.operationId)).sort();

describe("the endpoint index", () => {
  it("gives every endpoint its own operation id and its own method and path", () => {
    expect(new Set(endpoints.map((e) => e.operationId)).size).toBe(endpoints.length);
    expect(new Set(endpoints.map((e) => `${e.method} ${e.path}`)).size).toBe(endpoints.length);
  });

  it("names, for a POST to a collection's read, writes of the index that its description names too", () => {
    const naming = endpoints.filter((e) => e.addedBy.length > 0);
    expect(naming.map((e) => e.operationId).sort()).toEqual(["list_categories", "list_category_taxonomy", "list_people", "list_rules"]);
    for (const e of naming) {
      expect(e.access, e.operationId).toBe("read");
      for (const id of e.addedBy) {
        const verb = endpoints.find((x) => x.operationId === id);
        expect(verb, `${e.operationId} names ${id}`).toMatchObject({ method: "post", access: "write" });
        expect(e.description, e.operationId).toContain(`${id} (POST ${verb!.path})`);
      }
    }
  });

  it("holds the books, feed and credential endpoints of the document", () => {
    expect(endpoints.map((e) => e.operationId)).toEqual(
      expect.arrayContaining(["get_me", "list_transactions", "get_transaction", "list_accounts", "list_sync_history", "sync_now", "get_visibility", "get_usage"]),
    );
  });

  it("is what /api/v1 describes, publicly", async () => {
    const answer = await SELF.fetch(`${BASE}/api/v1`);
    expect(answer.status).toBe(200);
    const description = (await answer.json()) as any;
    expect(description.endpoints.map((e: any) => key(e.method, e.path, e.operation_id)).sort()).toEqual(fromIndex);
    for (const e of description.endpoints) {
      expect(e.summary).toBeTruthy();
      expect(["read", "write", "session", "auditor", "read_or_grant", "public"]).toContain(e.credential);
      expect(e.credential_rule).toBeTruthy();
    }
  });

  it("is what /openapi.json documents, publicly, with every failure as problem+json", async () => {
    const answer = await SELF.fetch(`${BASE}/openapi.json`);
    expect(answer.status).toBe(200);
    const doc = (await answer.json()) as any;
    expect(doc.openapi).toMatch(/^3\.1\./);
    const operations: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        operations.push(key(method, path, op.operationId));
        const isPublic = endpoints.find((e) => e.operationId === op.operationId)?.credential === "public";
        // A public operation needs no security; every other takes a bearer token or a session.
        expect(op.security).toEqual(isPublic ? [] : [{ bearerToken: [] }, { sessionCookie: [] }]);
        const answers = endpoints.find((e) => e.operationId === op.operationId)?.answers;
        for (const [status, response] of Object.entries<any>(op.responses)) {
          const media = Number(status) >= 400 ? ["application/problem+json"] : answers === "file" ? ["text/csv", "text/plain"] : ["application/json"];
          expect(Object.keys(response.content), `${op.operationId} ${status}`).toEqual(media);
        }
        if (isPublic) expect(Object.keys(op.responses)).not.toContain("401");
        else expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["401", "500"]));
      }
    }
    expect(operations.sort()).toEqual(fromIndex);
  });

  it("documents the rate limits: 429 with Retry-After on every operation, and the numbers in the API's description", async () => {
    const doc = (await (await SELF.fetch(`${BASE}/openapi.json`)).json()) as any;
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        const refused = op.responses["429"];
        expect(refused, op.operationId).toBeDefined();
        expect(refused.description, op.operationId).toContain("`rate_limited`");
        expect(refused.headers?.["Retry-After"], op.operationId).toMatchObject({ required: true, schema: { type: "integer" } });
      }
    }
    expect(doc.paths["/api/v1/auditor/grants/{request_id}/confirm"].post.responses["429"].description).toContain("`too_many_requests`");
    const { credential, address } = RATE_LIMITS;
    expect(doc.info.description).toContain(`${credential.limit} calls every ${credential.periodSeconds} seconds`);
    expect(doc.info.description).toContain(`${address.limit.toLocaleString("en-US")} every ${address.periodSeconds} seconds`);
  });

  it("describes every field and parameter it documents", async () => {
    const doc = (await (await SELF.fetch(`${BASE}/openapi.json`)).json()) as any;
    const undescribed: string[] = [];
    const walk = (schema: any, where: string): void => {
      if (!schema || typeof schema !== "object") return;
      for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
        if (!property.description && !property.$ref) undescribed.push(`${where}.${name}`);
        walk(property, `${where}.${name}`);
      }
      if (schema.items) walk(schema.items, `${where}[]`);
      for (const key of ["oneOf", "anyOf", "allOf"]) (schema[key] ?? []).forEach((s: any, i: number) => walk(s, `${where}<${i}>`));
    };
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) walk(schema, name);
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        for (const p of op.parameters ?? []) if (!p.description && !p.schema?.description) undescribed.push(`${op.operationId} ${p.in} ${p.name}`);
        for (const [status, response] of Object.entries<any>(op.responses)) {
          for (const media of Object.values<any>(response.content ?? {})) walk(media.schema, `${op.operationId} ${status}`);
        }
        for (const media of Object.values<any>(op.requestBody?.content ?? {})) walk(media.schema, `${op.operationId} body`);
      }
    }
    expect(undescribed).toEqual([]);
  });

  it("routes every endpoint it lists (a call without a credential reaches the credential check, or a public one's input check)", async () => {
    for (const e of endpoints) {
      const path = concretePath(e.path);
      const answer = await SELF.fetch(`${BASE}${path}`, { method: e.method.toUpperCase() });
      expect(answer.status, e.operationId).toBe(e.credential === "public" ? 400 : 401);
    }
  });
});
