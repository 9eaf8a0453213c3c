/**
 * One entry of the endpoint index: the route (method, path, operation id, zod schemas),
 * its credential rule and its handler. The routes, /openapi.json, /api/v1 and the tool
 * face are all generated from the list of entries in ./index.ts.
 */
import { createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { checkRule, CREDENTIAL_RULES, resolveCaller, type Caller, type CredentialRule } from "../auth/caller";
import { ERROR_CATALOG, type ErrorCode } from "../error-catalog";
import { requireJsonBody } from "../http/json-body";
import { escapeRawControls } from "../http/json-controls";
import { requireDecodableQuery } from "../http/query-string";
import { clientAddress } from "../limits/client-address";
import { limitCredential, RATE_LIMITS } from "../limits/rate-limit";
import { ledgerOf, type Env } from "../env";
import { faceFor, type Face } from "../ledger/face";
import type { TenantLedger } from "../ledger/tenant-ledger";
import { problemSchema } from "./shared";

export type AppEnv = { Bindings: Env; Variables: { caller: Caller } };


type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

/** A call to a public operation: no credential, so no caller, tenant or face. */
export interface PublicCall<P, Q, B> {
  env: Env;
  now: Date;
  /** The request's origin (`https://host`), for the absolute URLs an answer names. */
  origin: string;
  /** The client's address where the deployment trusts the platform to report it (null: unknown), for the attempt limits and the public operations' limits. */
  address: string | null;
  /** Runs work after the answer is sent (a mail whose sending must not show in the answer's time). */
  defer: (work: Promise<unknown>) => void;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

/** A call made with a credential: the public call's parts, and who is calling and what they may see. */
export interface Call<P, Q, B> extends PublicCall<P, Q, B> {
  caller: Caller;
  /** The caller's tenant's ledger (its Durable Object). */
  ledger: DurableObjectStub<TenantLedger>;
  /** What the caller's credential lets it see of the vault. */
  face: Face;
}

interface CommonSpec<P, Q, B> {
  /** Also the tool name on the tool face. */
  operationId: string;
  method: "get" | "post";
  /** OpenAPI style: `/api/v1/transactions/{side}/{src_id}`. */
  path: string;
  tag: string;
  summary: string;
  /** Written for a person and for a model: what it does, when to use it, its limits. */
  description: string;
  credential: CredentialRule;
  params?: P;
  query?: Q;
  body?: B;
  /** A write that, repeated with the same input, changes nothing more (the tool face's `idempotentHint`). */
  idempotent?: boolean;
  /** False when the body may be left out altogether (the handler then gets `undefined`). */
  bodyRequired?: boolean;
  /**
   * The refusals this operation has of its own, each with when it gives it here (those
   * every operation of its kind has, credentials, input and limits, are added from the
   * credential rule and the catalog).
   */
  errors?: Partial<Record<ErrorCode, string>>;
  /**
   * For a read that lists a collection: the operations (ids) that add to it. A POST to the
   * read's own path, a guess at a REST create, is a 405 that names them, rather than a
   * second name for one of them (one operation, one path, one tool). Say so in `description` too.
   */
  addedBy?: readonly string[];
}

/**
 * An answer the domain wrote as JSON text itself (a report of thousands of rows, built
 * around JSON SQLite wrote): sent as it stands, without the schema's parse, which its
 * tests make instead. `T` is the shape it holds, checked against the success schema.
 */
export class JsonAnswer<T> {
  declare readonly shape?: T;
  constructor(readonly text: string) {}
}

export interface EndpointSpec<P, Q, B, S extends Schema> extends CommonSpec<P, Q, B> {
  success: { status: 200 | 201 | 202; description: string; schema: S };
  handler: (call: Call<P, Q, B>) => Promise<z.input<S> | JsonAnswer<z.input<S>>>;
}

export interface PublicEndpointSpec<P, Q, B, S extends Schema> extends Omit<CommonSpec<P, Q, B>, "credential"> {
  method: "post";
  success: { status: 200 | 201; description: string; schema: S };
  handler: (call: PublicCall<P, Q, B>) => Promise<z.input<S>>;
}

/** A file the handler streams: its body, its media type and the name a browser saves it as. */
export interface FileBody {
  body: ReadableStream<Uint8Array> | string;
  mediaType: string;
  filename: string;
}

export interface DownloadSpec<P, Q> extends CommonSpec<P, Q, undefined> {
  method: "get";
  /** The media types the file may have, each with what it holds. */
  success: { description: string; mediaTypes: Record<string, string> };
  handler: (call: Call<P, Q, undefined>) => Promise<FileBody>;
}

export interface Endpoint {
  operationId: string;
  method: "get" | "post";
  path: string;
  summary: string;
  description: string;
  credential: CredentialRule;
  /** Reads change nothing; writes append to the ledger. */
  access: "read" | "write";
  /** `json` answers an object; `file` streams a file (the tool face returns it as text). */
  answers: "json" | "file";
  /** Reads always; writes that say so. */
  idempotent: boolean;
  /** Every refusal it may answer (codes of the catalog). */
  refusals: ErrorCode[];
  /** The operations that add to what this read lists (named by a POST to its path's 405). */
  addedBy: readonly string[];
  route: RouteConfig;
  run: (c: Context<AppEnv>) => Promise<Response>;
}

export const SECURITY: Record<string, string[]>[] = [{ bearerToken: [] }, { sessionCookie: [] }];

const { credential: perCredential, address: perAddress } = RATE_LIMITS;
/** Every operation's 429: the general rate limits. */
export const RATE_LIMITED =
  `${perCredential.limit} requests per ${perCredential.periodSeconds} s per credential, ` +
  `${perAddress.limit.toLocaleString("en-US")} per ${perAddress.periodSeconds} s per client address. Nothing was done; \`Retry-After\` says when to try again.`;

const RETRY_AFTER = {
  "Retry-After": { description: "Seconds to wait before trying again.", required: true, schema: { type: "integer" as const, minimum: 1 } },
};

/**
 * Every refusal an operation may answer, with when: those of every operation (its
 * credential rule's, the rate limits, a fault), of its input and of a write, then its own.
 */
function refusalsOf(spec: CommonSpec<unknown, unknown, unknown>, access: "read" | "write"): Map<ErrorCode, string> {
  const hasInput = spec.params !== undefined || spec.query !== undefined || spec.body !== undefined;
  const refusals = new Map<ErrorCode, string>();
  const add = (code: ErrorCode, when: string = ERROR_CATALOG[code].when) => refusals.set(code, when);
  if (hasInput || access === "write") add("invalid_request");
  if (access === "write") add("malformed_json");
  if (spec.credential !== "public") {
    add("credential_missing");
    add("credential_refused");
  }
  for (const code of CREDENTIAL_RULES[spec.credential].refused) add(code);
  if (access === "write") {
    add("body_too_large");
    add("unsupported_media_type");
  }
  add("rate_limited", `${ERROR_CATALOG.rate_limited.when} ${RATE_LIMITED}`);
  add("internal_error");
  for (const [code, when] of Object.entries(spec.errors ?? {}) as [ErrorCode, string][]) add(code, when);
  return refusals;
}

/** The refusals as OpenAPI responses, one per status: each code with when, and the problem's `code` limited to them. */
function refusalResponses(refusals: Map<ErrorCode, string>): RouteConfig["responses"] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of refusals.keys()) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      status,
      {
        description: codes.map((code) => `\`${code}\`: ${refusals.get(code)}`).join(" "),
        content: { "application/problem+json": { schema: problemSchema.extend({ code: z.enum(codes as [ErrorCode, ...ErrorCode[]]).openapi({ description: "Why, as a stable word (docs/errors.md)." }) }) } },
        ...(status === 429 ? { headers: RETRY_AFTER } : {}),
      },
    ]),
  );
}

