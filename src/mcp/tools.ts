/**
 * The tool face's tools, generated from the endpoint index and its OpenAPI document: one
 * tool per endpoint (the public operations, which take no credential, aside), named by its operation id. `inputSchema` merges the path, query and
 * body parameters (as the document describes them, references inlined); `outputSchema` is
 * the success response's schema. A call is turned back into the endpoint's HTTP request,
 * so it runs the same validation, credential rules and handler as the route.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { CREDENTIAL_RULES } from "../auth/caller";
import type { Endpoint } from "../endpoints/define";

type JsonSchema = Record<string, unknown>;

interface OpenApiOperation {
  operationId: string;
  parameters?: { name: string; in: "path" | "query"; required?: boolean; description?: string; schema: JsonSchema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** How a tool's arguments go back into its HTTP request. */
export interface ToolBinding {
  endpoint: Endpoint;
  tool: Tool;
  pathParams: string[];
  queryParams: string[];
  bodyParams: string[];
}

/** The schema with every `#/components/schemas/...` reference replaced by what it names. */
function inline(schema: unknown, components: Record<string, JsonSchema>, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, components, seen));
  if (typeof schema !== "object" || schema === null) return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
    const name = ref.slice("#/components/schemas/".length);
    if (seen.includes(name)) throw new Error(`a recursive schema (${name}) cannot be inlined for the tool face`);
    const { $ref: _ref, ...siblings } = schema as JsonSchema;
    return { ...(inline(components[name], components, [...seen, name]) as JsonSchema), ...siblings };
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value, components, seen)]));
}

/** MCP wants an object at the root of both schemas. */
function asObjectSchema(schema: JsonSchema): JsonSchema {
  return schema.type === "object" ? schema : { type: "object", ...schema };
}

/** The endpoints that are tools: all but the public operations, which act for no tenant's token (docs/decisions.md, "The tool face"). */
export function toolEndpoints(index: readonly Endpoint[]): Endpoint[] {
  return index.filter((endpoint) => endpoint.credential !== "public");
}

export function toolBindings(index: readonly Endpoint[], document: OpenApiDocument): ToolBinding[] {
  const components = document.components?.schemas ?? {};
  return toolEndpoints(index).map((endpoint) => {
    const operation = document.paths[endpoint.path]?.[endpoint.method];
    if (!operation || operation.operationId !== endpoint.operationId) throw new Error(`the document has no operation ${endpoint.operationId}`);
    const properties: Record<string, unknown> = {};
    const required = new Set<string>();
    const pathParams: string[] = [];
    const queryParams: string[] = [];
    for (const p of operation.parameters ?? []) {
      properties[p.name] = { ...(inline(p.schema, components) as JsonSchema), ...(p.description ? { description: p.description } : {}) };
      if (p.required) required.add(p.name);
      (p.in === "path" ? pathParams : queryParams).push(p.name);
    }
    const body = operation.requestBody?.content["application/json"]?.schema;
    const bodyParams: string[] = [];
    if (body) {
      const resolved = inline(body, components) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(resolved.properties ?? {})) {
        if (name in properties) continue; // a path parameter the body may repeat (revoke's grant_id)
        properties[name] = schema;
        bodyParams.push(name);
      }
      if (operation.requestBody?.required) for (const name of resolved.required ?? []) required.add(name);
    }
    const success = Object.entries(operation.responses).find(([status]) => status.startsWith("2"))![1];
    const outputSchema =
      endpoint.answers === "file"
        ? {
            type: "object",
            properties: {
              file: { type: "string", description: "The file's name." },
              media_type: { type: "string", description: "Its media type." },
              text: { type: "string", description: "The whole file." },
            },
            required: ["file", "media_type", "text"],
          }
        : asObjectSchema(inline(success.content!["application/json"]!.schema, components) as JsonSchema);
    const tool: Tool = {
      name: endpoint.operationId,
      title: endpoint.summary,
      description: `${endpoint.description}\n\nWho may call it: ${CREDENTIAL_RULES[endpoint.credential].who}.`,
      inputSchema: { type: "object", properties: properties as Record<string, object>, ...(required.size > 0 ? { required: [...required] } : {}) },
      outputSchema: outputSchema as Tool["outputSchema"],
      annotations: {
        title: endpoint.summary,
        readOnlyHint: endpoint.access === "read",
        // Nothing is ever deleted or edited: every write appends.
        destructiveHint: false,
        idempotentHint: endpoint.idempotent,
        openWorldHint: false,
      },
    };
    return { endpoint, tool, pathParams, queryParams, bodyParams };
  });
}

/**
 * A path or query value percent-encoded. A lone surrogate (a tool's JSON arguments can
 * carry one) is written as the three bytes UTF-8 would give it, which no UTF-8 reader
 * takes, so the route refuses the value by name instead of reading U+FFFD in its place
 * (which is what URLSearchParams would send).
 */
export function encodeComponent(value: string): string {
  return value.replace(/[\s\S]/gu, (character) => {
    const unit = character.charCodeAt(0);
    if (character.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join("");
    }
    return encodeURIComponent(character);
  });
}

/** The HTTP request a tool call stands for, with the MCP request's own credential. */
export function requestFor(binding: ToolBinding, args: Record<string, unknown>, origin: string, authorization: string | null): Request {
  let path = binding.endpoint.path;
  for (const name of binding.pathParams) {
    const value = args[name];
    path = path.replace(`{${name}}`, encodeComponent(value === undefined ? "" : String(value)));
  }
  const query = binding.queryParams
    .filter((name) => args[name] !== undefined && args[name] !== null)
    .map((name) => `${name}=${encodeComponent(String(args[name]))}`);
  const url = new URL(query.length > 0 ? `${path}?${query.join("&")}` : path, origin);
  const headers: Record<string, string> = authorization ? { authorization } : {};
  if (binding.endpoint.method === "get") return new Request(url, { headers });
  const body = Object.fromEntries(binding.bodyParams.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));
  return new Request(url, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });
}
