/**
 * Contract fuzzing against the running service: every operation in the served
 * /openapi.json, driven with generated inputs (valid ones built from the document's own
 * schemas, and hostile ones: long and unicode strings, huge numbers, wrong types, missing
 * and extra fields, bodies that are not objects) under every kind of credential. Every
 * answer must be a status the document lists for that operation, never a 5xx; every error
 * is problem+json; every JSON body validates (ajv, JSON Schema 2020-12) against the schema
 * documented for its status. Seeded: `FUZZ_SEED=n` explores another set; a failure prints
 * the seed and the shrunk request.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
console.log(`contract fuzz seed ${SEED}, ${RUNS} runs per operation`);

type Schema = Record<string, any>;
interface Operation {
  operationId: string;
  parameters?: { name: string; in: "path" | "query"; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

let doc: { paths: Record<string, Record<string, Operation>>; components: Record<string, any> };
const credentials: Record<string, Record<string, string>> = {};
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();

/** The document's schema with its components beside it, so `#/components/...` resolves. */
function validatorFor(key: string, schema: Schema): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: doc.components });
    validators.set(key, validate);
  }
  return validate;
}

function resolve(schema: Schema): Schema {
  let s = schema;
  while (s.$ref) s = s.$ref.replace(/^#\//, "").split("/").reduce((node: any, part: string) => node[part], doc);
  return s;
}

// --- inputs ---

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("", " ", "x".repeat(5_000), "../../etc/passwd", "' OR 1=1 --", "\u0000", "%00", "😀".repeat(50), "<script>alert(1)</script>", "A", "B", "transactions.csv"),
);
const hugeNumber = fc.constantFrom(1e308, -1e308, 2 ** 63, -(2 ** 63), Number.MAX_SAFE_INTEGER + 2, 0.5, -1, 0);
const hostile: fc.Arbitrary<unknown> = fc.oneof(hostileString, hugeNumber, fc.constant(null), fc.boolean(), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }));

/** Values the schema accepts (as far as a generator from its keywords can tell). */
function valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  const choices = s.anyOf ?? s.oneOf;
  if (choices) return fc.oneof(...choices.map((c: Schema) => valid(c, depth)));
  const type = Array.isArray(s.type) ? s.type : [s.type];
  if (type.length > 1) return fc.oneof(...type.map((t: string) => valid({ ...s, type: t }, depth)));
  switch (type[0]) {
    case "string":
      if (s.format === "date") return fc.date({ min: new Date("2023-01-01"), max: new Date("2027-01-01"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 200));
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 30, 30) }).filter((v) => v.length >= (s.minLength ?? 0));
    case "integer":
      return fc.integer({ min: Math.max(s.minimum ?? -1000, -1e9), max: Math.min(s.maximum ?? 1000, 1e9) });
    case "number":
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return depth > 3 ? fc.constant([]) : fc.array(valid(s.items ?? {}, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3)) });
    case "object": {
      const properties: Record<string, Schema> = s.properties ?? {};
      const record = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, depth > 3 ? fc.constant(null) : valid(v, depth + 1)]));
      return fc.record(record, { requiredKeys: (s.required ?? []).filter((k: string) => k in properties) });
    }
    default:
      return hostile;
  }
}

/** A valid value, or one broken in one of the ways clients break them. */
function input(schema: Schema): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.type !== "object" || !s.properties) return fc.oneof({ weight: 2, arbitrary: valid(s) }, { weight: 1, arbitrary: hostile });
  const keys = Object.keys(s.properties);
  return fc.oneof(
    { weight: 3, arbitrary: valid(s) },
    {
      weight: 2,
      arbitrary: fc.tuple(valid(s), fc.constantFrom(...keys), hostile).map(([v, key, bad]) => ({ ...(v as object), [key]: bad })),
    },
    { weight: 1, arbitrary: fc.tuple(valid(s), fc.constantFrom(...keys)).map(([v, key]) => Object.fromEntries(Object.entries(v as object).filter(([k]) => k !== key))) },
    { weight: 1, arbitrary: fc.tuple(valid(s), fc.string({ maxLength: 8 }), hostile).map(([v, key, extra]) => ({ [key]: extra, ...(v as object) })) },
    { weight: 1, arbitrary: hostile },
  );
}

/** How a value travels in a path or a query string. */
const asText = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v) ?? "");

interface Call {
  credential: string;
  path: string;
  query: [string, string][];
  body: unknown;
  rawBody: string | null;
}

