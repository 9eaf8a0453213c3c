/**
 * One entry of the endpoint index: the route (method, path, operation id, zod schemas),
 * its credential rule and its handler. The routes, /openapi.json, /api/v1 and the tool
 * face are all generated from the list of entries in ./index.ts.
 */
import { createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { checkRule, resolveCaller, type Caller, type CredentialRule } from "../auth/caller";
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

/** Statuses an endpoint may answer besides its success, beyond those every endpoint has. */
export type ExtraStatus = 403 | 404 | 409 | 429 | 503;

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

export interface Call<P, Q, B> {
  caller: Caller;
  env: Env;
  /** The caller's tenant's ledger (its Durable Object). */
  ledger: DurableObjectStub<TenantLedger>;
  /** What the caller's credential lets it see of the vault. */
  face: Face;
  now: Date;
  /** The request's origin (`https://host`), for the absolute URLs an answer names. */
  origin: string;
  /** The client's address where the deployment trusts the platform to report it (null: unknown), for the attempt limits. */
  address: string | null;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
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
  errors?: Partial<Record<ExtraStatus, string>>;
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
  success: { status: 200 | 202; description: string; schema: S };
  handler: (call: Call<P, Q, B>) => Promise<z.input<S> | JsonAnswer<z.input<S>>>;
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
  route: RouteConfig;
  run: (c: Context<AppEnv>) => Promise<Response>;
}

export const SECURITY: Record<string, string[]>[] = [{ bearerToken: [] }, { sessionCookie: [] }];

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: problemSchema } },
});

const { credential: perCredential, address: perAddress } = RATE_LIMITS;
/** Every operation's 429: the general rate limits (an operation's own 429s come after it). */
export const RATE_LIMITED =
  `Over a rate limit (\`rate_limited\`): ${perCredential.limit} requests per ${perCredential.periodSeconds} s per credential, ` +
  `${perAddress.limit.toLocaleString("en-US")} per ${perAddress.periodSeconds} s per client address. Nothing was done; \`Retry-After\` says when to try again.`;

const tooMany = (description: string) => ({
  ...problem(description),
  headers: {
    "Retry-After": { description: "Seconds to wait before trying again.", required: true, schema: { type: "integer" as const, minimum: 1 } },
  },
});

export function defineEndpoint<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined, S extends Schema>(
  spec: EndpointSpec<P, Q, B, S>,
): Endpoint {
  const success = { description: spec.success.description, content: { "application/json": { schema: spec.success.schema } } };
  return build(spec, spec.success.status, success, "json", async (c, call) => {
    const body = await spec.handler(call);
    const json = body instanceof JsonAnswer ? body.text : JSON.stringify(spec.success.schema.parse(body));
    return c.body(escapeRawControls(json), spec.success.status, { "content-type": "application/json" });
  });
}

/** An endpoint that streams a file (text/csv and the like) instead of answering JSON. */
export function defineDownload<P extends Schema | undefined, Q extends Schema | undefined>(spec: DownloadSpec<P, Q>): Endpoint {
  const content = Object.fromEntries(
    Object.entries(spec.success.mediaTypes).map(([mediaType, description]) => [mediaType, { schema: z.string().openapi({ description }) }]),
  );
  return build(spec, 200, { description: spec.success.description, content }, "file", async (_c, call) => {
    const file = await spec.handler(call);
    return new Response(file.body, {
      status: 200,
      headers: { "content-type": file.mediaType, "content-disposition": `attachment; filename="${file.filename}"` },
    });
  });
}

const BAD_INPUT =
  "`invalid_request`: a field is refused, and `errors` names every one (`body.x`, `query.x`, `path.x`) with why (issue codes such as " +
  "`control_character`, `lone_surrogate`, `not_an_integer`, `date_out_of_range`, `path_body_mismatch`, or the validator's own).";
const BAD_WRITE = `${BAD_INPUT} \`malformed_json\`: the body is not JSON. Nothing was written.`;

/** Why each credential rule answers 403 (codes in backticks). */
const CREDENTIAL_REFUSALS: Record<CredentialRule, string> = {
  read: "An auditor grant token, which reads the auditor view and nothing else (`auditor_scope`).",
  write: "A read-only token (`read_only_token`), a session request from another origin (`cross_origin`), or an auditor grant token (`auditor_scope`).",
  session: "A bearer token: this operation is session only (`session_only`, or `auditor_scope` for a grant token); or a session request from another origin (`cross_origin`).",
  auditor: "Anything but a live auditor grant token: a personal token or a session (`auditor_only`), a revoked grant (`grant_revoked`) or an expired one (`grant_expired`).",
};

function build<P, Q, B>(
  spec: CommonSpec<P, Q, B>,
  status: number,
  success: RouteConfig["responses"][string],
  answers: Endpoint["answers"],
  respond: (c: Context<AppEnv>, call: Call<P, Q, B>) => Promise<Response>,
): Endpoint {
  const access = spec.method === "get" ? "read" : "write";
  const hasInput = spec.params !== undefined || spec.query !== undefined || spec.body !== undefined;
  const responses: RouteConfig["responses"] = {
    [status]: success,
    ...(hasInput || access === "write" ? { 400: problem(access === "write" ? BAD_WRITE : BAD_INPUT) } : {}),
    401: problem("No credential, or one this surface refuses."),
    ...Object.fromEntries(Object.entries(spec.errors ?? {}).map(([code, why]) => [code, problem(why)])),
    // Every rule refuses some credential with 403; an operation's own 403s come after it.
    403: problem([CREDENTIAL_REFUSALS[spec.credential], spec.errors?.[403]].filter(Boolean).join(" Also: ")),
    ...(access === "write" ? { 413: problem("The body is larger than the service takes (1 MiB).") } : {}),
    ...(access === "write" ? { 415: problem("The body is not declared `application/json` (`unsupported_media_type`): another content type, with a body or without, or a body with none.") } : {}),
    429: tooMany([RATE_LIMITED, spec.errors?.[429]].filter(Boolean).join(" Also: ")),
    500: problem("An unexpected fault; nothing internal is named."),
  };
  const route = createRoute({
    method: spec.method,
    path: spec.path,
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    security: SECURITY,
    middleware: access === "write" ? [authenticate(spec.credential), requireDecodableQuery, requireJsonBody] : [authenticate(spec.credential), requireDecodableQuery],
    request: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.body ? { body: { required: spec.bodyRequired ?? true, content: { "application/json": { schema: spec.body } } } } : {}),
    } as RouteConfig["request"],
    responses,
  });

  const run = async (c: Context<AppEnv>) => {
    const caller = c.get("caller");
    const now = new Date();
    // The validators registered by the route ran already; the generic context has lost their types.
    const valid = (target: string) => (c.req.valid as (t: string) => unknown)(target);
    const call = {
      caller,
      env: c.env,
      ledger: ledgerOf(c.env, caller.tenant.id),
      face: faceFor(caller.tenant, now),
      now,
      origin: new URL(c.req.url).origin,
      address: clientAddress(c.req.raw, c.env),
      params: spec.params ? valid("param") : undefined,
      query: spec.query ? valid("query") : undefined,
      body: spec.body ? valid("json") : undefined,
    } as Call<P, Q, B>;
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
