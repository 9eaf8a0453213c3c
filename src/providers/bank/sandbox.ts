/**
 * The sandbox bank: a local stand-in for the aggregator. Changes queued through
 * `POST /sandbox/tenants/{tenant}/bank` wait in D1 and are served by the same
 * incremental-sync contract as the aggregator; the cursor is the last change's seq.
 */
import { and, asc, eq, gt, lte } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { sandboxBankChanges } from "../../index-db/schema";
import type { BankProvider, FeedPage, ProviderAccount, ProviderTransaction } from "./types";

export interface SandboxChanges {
  accounts?: ProviderAccount[];
  added?: ProviderTransaction[];
  modified?: ProviderTransaction[];
  removed?: { transaction_id: string }[];
}

type IndexDb = DrizzleD1Database<Record<string, unknown>>;

/** Queues changes at the sandbox bank; returns how many were queued. */
export async function queueSandboxChanges(db: IndexDb, tenantId: string, changes: SandboxChanges, queuedAt: string): Promise<number> {
  const rows = [
    ...(changes.accounts ?? []).map((c) => ({ kind: "account" as const, payload: c })),
    ...(changes.added ?? []).map((c) => ({ kind: "added" as const, payload: c })),
    ...(changes.modified ?? []).map((c) => ({ kind: "modified" as const, payload: c })),
    ...(changes.removed ?? []).map((c) => ({ kind: "removed" as const, payload: c })),
  ].map((r) => ({ tenantId, kind: r.kind, payload: JSON.stringify(r.payload), queuedAt }));
  // D1 caps bound parameters per statement; 5 columns x 10 rows stays well inside it.
  const statements = chunk(rows, 10).map((part) => db.insert(sandboxBankChanges).values(part));
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
  return rows.length;
}

export class SandboxBank implements BankProvider {
  constructor(
    private readonly db: IndexDb,
    private readonly tenantId: string,
    private readonly pageSize: number,
  ) {}

  async syncPage(cursor: string): Promise<FeedPage> {
    const after = cursor === "" ? 0 : Number(cursor);
    const rows = await this.db
      .select({ seq: sandboxBankChanges.seq, kind: sandboxBankChanges.kind, payload: sandboxBankChanges.payload })
      .from(sandboxBankChanges)
      .where(and(eq(sandboxBankChanges.tenantId, this.tenantId), gt(sandboxBankChanges.seq, after)))
      .orderBy(asc(sandboxBankChanges.seq))
      .limit(this.pageSize + 1);
    const page = rows.slice(0, this.pageSize);
    const last = page.at(-1)?.seq ?? after;
    const of = (kind: string) => page.filter((r) => r.kind === kind).map((r) => JSON.parse(r.payload));
    return {
      cursorBefore: cursor,
      nextCursor: page.length === 0 ? cursor : String(last),
      hasMore: rows.length > this.pageSize,
      accounts: await this.accountsUpTo(last),
      added: of("added"),
      modified: of("modified"),
      removed: of("removed"),
    };
  }

  /** Like the aggregator, every page carries the accounts known so far. */
  private async accountsUpTo(seq: number): Promise<ProviderAccount[]> {
    const rows = await this.db
      .select({ payload: sandboxBankChanges.payload })
      .from(sandboxBankChanges)
      .where(and(eq(sandboxBankChanges.tenantId, this.tenantId), eq(sandboxBankChanges.kind, "account"), lte(sandboxBankChanges.seq, seq)))
      .orderBy(asc(sandboxBankChanges.seq));
    const latest = new Map<string, ProviderAccount>();
    for (const r of rows) {
      const account = JSON.parse(r.payload) as ProviderAccount;
      latest.set(account.account_id, account);
    }
    return [...latest.values()];
  }
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
