/**
 * src/mcp/ (entry: this file): the tool face at /mcp, its tools generated from the endpoint
 * index (tools.ts). A face over the endpoints: may import the endpoints' index, auth/ (the
 * credential rules) and the limits; mounted by app.ts alone (.dependency-cruiser.cjs:
 * faces-stand-apart).
 */
/**
 * The tool face: the Model Context Protocol over Streamable HTTP at `/mcp`, stateless (a
 * server and a transport per request, JSON answers, no session id). A tool call becomes
 * the endpoint's own HTTP request, carrying the MCP request's bearer token, and is
 * dispatched through the app: the same validation, credential rules, rate limit and
 * handler. A problem answer comes back as a tool result with `isError: true` and the
 * problem's JSON (a call over the credential's rate limit included: the model can read it and wait).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { RATE_LIMITS } from "../limits/rate-limit";
import { requestFor, type ToolBinding } from "./tools";

export const SERVER_INFO = { name: "ledger-service", version: "v1" };

const INSTRUCTIONS =
  "Books for a small business, kept from its bank feed. Money is integer cents (positive = money in); dates are ISO " +
  "(America/Chicago). Start with get_me, then list_transactions, list_exceptions and explain_transaction. Nothing is ever " +
  "edited or deleted: every write appends. Call with a personal access token as the bearer credential. A token may make " +
  `${RATE_LIMITS.credential.limit} calls every ${RATE_LIMITS.credential.periodSeconds} seconds; over that a call is a tool error ` +
  "`rate_limited` that names the wait.";

export async function handleMcp(request: Request, bindings: readonly ToolBinding[], dispatch: (request: Request) => Promise<Response>): Promise<Response> {
  const byName = new Map(bindings.map((b) => [b.tool.name, b]));
  const authorization = request.headers.get("authorization");
  const origin = new URL(request.url).origin;

  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: bindings.map((b) => b.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (call): Promise<CallToolResult> => {
    const binding = byName.get(call.params.name);
    if (!binding) return problemResult({ status: 404, code: "unknown_tool", detail: `No tool is named ${call.params.name}; list the tools.` });
    const answer = await dispatch(requestFor(binding, call.params.arguments ?? {}, origin, authorization));
    const text = await answer.text();
    if (!answer.ok) return problemResult(JSON.parse(text) as Record<string, unknown>);
    if (binding.endpoint.answers === "file") {
      const file = { file: String(call.params.arguments?.file ?? ""), media_type: answer.headers.get("content-type") ?? "", text };
      return { structuredContent: file, content: [{ type: "text", text }] };
    }
    return { structuredContent: JSON.parse(text) as Record<string, unknown>, content: [{ type: "text", text }] };
  });

  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request);
}

function problemResult(problem: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(problem) }] };
}