function callFor(path: string, op: Operation): fc.Arbitrary<Call> {
  const params = op.parameters ?? [];
  const pathParams = Object.fromEntries(params.filter((p) => p.in === "path").map((p) => [p.name, input(p.schema)]));
  const queryParams = params.filter((p) => p.in === "query");
  const bodySchema = op.requestBody?.content["application/json"]?.schema;
  return fc.record({
    credential: fc.constantFrom(...Object.keys(credentials)),
    path: fc.record(pathParams).map((values) => path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(asText(values[name])))),
    query: fc
      .tuple(fc.subarray(queryParams), fc.array(fc.tuple(fc.string({ maxLength: 6 }), hostileString), { maxLength: 1 }))
      .chain(([chosen, extra]) =>
        fc.tuple(...chosen.map((p) => input(p.schema).map((v): [string, string] => [p.name, asText(v)]))).map((pairs) => [...pairs, ...extra]),
      ),
    body: bodySchema ? input(bodySchema) : fc.constant(undefined),
    rawBody: fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom("{", "not json", "[1,2", '{"a":') }),
  });
}

// --- the service ---

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const answer = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`POST ${path}: ${answer.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

beforeAll(async () => {
  doc = await (await fetch(`${baseUrl}/openapi.json`)).json();
  const tenant = `fuzz-${Date.now().toString(36)}`;
  const signup = await post("/sandbox/tenants", { tenant });
  await post(`/sandbox/tenants/${tenant}/bank`, {
    accounts: [{ account_id: "acc", name: "Checking" }],
    added: Array.from({ length: 12 }, (_, i) => ({ transaction_id: `f${i}`, account_id: "acc", amount: i % 3 ? 12.5 : -300, date: "2026-11-1" + (i % 10), name: i % 2 ? "COFFEE" : "RENT" })),
  });
  const sessionHeaders = { cookie: `svc_session=${signup.session}`, origin: baseUrl };
  await post("/api/v1/sync-now", {}, { authorization: `Bearer ${signup.tokens.read_write}` });
  const offer = await post("/api/v1/auditor/grants", { viewer_name: "Fuzz Auditor", viewer_channel: "+15555550199" }, sessionHeaders);
  const outbox: any = await (await fetch(`${baseUrl}/sandbox/tenants/${tenant}/outbox`)).json();
  const code = /\b(\d{6})\b/.exec(outbox.messages[0].body)![1];
  const grant = await post(`/api/v1/auditor/grants/${offer.request_id}/confirm`, { code, viewer_name: "Fuzz Auditor", viewer_channel: "+15555550199" }, sessionHeaders);
  credentials.none = {};
  credentials.forged = { authorization: "Bearer lat.0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" };
  credentials.read_write = { authorization: `Bearer ${signup.tokens.read_write}` };
  credentials.read_only = { authorization: `Bearer ${signup.tokens.read_only}` };
  credentials.session = sessionHeaders;
  credentials.auditor = { authorization: `Bearer ${grant.token}` };
});

describe("every operation, fuzzed", () => {
  it("answers only documented statuses, never a 5xx, errors as problem+json, bodies as documented", async () => {
    const methods = ["get", "post"] as const;
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => methods.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m]! })));
    expect(operations.length).toBeGreaterThan(30);
    for (const { path, method, op } of operations) {
      await fc.assert(
        fc.asyncProperty(callFor(path, op), async (call) => {
          const url = new URL(`${baseUrl}${call.path}`);
          for (const [k, v] of call.query) url.searchParams.append(k, v);
          const hasBody = method === "post" && (call.body !== undefined || call.rawBody !== null);
          const answer = await fetch(url, {
            method: method.toUpperCase(),
            headers: { ...credentials[call.credential], ...(hasBody ? { "content-type": "application/json" } : {}) },
            body: hasBody ? (call.rawBody ?? JSON.stringify(call.body)) : undefined,
          });
          const text = await answer.text();
          const status = String(answer.status);
          const where = `${op.operationId} ${method.toUpperCase()} ${url.pathname}${url.search} as ${call.credential}: ${status} ${text.slice(0, 300)}`;
          expect(answer.status, where).toBeLessThan(500);
          const documented = op.responses[status];
          expect(documented, `${where}\n(undocumented status; documented: ${Object.keys(op.responses).join(", ")})`).toBeDefined();
          const type = (answer.headers.get("content-type") ?? "").split(";")[0]!;
          if (answer.status >= 400) {
            expect(type, where).toBe("application/problem+json");
            // One code per kind of refusal: a refused input is named, a body that is not JSON or not declared JSON has its own code.
            const code = JSON.parse(text).code;
            if (answer.status === 400) expect(["invalid_request", "malformed_json"], where).toContain(code);
            if (answer.status === 415) expect(code, where).toBe("unsupported_media_type");
            expect(code, where).not.toMatch(/^http_|^malformed_request$/);
          }
          const schema = documented!.content?.[type]?.schema;
          if (/json/.test(type)) {
            expect(schema, `${where}\n(no schema documented for ${type})`).toBeDefined();
            const validate = validatorFor(`${op.operationId} ${status} ${type}`, schema!);
            expect(validate(JSON.parse(text)), `${where}\n${JSON.stringify(validate.errors)}`).toBe(true);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
  }, 600_000);
});
