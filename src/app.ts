/**
 * The app factory: builds every route from the endpoint index, sets the validation
 * hook, turns every failure into problem+json in one place, and serves the generated
 * descriptions (/openapi.json, /api/v1), the pages and the sandbox surface.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { ApiError, problemResponse } from "./errors";
import { type AppEnv, type Endpoint } from "./endpoints/define";
import { endpoints } from "./endpoints/index";
import { describeApi, OPENAPI_INFO, SECURITY_SCHEMES } from "./endpoints/describe";
import { docs } from "./docs/routes";
import { handleMcp } from "./mcp/server";
import { toolBindings, type OpenApiDocument, type ToolBinding } from "./mcp/tools";
import { limitBodies, responseHeaders } from "./http/guards";
import { limitAddresses } from "./limits/rate-limit";
import { hooks } from "./messages/hooks";
import { bankHooks } from "./banks/routes";
import { bankPages } from "./pages/bank-routes";
import { workspace } from "./pages/app/routes";
import { pages } from "./pages/routes";
import { personPages } from "./pages/people-routes";
import { accountPages } from "./pages/signup";
import { sandboxLinkPages } from "./sandbox/link-pages";
import { sandbox } from "./sandbox/routes";

const VALIDATION_TARGETS: Record<string, string> = { json: "body", query: "query", param: "path" };

export function createApp(index: readonly Endpoint[] = endpoints) {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw ApiError.validation(VALIDATION_TARGETS[result.target] ?? result.target, result.error);
    },
  });

  // The headers wrap every answer, refusals included; the address limit comes before any body is read.
  app.use("*", responseHeaders, limitAddresses, limitBodies);
  for (const endpoint of index) app.openapi(endpoint.route, endpoint.run);

  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
    app.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
  }
  app.doc31("/openapi.json", { openapi: "3.1.0", info: OPENAPI_INFO });

  // The tool face, generated from the same index and document; built once per isolate.
  let tools: ToolBinding[] | undefined;
  app.post("/mcp", (c) => {
    tools ??= toolBindings(index, app.getOpenAPI31Document({ openapi: "3.1.0", info: OPENAPI_INFO }) as unknown as OpenApiDocument);
    return handleMcp(c.req.raw, tools, async (request) => app.fetch(request, c.env, c.executionCtx));
  });
  app.get("/api/v1", (c) => c.json(describeApi(index)));
  // Browsers ask for it on every page they open; the service has no icon, and says so without a 404 in the console.
  app.get("/favicon.ico", (c) => c.body(null, 204, { "cache-control": "public, max-age=86400" }));
  app.route("/", pages);
  app.route("/", accountPages);
  app.route("/", personPages);
  app.route("/", bankPages);
  // Before the rest of the sandbox, whose routes read JSON: the stand-in link page posts a form.
  app.route("/sandbox", sandboxLinkPages);
  app.route("/app", workspace);
  app.route("/sandbox", sandbox);
  app.route("/hooks", hooks);
  app.route("/hooks", bankHooks);
  app.route("/docs", docs);

  app.notFound((c) => {
    const pathname = new URL(c.req.url).pathname;
    const allowed = allowedMethods(index, pathname);
    if (allowed.length > 0) {
      const detail = `${c.req.method} is not served here; use ${allowed.join(" or ")}.${c.req.method === "POST" ? verbsThatAdd(index, pathname) : ""}`;
      return problemResponse(new ApiError("method_not_allowed", detail).toProblem(), { allow: allowed.join(", ") });
    }
    return problemResponse(ApiError.notFound(`Nothing is served at ${new URL(c.req.url).pathname}; see /api/v1.`).toProblem());
  });

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      const headers: Record<string, string> = error.status === 401 ? { "www-authenticate": 'Bearer realm="ledger"' } : {};
      if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds);
      return problemResponse(error.toProblem(), headers);
    }
    if (error instanceof HTTPException) return problemResponse(fromHono(error).toProblem());
    console.error(`unhandled fault on ${c.req.method} ${new URL(c.req.url).pathname}:`, error);
    return problemResponse(new ApiError("internal_error", "Something went wrong on our side. It was logged; try again, and report the time of the request if it persists.").toProblem());
  });

  return app;
}

/**
 * A refusal raised by one of Hono's own parts, in the code our own check for the same
 * thing uses: its JSON validator's 400 is a body that does not parse, its media type
 * gate's 415 a body that is not JSON. requireJsonBody refuses both first, so these are a
 * second line; no other part of Hono's that the app uses refuses a request, so any other
 * status is a fault of ours.
 */
function fromHono(error: HTTPException): ApiError {
  if (error.status === 400) return new ApiError("malformed_json", "The body is not valid JSON.");
  if (error.status === 415) return new ApiError("unsupported_media_type", "Send the body as application/json.");
  console.error(`a refusal of Hono's own with status ${error.status}:`, error);
  return new ApiError("internal_error", "Something went wrong on our side. It was logged; try again, and report the time of the request if it persists.");
}

const servedAt = (endpoint: Endpoint, pathname: string) => new RegExp(`^${endpoint.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(pathname);

/**
 * For a POST to a collection's read (`POST /api/v1/rules`): the operations that add to it,
 * each with its method and path (` To add to it, call create_rule (POST /api/v1/create-rule)
 * or ...`); empty when the path lists nothing that can be added to.
 */
function verbsThatAdd(index: readonly Endpoint[], pathname: string): string {
  const ids = index.filter((e) => servedAt(e, pathname)).flatMap((e) => e.addedBy);
  const verbs = ids.map((id) => index.find((e) => e.operationId === id)).filter((e): e is Endpoint => e !== undefined);
  if (verbs.length === 0) return "";
  return ` To add to it, call ${verbs.map((e) => `${e.operationId} (${e.method.toUpperCase()} ${e.path})`).join(" or ")}.`;
}

/** The methods the index serves at a concrete path (empty when the path is unknown). */
function allowedMethods(index: readonly Endpoint[], pathname: string): string[] {
  const methods = new Set<string>();
  for (const endpoint of index) {
    if (servedAt(endpoint, pathname)) methods.add(endpoint.method.toUpperCase());
  }
  if (pathname === "/api/v1" || pathname === "/openapi.json") methods.add("GET");
  // Stateless Streamable HTTP: no stream to GET and no session to DELETE.
  if (pathname === "/mcp") methods.add("POST");
  return [...methods].sort();
}
