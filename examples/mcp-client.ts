/**
 * The same flow as typed-client.ts, driven through the MCP tool face (/mcp) with the
 * official MCP SDK client, as an AI agent would.
 *
 *   npm start            # in another terminal
 *   npx tsx examples/mcp-client.ts
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BASE_URL, CATEGORIES, printPnl, RULES, sandboxTenant } from "./sandbox";

const { tenant, token } = await sandboxTenant("mcp");
const client = new Client({ name: "ledger-example", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE_URL}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));

/** Calls a tool and answers its structured content, or throws with the problem it returned. */
async function tool<T = any>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${(result.content as { text: string }[])[0]!.text}`);
  return result.structuredContent as T;
}

console.log(`${(await client.listTools()).tools.length} tools`);
const sync = await tool<{ request_id: number }>("sync_now");
for (let i = 0; ; i++) {
  const { runs } = await tool<{ runs: { request_id: number; final: boolean }[] }>("list_sync_history");
  if (runs.some((run) => run.request_id === sync.request_id && run.final)) break;
  if (i > 100) throw new Error("the sync did not finish");
  await new Promise((resolve) => setTimeout(resolve, 200));
}
await tool("create_categories", { categories: CATEGORIES });
const rules = await tool<{ created: unknown[] }>("create_rules", { rules: RULES });
const run = await tool<{ decided: number }>("run_rules");
console.log(`${tenant}: ${rules.created.length} rules decided ${run.decided} lines`);
printPnl(await tool("get_pnl_rolling"));
await client.close();
