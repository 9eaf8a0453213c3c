/**
 * The aggregator adapter: the common `/transactions/sync` endpoint over fetch.
 * Request: client credentials, the connection's access token, the cursor and a page size.
 * Answer: added / modified / removed, next_cursor, has_more and the accounts.
 */
import { z } from "@hono/zod-openapi";
import { endpoint, safeJson } from "../http";
import {
  BankProviderError,
  providerAccountSchema,
  providerTransactionSchema,
  removedTransactionSchema,
  type BankProvider,
  type FeedPage,
} from "./types";

export interface AggregatorConfig {
  baseUrl: string;
  clientId: string;
  secret: string;
  accessToken: string;
  pageSize?: number;
  /** Injected so the adapter can be tested against a fake server. */
  fetch?: typeof fetch;
}

const syncAnswerSchema = z.object({
  added: z.array(providerTransactionSchema),
  modified: z.array(providerTransactionSchema),
  removed: z.array(removedTransactionSchema),
  accounts: z.array(providerAccountSchema).default([]),
  next_cursor: z.string(),
  has_more: z.boolean(),
});

/**
 * Refusals that a later attempt can get past. The feed changed while it was being paged:
 * the pages already applied stay applied (each is idempotent), and the retry pages on
 * from the last applied cursor, where the changes arrive as `modified` and `removed`.
 */
const RETRYABLE_CODES = new Set(["TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION"]);

const errorAnswerSchema = z.object({ error_code: z.string(), error_message: z.string().optional() }).passthrough();

export class AggregatorBank implements BankProvider {
  constructor(private readonly config: AggregatorConfig) {}

  async syncPage(cursor: string): Promise<FeedPage> {
    const doFetch = this.config.fetch ?? fetch;
    let response: Response;
    try {
      response = await doFetch(endpoint(this.config.baseUrl, "transactions/sync"), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_id: this.config.clientId,
          secret: this.config.secret,
          access_token: this.config.accessToken,
          cursor: cursor === "" ? undefined : cursor,
          count: this.config.pageSize ?? 500,
        }),
      });
    } catch (cause) {
      throw new BankProviderError(`the aggregator could not be reached: ${String(cause)}`, true);
    }
    const text = await response.text();
    if (!response.ok) {
      const parsed = errorAnswerSchema.safeParse(safeJson(text));
      const code = parsed.success ? parsed.data.error_code : undefined;
      const what = !parsed.success
        ? `HTTP ${response.status}`
        : parsed.data.error_message
          ? `${parsed.data.error_code}: ${parsed.data.error_message}`
          : parsed.data.error_code;
      const retryable = response.status === 429 || response.status >= 500 || (code !== undefined && RETRYABLE_CODES.has(code));
      throw new BankProviderError(`the aggregator refused the sync (${what})`, retryable, code);
    }
    const parsed = syncAnswerSchema.safeParse(safeJson(text));
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => i.path.join(".") || "(root)").join(", ");
      throw new BankProviderError(`the aggregator's answer is not a sync page (${fields})`, false);
    }
    const page = parsed.data;
    return {
      cursorBefore: cursor,
      nextCursor: page.next_cursor,
      hasMore: page.has_more,
      accounts: page.accounts,
      added: page.added,
      modified: page.modified,
      removed: page.removed,
    };
  }
}
