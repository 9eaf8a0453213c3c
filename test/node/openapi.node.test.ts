/**
 * /openapi.json as an outside client sees it: valid OpenAPI 3.1 by an independent
 * validator, the same operations as /api/v1, and the same credential story everywhere.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, inject, it } from "vitest";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

interface OpenApiDocument {
  openapi: string;
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components?: { securitySchemes?: Record<string, Record<string, unknown>> };
}

interface ApiIndex {
  version: string;
  openapi: string;
  endpoints: { operation_id: string; method: string; path: string }[];
}

const baseUrl = inject("baseUrl");
let doc: OpenApiDocument;
let index: ApiIndex;

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`);
  const text = await response.text();
  expect(response.status, `GET ${path}: ${text.slice(0, 500)}`).toBe(200);
  expect(response.headers.get("content-type") ?? "").toMatch(/^application\/json/);
  return JSON.parse(text) as T;
}

function operations(document: OpenApiDocument): { method: string; path: string; op: Operation }[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ method: method.toUpperCase(), path, op: item[method]! }] : [])),
  );
}

beforeAll(async () => {
  doc = await getJson<OpenApiDocument>("/openapi.json");
  index = await getJson<ApiIndex>("/api/v1");
});

describe("/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    if (!result.valid) console.error("OpenAPI validation errors:\n" + JSON.stringify(result.errors, null, 2));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it("lists exactly the operations of /api/v1", () => {
    expect(index.openapi).toBe("/openapi.json");
    const key = (method: string, path: string, operationId: string | undefined) => `${method.toUpperCase()} ${path} ${operationId}`;
    const fromDoc = operations(doc).map(({ method, path, op }) => key(method, path, op.operationId));
    const fromIndex = index.endpoints.map((e) => key(e.method, e.path, e.operation_id));
    expect(fromIndex.length).toBeGreaterThan(0);
    expect(new Set(fromDoc).size, "duplicate operations in /openapi.json").toBe(fromDoc.length);
    expect(new Set(fromIndex).size, "duplicate endpoints in /api/v1").toBe(fromIndex.length);
    expect([...fromDoc].sort()).toEqual([...fromIndex].sort());
  });

  it("declares a problem+json 401 and both credentials on every operation but the public ones, which declare no security", () => {
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(0);
    const publicOps = ops.filter(({ op }) => Array.isArray(op.security) && op.security.length === 0);
    expect(publicOps.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(["POST /api/v1/password-reset", "POST /api/v1/password-reset/new", "POST /api/v1/sign-up"]);
    for (const { method, path, op } of ops) {
      const where = `${method} ${path}`;
      if (publicOps.some((p) => p.op === op)) {
        expect(op.responses?.["401"], `${where}: no 401`).toBeUndefined();
        continue;
      }
      expect(op.responses?.["401"]?.content, `${where}: 401 response`).toHaveProperty(["application/problem+json"]);
      const schemes = (op.security ?? []).flatMap((requirement) => Object.keys(requirement));
      expect(schemes, `${where}: security`).toEqual(expect.arrayContaining(["bearerToken", "sessionCookie"]));
    }
  });

  it("describes the bearer token and the session cookie", () => {
    const schemes = doc.components?.securitySchemes ?? {};
    expect(schemes.bearerToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes.sessionCookie).toMatchObject({ type: "apiKey", in: "cookie", name: "svc_session" });
  });
});
