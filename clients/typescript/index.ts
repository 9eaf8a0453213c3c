/**
 * The typed client: openapi-fetch over the types generated from /openapi.json.
 *
 *   const ledger = ledgerClient("https://ledger.example", token);
 *   const { data, error } = await ledger.GET("/api/v1/transactions", { params: { query: { q: "stripe" } } });
 *
 * `error` is the problem document (application/problem+json) when the call failed.
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema";

export type { components, paths };
export type Problem = components["schemas"]["Problem"];
export type LedgerClient = Client<paths>;

export function ledgerClient(baseUrl: string, token: string, options: { fetch?: typeof fetch } = {}): LedgerClient {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` }, ...(options.fetch ? { fetch: options.fetch } : {}) });
}