/** A JSON answer: the handler's body parsed by the success schema (or its own JSON text), with the success status. */
function answerJson<S extends Schema>(success: { status: number; schema: S }, body: z.input<S> | JsonAnswer<z.input<S>>, c: Context<AppEnv>): Response {
  const json = body instanceof JsonAnswer ? body.text : JSON.stringify(success.schema.parse(body));
  return c.body(escapeRawControls(json), success.status as 200, { "content-type": "application/json" });
}

const jsonContent = (success: { description: string; schema: Schema }) => ({ description: success.description, content: { "application/json": { schema: success.schema } } });

export function defineEndpoint<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined, S extends Schema>(
  spec: EndpointSpec<P, Q, B, S>,
): Endpoint {
  return build(spec, spec.success.status, jsonContent(spec.success), "json", async (c, call) => answerJson(spec.success, await spec.handler(withCaller(c, call)), c));
}

/**
 * An operation anyone may call, with no credential (the `public` rule): its route reads no
 * credential and counts no credential's limit (the address limits still hold, and the
 * handler applies the operation's own), and its document says it needs no security.
 */
export function definePublicEndpoint<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined, S extends Schema>(
  spec: PublicEndpointSpec<P, Q, B, S>,
): Endpoint {
  return build({ ...spec, credential: "public" }, spec.success.status, jsonContent(spec.success), "json", async (c, call) => answerJson(spec.success, await spec.handler(call), c));
}

