/**
 * src/http/ (no single entry; app.ts mounts the guards here, the faces read bodies and query
 * strings through the other files): the plumbing every request passes: body limits,
 * response headers, JSON and form bodies, query strings, control characters in JSON
 * answers. May import errors.ts, input/ and the ground floor only (.dependency-cruiser.cjs:
 * http-is-plumbing). Imported by the faces and messages/ (the carrier's form).
 */
/**
 * Guards every answer carries: request bodies are bounded before anything parses them
 * (413), and responses say how browsers may treat them: only ever over HTTPS, never
 * framed, never sniffed, no referrer to other sites, nothing carrying books or
 * credentials cached, and pages under a strict CSP.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../errors";

/** The largest request body: a bulk verb of 100 rows fits many times over. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** The sandbox takes larger batches (5,000 bank changes per call). */
export const SANDBOX_MAX_BODY_BYTES = 16 * 1024 * 1024;

const tooLarge = (limit: number) => () => {
  throw new ApiError("body_too_large", `The request body is larger than ${limit.toLocaleString("en-US")} bytes; send less per call.`);
};
const apiLimit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge(MAX_BODY_BYTES) });
const sandboxLimit = bodyLimit({ maxSize: SANDBOX_MAX_BODY_BYTES, onError: tooLarge(SANDBOX_MAX_BODY_BYTES) });

export const limitBodies: MiddlewareHandler = (c, next) => (new URL(c.req.url).pathname.startsWith("/sandbox/") ? sandboxLimit(c, next) : apiLimit(c, next));

/** Pages run no script and load nothing from elsewhere; their one stylesheet is inline. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The workspace's pages (/app, and /settings in its frame) run this origin's own scripts and stylesheet, nothing inline, nothing from elsewhere. */
export const WORKSPACE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const IN_WORKSPACE = /^\/(app|settings)(\/|$)/;

/**
 * Two years, the service's subdomains included. Not `preload`: that asks browsers to
 * hard-code the whole registrable domain, a choice for whoever owns the domain the
 * service is deployed under, not for the service. Browsers ignore it over plain HTTP.
 */
export const HSTS = "max-age=63072000; includeSubDomains";

/** What may be cached: the public descriptions and the viewer's files. Everything else carries books, credentials or codes. */
const CACHEABLE = /^\/(openapi\.json|api\/v1|docs(\/.*)?)$/;

export const responseHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const headers = c.res.headers;
  headers.set("strict-transport-security", HSTS);
  headers.set("x-content-type-options", "nosniff");
  headers.set("x-frame-options", "DENY");
  // Not `no-referrer`: with it a browser sends `Origin: null` on its own forms, which the same-origin check refuses.
  headers.set("referrer-policy", "same-origin");
  if (!CACHEABLE.test(new URL(c.req.url).pathname) && !headers.has("cache-control")) headers.set("cache-control", "no-store");
  if ((headers.get("content-type") ?? "").startsWith("text/html") && !headers.has("content-security-policy")) {
    headers.set("content-security-policy", IN_WORKSPACE.test(new URL(c.req.url).pathname) ? WORKSPACE_CSP : PAGE_CSP);
  }
};
