/**
 * The tenant's Durable Object: one per tenant, holding its SQLite ledger. It is a thin
 * RPC shell: each method opens nothing, decides nothing, and calls a domain module.
 */
import { DurableObject } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import migrations from "../../migrations/ledger/migrations.js";
import type { Env } from "../env";
import type { FeedPage } from "../providers/bank/types";
import * as books from "./books";
import type { LedgerDb } from "./db";
import type { Face } from "./face";
import { applyFeedPage } from "./feed";
import { recordHumanJudgement } from "./judgements";
import * as schema from "./schema";
import * as sync from "./sync";

export class TenantLedger extends DurableObject<Env> {
  readonly db: LedgerDb;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema });
    ctx.blockConcurrencyWhile(async () => {
      await migrate(this.db, migrations);
    });
  }

  // --- sign-up and the bank connection ---
  connectBank(provider: "sandbox" | "aggregator", accessToken: string): number {
    return sync.connectBank(this.db, provider, accessToken, new Date().toISOString());
  }

  // --- reads ---
  summary(face: Face) {
    return books.booksSummary(this.db, face);
  }
  listTransactions(face: Face, filter: books.RowFilter, page: number, perPage: number) {
    return books.listRows(this.db, face, filter, page, perPage);
  }
  transaction(face: Face, side: books.Side, srcId: number) {
    return books.transactionDetail(this.db, face, side, srcId) ?? null;
  }
  accounts(face: Face) {
    return books.listAccounts(this.db, face);
  }
  visibility(face: Face) {
    return books.visibility(this.db, face);
  }
  usage(face: Face, days: number) {
    return { connections: sync.countConnections(this.db), volume: books.volume(this.db, face, days) };
  }
  syncHistory(limit: number) {
    return sync.listSyncRuns(this.db, limit);
  }

  // --- judgements ---
  recordJudgement(aId: number, category: string, actor: string) {
    return recordHumanJudgement(this.db, aId, category, actor, new Date().toISOString());
  }

  // --- rules and exceptions ---

  // --- categories ---

  // --- explanations ---

  // --- sync: the request, then the watcher's steps ---
  async requestSync(tenant: string, actor: string): Promise<sync.SyncRequestOutcome> {
    const now = new Date();
    const outcome = sync.requestSync(this.db, actor, now);
    if (outcome.state !== "recorded") return outcome;
    try {
      await this.env.SYNC_QUEUE.send({ tenant, requestId: outcome.requestId });
    } catch (cause) {
      // The request can never be consumed: end it so the next sync-now is not refused.
      const at = new Date().toISOString();
      sync.recordSyncRun(this.db, {
        requestId: outcome.requestId,
        attempt: 0,
        startedAt: at,
        finishedAt: at,
        pages: 0,
        ...{ added: 0, modified: 0, removed: 0, duplicates: 0 },
        status: "failed",
        final: true,
        error: "the request could not be queued",
      });
      throw cause;
    }
    return outcome;
  }
  planSyncRun(requestId: number) {
    return sync.planSyncRun(this.db, requestId);
  }
  applyFeedPage(connectionId: number, page: FeedPage) {
    return applyFeedPage(this.db, connectionId, page, new Date().toISOString());
  }
  recordSyncRun(run: sync.SyncRunRecord) {
    return sync.recordSyncRun(this.db, run);
  }
}