/** An endpoint that streams a file (text/csv and the like) instead of answering JSON. */
export function defineDownload<P extends Schema | undefined, Q extends Schema | undefined>(spec: DownloadSpec<P, Q>): Endpoint {
  const content = Object.fromEntries(
    Object.entries(spec.success.mediaTypes).map(([mediaType, description]) => [mediaType, { schema: z.string().openapi({ description }) }]),
  );
  return build(spec, 200, { description: spec.success.description, content }, "file", async (c, call) => {
    const file = await spec.handler(withCaller(c, call));
    return new Response(file.body, {
      status: 200,
      headers: { "content-type": file.mediaType, "content-disposition": `attachment; filename="${file.filename}"` },
    });
  });
}

/** The call of an operation under a credential: the caller the route's authentication resolved, its tenant's ledger and face. */
function withCaller<P, Q, B>(c: Context<AppEnv>, call: PublicCall<P, Q, B>): Call<P, Q, B> {
  const caller = c.get("caller");
  return { ...call, caller, ledger: ledgerOf(c.env, caller.tenant.id), face: faceFor(caller.tenant, call.now) };
}

/**
 * An entry of the index from its spec: the route (its security, middleware, input and every
 * answer), and the run that reads the call's input and answers it (`respond`). A public
 * operation's route reads no credential; every other's authenticates first, and its
 * `respond` adds the caller (`withCaller`).
 */
function build<P, Q, B>(
  spec: CommonSpec<P, Q, B>,
  status: number,
  success: RouteConfig["responses"][string],
  answers: Endpoint["answers"],
  respond: (c: Context<AppEnv>, call: PublicCall<P, Q, B>) => Promise<Response>,
): Endpoint {
  const open = spec.credential === "public";
  const access = spec.method === "get" ? "read" : "write";
  // A grant is read-only access: no rule that lets one in may guard a write.
  if (access === "write" && CREDENTIAL_RULES[spec.credential].grant !== "refused") {
    throw new Error(`${spec.operationId} is a write under the rule ${spec.credential}, which lets an auditor grant in`);
  }
  const refusals = refusalsOf(spec as CommonSpec<unknown, unknown, unknown>, access);
  const responses: RouteConfig["responses"] = { [status]: success, ...refusalResponses(refusals) };
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    security: open ? [] : SECURITY,
    middleware: [...(open ? [] : [authenticate(spec.credential)]), requireDecodableQuery, ...(access === "write" ? [requireJsonBody] : [])],
    request: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.body ? { body: { required: spec.bodyRequired ?? true, content: { "application/json": { schema: spec.body } } } } : {}),
    } as RouteConfig["request"],
    responses,
  });

  const run = async (c: Context<AppEnv>) => {
    // The validators registered by the route ran already; the generic context has lost their types.
    const valid = (target: string) => (c.req.valid as (t: string) => unknown)(target);
    const call = {
      env: c.env,
      now: new Date(),
      origin: new URL(c.req.url).origin,
      address: clientAddress(c.req.raw, c.env),
      defer: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
      params: spec.params ? valid("param") : undefined,
      query: spec.query ? valid("query") : undefined,
      body: spec.body ? valid("json") : undefined,
    } as PublicCall<P, Q, B>;
    return respond(c, call);
  };

  return {
    operationId: spec.operationId,
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    description: spec.description,
    credential: spec.credential,
    access,
    answers,
    idempotent: access === "read" || spec.idempotent === true,
    refusals: [...refusals.keys()],
    addedBy: spec.addedBy ?? [],
    route,
    run,
  };
}

/** Resolves the credential, counts the call against it, and applies the rule, before any input is validated. */
function authenticate(rule: CredentialRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const now = new Date();
    const caller = await resolveCaller(c.req.raw, c.env.INDEX_DB, now);
    await limitCredential(c.env, caller.rateKey);
    checkRule(caller, rule, c.req.raw, now);
    c.set("caller", caller);
    await next();
  };
}
