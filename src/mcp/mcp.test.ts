/**
 * The tool face through the official MCP SDK client (Client + Streamable HTTP transport):
 * the tools are the endpoint index, and a call runs the route's own validation, credential
 * rules and handler.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SELF } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../endpoints/index";
import { toolEndpoints } from "./tools";
import { landSandboxBank } from "../../test/fixtures/books";
import { api, BASE, CHECKING, createTenant, deliver, grantAuditor, rw, txn, type SandboxTenant } from "../../test/fixtures/sandbox";

async function connect(bearer?: string): Promise<Client> {
  const client = new Client({ name: "ledger-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    fetch: (input, init) => SELF.fetch(new Request(input, init)),
    requestInit: bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {},
  });
  await client.connect(transport);
  return client;
}

const problemOf = (result: any) => JSON.parse(result.content[0].text);

describe("the tool face", () => {
  let t: SandboxTenant;
  let owner: Client;
  let readOnly: Client;
  beforeAll(async () => {
    t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("a", { name: "STRIPE PAYOUT", amount: -420, date: "2026-11-10" }), txn("b", { name: "AWS", amount: 31.5, date: "2026-11-11" })] });
    await landSandboxBank(t);
    owner = await connect(t.tokens.read_write);
    readOnly = await connect(t.tokens.read_only);
  });
  afterAll(async () => {
    await owner?.close();
    await readOnly?.close();
  });

  it("lists one tool per endpoint, named by its operation id, with schemas and annotations", async () => {
    const { tools } = await owner.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(toolEndpoints(endpoints).map((e) => e.operationId).sort());
    // The public operations are in the index (so in /openapi.json and /api/v1) and not tools.
    const publicOnes = ["sign_up", "request_password_reset", "reset_password"];
    expect(endpoints.filter((e) => e.credential === "public").map((e) => e.operationId)).toEqual(publicOnes);
    for (const name of publicOnes) expect(tools.map((tool) => tool.name)).not.toContain(name);
    for (const tool of tools) {
      const endpoint = endpoints.find((e) => e.operationId === tool.name)!;
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.description, tool.name).toContain(endpoint.description);
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: endpoint.access === "read", destructiveHint: false });
      expect(JSON.stringify(tool), tool.name).not.toContain("$ref");
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get("run_rules")!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(byName.get("categorize")!.annotations!.idempotentHint).toBe(false);
    // Path, query and body parameters merged into one input.
    expect(Object.keys(byName.get("list_transactions")!.inputSchema.properties!)).toEqual(expect.arrayContaining(["from", "to", "cat", "q", "page", "per_page"]));
    expect(byName.get("categorize")!.inputSchema.required).toEqual(expect.arrayContaining(["side", "src_id", "category"]));
    expect(Object.keys(byName.get("revoke_auditor_grant")!.inputSchema.properties!)).toEqual(["grant_id"]);
  });

  it("calls reads, with structured content and a JSON text block", async () => {
    const result: any = await readOnly.callTool({ name: "list_transactions", arguments: { q: "stripe" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.rows).toHaveLength(1);
    expect(result.structuredContent.rows[0]).toMatchObject({ description: "STRIPE PAYOUT", amount_cents: 42000 });
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  });

  it("calls writes with a read-write token, and the books change as through the route", async () => {
    const row = (await api(rw(t), "/api/v1/transactions?q=AWS")).body.rows[0];
    const result: any = await owner.callTool({ name: "categorize", arguments: { side: "A", src_id: row.src_id, category: "Software" } });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect((await api(rw(t), `/api/v1/transactions/A/${row.src_id}`)).body.row.category).toBe("Software");
    const why: any = await owner.callTool({ name: "explain_transaction", arguments: { side: "A", src_id: row.src_id } });
    expect(why.structuredContent.engine).toBe("human");
    expect(why.structuredContent.citations[0].actor).toMatch(/^token:/);
  });

  it("refuses a write with a read-only token, as a tool error carrying the problem", async () => {
    const result: any = await readOnly.callTool({ name: "run_rules", arguments: {} });
    expect(result.isError).toBe(true);
    expect(problemOf(result)).toMatchObject({ status: 403, code: "read_only_token" });
  });

  it("refuses the three grant tools: session only, never through a bearer token", async () => {
    for (const [name, args] of [
      ["offer_auditor_grant", { viewer_name: "Me, Myself", viewer_channel: "+15555550123" }],
      ["confirm_auditor_grant", { request_id: 1, code: "123456", viewer_name: "Me", viewer_channel: "+15555550123" }],
      ["revoke_auditor_grant", { grant_id: 1 }],
    ] as const) {
      const result: any = await owner.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(problemOf(result), name).toMatchObject({ status: 403, code: "session_only" });
    }
  });

  it("reports validation failures, missing credentials and unknown tools as tool errors", async () => {
    const invalid: any = await owner.callTool({ name: "list_transactions", arguments: { per_page: 0, from: "yesterday" } });
    expect(invalid.isError).toBe(true);
    expect(problemOf(invalid).errors.map((e: any) => e.field).sort()).toEqual(["query.from", "query.per_page"]);
    const anonymous = await connect();
    const refused: any = await anonymous.callTool({ name: "get_me", arguments: {} });
    expect(problemOf(refused)).toMatchObject({ status: 401, code: "credential_missing" });
    const unknown: any = await anonymous.callTool({ name: "drop_tables", arguments: {} });
    expect(problemOf(unknown)).toMatchObject({ code: "unknown_tool" });
    await anonymous.close();
  });

  it("gives an auditor token the auditor view and the parity verdicts, and nothing else", async () => {
    const { token } = await grantAuditor(t);
    const auditor = await connect(token);
    const view: any = await auditor.callTool({ name: "get_auditor_view", arguments: {} });
    expect(view.isError, JSON.stringify(view)).toBeFalsy();
    expect(view.structuredContent.months[0]).toMatchObject({ month: "2026-11" });
    const verdicts: any = await auditor.callTool({ name: "list_parity_verdicts", arguments: { revisions: "all" } });
    expect(verdicts.isError, JSON.stringify(verdicts)).toBeFalsy();
    expect(verdicts.structuredContent).toMatchObject({ verdicts: [], page: 1, total: 0 });
    expect(problemOf(await auditor.callTool({ name: "get_parity_verdict", arguments: { as_of: "2026-11-20" } }))).toMatchObject({ status: 404, code: "not_found" });
    expect(problemOf(await auditor.callTool({ name: "get_me", arguments: {} }))).toMatchObject({ code: "auditor_scope" });
    await auditor.close();
  });

  it("returns a file as text", async () => {
    const receipt: any = await owner.callTool({ name: "export_books", arguments: {} });
    const file: any = await readOnly.callTool({ name: "get_export_file", arguments: { export_id: receipt.structuredContent.export_id, file: "accounting-bank.csv" } });
    expect(file.structuredContent).toMatchObject({ file: "accounting-bank.csv", media_type: "text/csv; charset=utf-8" });
    expect(file.structuredContent.text.split("\r\n")[0]).toBe("Date,Description,Amount");
  });

  it("answers GET /mcp with 405", async () => {
    const answer = await SELF.fetch(`${BASE}/mcp`);
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
  });
});
