/**
 * The sandbox bank: a local stand-in for the aggregator. Changes queued through
 * `POST /sandbox/tenants/{tenant}/bank` wait in D1 and are served by the same
 * incremental-sync contract as the aggregator; the cursor is the last change's seq.
 */
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { sandboxBankChanges } from "../../index-db/schema";
import { BankProviderError, type BankProvider, type FeedPage, type ProviderAccount, type ProviderTransaction } from "./types";

export interface SandboxChanges {
  accounts?: ProviderAccount[];
  added?: ProviderTransaction[];
  modified?: ProviderTransaction[];
  removed?: { transaction_id: string }[];
}

type IndexDb = DrizzleD1Database<Record<string, unknown>>;

/** Queues changes at the sandbox bank (`feed`: "" for the sign-up's sandbox bank, or a linked sandbox item's id); returns how many were queued. */
export async function queueSandboxChanges(db: IndexDb, tenantId: string, changes: SandboxChanges, queuedAt: string, feed = ""): Promise<number> {
  const rows = [
    ...(changes.accounts ?? []).map((c) => ({ kind: "account" as const, payload: c })),
    ...(changes.added ?? []).map((c) => ({ kind: "added" as const, payload: c })),
    ...(changes.modified ?? []).map((c) => ({ kind: "modified" as const, payload: c })),
    ...(changes.removed ?? []).map((c) => ({ kind: "removed" as const, payload: c })),
  ].map((r) => ({ tenantId, feed, kind: r.kind, payload: JSON.stringify(r.payload), queuedAt }));
  // D1 caps bound parameters per statement; 6 columns x 10 rows stays well inside it.
  const statements = chunk(rows, 10).map((part) => db.insert(sandboxBankChanges).values(part));
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
  return rows.length;
}

export class SandboxBank implements BankProvider {
  constructor(
    private readonly d1: D1Database,
    private readonly tenantId: string,
    private readonly pageSize: number,
    /** A bank linked through the sandbox's link page: its item and its access token, checked as the aggregator checks them. */
    private readonly item: { itemId: string; accessToken: string } | null = null,
  ) {}

  /** The refusals the aggregator would give this item: a token it does not know, a login its bank wants again. */
  private async checkItem(): Promise<void> {
    if (!this.item) return;
    const item = await this.d1
      .prepare("SELECT access_token, login_required, removed_at FROM sandbox_items WHERE item_id = ?1 AND tenant_id = ?2")
      .bind(this.item.itemId, this.tenantId)
      .first<{ access_token: string | null; login_required: number; removed_at: string | null }>();
    if (!item || item.access_token !== this.item.accessToken || item.removed_at !== null) {
      throw new BankProviderError("the aggregator refused the sync (INVALID_ACCESS_TOKEN: provided access token is in an invalid format)", false, "INVALID_ACCESS_TOKEN");
    }
    if (item.login_required === 1) {
      throw new BankProviderError(
        "the aggregator refused the sync (ITEM_LOGIN_REQUIRED: the login details of this item have changed (credentials, MFA, or required user action) and a user login is required to update this information)",
        false,
        "ITEM_LOGIN_REQUIRED",
      );
    }
  }

  /**
   * One page in one round trip of three statements: its changes concatenated per kind (a
   * row a kind rather than a row a change, which costs the local D1 a third less per page;
   * locally the bank shares the service's one thread), whether more follow, and the
   * accounts known by the page's end.
   */
  async syncPage(cursor: string): Promise<FeedPage> {
    await this.checkItem();
    const after = cursor === "" ? 0 : Number(cursor);
    const d1 = this.d1;
    const feed = this.item?.itemId ?? "";
    const page = "SELECT seq, kind, payload FROM sandbox_bank_changes WHERE tenant_id = ?1 AND feed = ?4 AND seq > ?2 ORDER BY seq LIMIT ?3";
    const end = `coalesce((SELECT max(seq) FROM (${page})), ?2)`;
    const [kindRows, moreRows, accountRows] = await d1.batch([
      d1.prepare(`SELECT kind, '[' || group_concat(payload, ',' ORDER BY seq) || ']' AS payloads, max(seq) AS last FROM (${page}) GROUP BY kind`).bind(this.tenantId, after, this.pageSize, feed),
      d1.prepare(`SELECT EXISTS (SELECT 1 FROM sandbox_bank_changes WHERE tenant_id = ?1 AND feed = ?4 AND seq > ${end}) AS more`).bind(this.tenantId, after, this.pageSize, feed),
      d1.prepare(`SELECT payload FROM sandbox_bank_changes WHERE tenant_id = ?1 AND feed = ?4 AND kind = 'account' AND seq <= ${end} ORDER BY seq`).bind(this.tenantId, after, this.pageSize, feed),
    ]);
    const kinds = kindRows!.results as { kind: string; payloads: string; last: number }[];
    const more = (moreRows!.results as { more: number }[])[0];
    const accounts = accountRows!.results as { payload: string }[];
    const of = (kind: string) => JSON.parse(kinds.find((k) => k.kind === kind)?.payloads ?? "[]");
    const last = Math.max(after, ...kinds.map((k) => k.last));
    // Like the aggregator, every page carries the accounts known so far (the newest record of each).
    const latest = new Map<string, ProviderAccount>();
    for (const { payload } of accounts) {
      const account = JSON.parse(payload) as ProviderAccount;
      latest.set(account.account_id, account);
    }
    return {
      cursorBefore: cursor,
      nextCursor: kinds.length === 0 ? cursor : String(last),
      hasMore: more?.more === 1,
      accounts: [...latest.values()],
      added: of("added"),
      modified: of("modified"),
      removed: of("removed"),
    };
  }
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
