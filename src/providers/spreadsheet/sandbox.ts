/**
 * The sandbox's spreadsheet API and OAuth token endpoint, so that a sandbox deployment
 * (`npm start`) connects and pushes with no Google account: a fetch the real adapters
 * (./sheets.ts, ./oauth.ts) call as they would call Google, answering in Google's shapes.
 * Its token endpoint takes the sandbox's OAuth client and any refresh token that starts
 * `sandbox-refresh-`, and hands out access tokens good for an hour; its values endpoints
 * take only those, and keep the sheets' rows in D1 (`sandbox_sheet_rows`), read back at
 * `GET /sandbox/tenants/{tenant}/spreadsheets/{id}`. Every spreadsheet id exists and has
 * every sheet.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { randomSecret } from "../../auth/crypto";
import { sandboxSheetRows } from "../../index-db/schema";

/** The sandbox deployment's OAuth client (its own client id and secret when none is configured). */
export const SANDBOX_OAUTH_CLIENT = { id: "sandbox-oauth-client", secret: "sandbox-oauth-client-secret" } as const;
/** A refresh token the sandbox's token endpoint takes (the /settings form offers it). */
export const SANDBOX_REFRESH_TOKEN = "sandbox-refresh-token";
const ACCESS_SECONDS = 3600;

function googleError(code: number, status: string, message: string): Response {
  return Response.json({ error: { code, message, status } }, { status: code });
}

/** The sandbox stand-in for one tenant's spreadsheets. */
export function sandboxSpreadsheetApi(d1: D1Database, tenantId: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (request.method === "POST" && path.endsWith("/token")) return token(await request.formData());
    const match = /\/v4\/spreadsheets\/([^/]+)\/values\/([^/]+):(clear|append)$/.exec(path);
    if (request.method !== "POST" || !match) return googleError(404, "NOT_FOUND", "Requested entity was not found.");
    if (!accessGood(request.headers.get("authorization"))) return googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
    const [, spreadsheetId, encodedRange, verb] = match as unknown as [string, string, string, "clear" | "append"];
    const range = decodeURIComponent(encodedRange);
    const sheet = /^'((?:[^']|'')*)'!/.exec(range)?.[1]?.replaceAll("''", "'");
    if (sheet === undefined) return googleError(400, "INVALID_ARGUMENT", `Unable to parse range: ${range}`);
    const where = and(eq(sandboxSheetRows.tenantId, tenantId), eq(sandboxSheetRows.spreadsheetId, decodeURIComponent(spreadsheetId)), eq(sandboxSheetRows.sheet, sheet));
    if (verb === "clear") {
      await drizzle(d1).delete(sandboxSheetRows).where(where);
      return Response.json({ spreadsheetId, clearedRange: range });
    }
    const rows = ((await request.json()) as { values?: unknown[] }).values ?? [];
    // One statement however many rows: D1 binds at most 100 values to one.
    await drizzle(d1).run(
      sql`INSERT INTO ${sandboxSheetRows} (tenant_id, spreadsheet_id, sheet, cells)
          SELECT ${tenantId}, ${decodeURIComponent(spreadsheetId)}, ${sheet}, value FROM json_each(${JSON.stringify(rows)}) ORDER BY key`,
    );
    return Response.json({ spreadsheetId, updates: { spreadsheetId, updatedRange: range, updatedRows: rows.length } });
  };
}

function token(form: FormData): Response {
  if (form.get("client_id") !== SANDBOX_OAUTH_CLIENT.id || form.get("client_secret") !== SANDBOX_OAUTH_CLIENT.secret) {
    return Response.json({ error: "invalid_client", error_description: "The OAuth client was not found." }, { status: 401 });
  }
  const refresh = form.get("refresh_token");
  if (form.get("grant_type") !== "refresh_token" || typeof refresh !== "string" || !refresh.startsWith("sandbox-refresh-")) {
    return Response.json({ error: "invalid_grant", error_description: "Token has been expired or revoked." }, { status: 400 });
  }
  const expires = Date.now() + ACCESS_SECONDS * 1000;
  return Response.json({ access_token: `sandbox-access.${expires}.${randomSecret(12)}`, expires_in: ACCESS_SECONDS, token_type: "Bearer", scope: "https://www.googleapis.com/auth/spreadsheets" });
}

/** An access token the sandbox's token endpoint handed out, still within its hour. */
function accessGood(authorization: string | null): boolean {
  const expires = /^Bearer sandbox-access\.(\d+)\.[A-Za-z0-9_-]+$/.exec(authorization ?? "")?.[1];
  return expires !== undefined && Number(expires) > Date.now();
}

/** A sandbox spreadsheet's sheets and their rows, in the order they were written. */
export async function sandboxSpreadsheetOf(d1: D1Database, tenantId: string, spreadsheetId: string): Promise<Record<string, unknown[][]>> {
  const rows = await drizzle(d1)
    .select({ sheet: sandboxSheetRows.sheet, cells: sandboxSheetRows.cells })
    .from(sandboxSheetRows)
    .where(and(eq(sandboxSheetRows.tenantId, tenantId), eq(sandboxSheetRows.spreadsheetId, spreadsheetId)))
    .orderBy(asc(sandboxSheetRows.sheet), asc(sandboxSheetRows.id));
  const sheets: Record<string, unknown[][]> = {};
  for (const row of rows) (sheets[row.sheet] ??= []).push(JSON.parse(row.cells) as unknown[]);
  return sheets;
}
