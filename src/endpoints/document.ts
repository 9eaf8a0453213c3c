/**
 * The OpenAPI document of an endpoint index, without the rest of the app (so a Node script,
 * `npm run client:gen`, can render it). The app serves the same document at /openapi.json;
 * the typed client's staleness test compares the two through the generated types.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv, Endpoint } from "./define";
import { OPENAPI_INFO, SECURITY_SCHEMES } from "./describe";

export function openApiDocument(index: readonly Endpoint[]) {
  const app = new OpenAPIHono<AppEnv>();
  for (const endpoint of index) app.openapi(endpoint.route, endpoint.run);
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) app.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
  return app.getOpenAPI31Document({ openapi: "3.1.0", info: OPENAPI_INFO });
}
