/**
 * src/watcher/ (entry: this file): the sync request's job: the banks' pages into the ledger,
 * paced (pacing.ts), then the tail. May import the ledger (through its object, and the
 * feed's types), banks/ (the access tokens), the bank adapters, the index (the meter), the
 * tail, jobs/job.ts, env.ts and errors.ts. Imported only by the job queue's consumer
 * (.dependency-cruiser.cjs: runners-run-from-the-queue).
 */
/**
 * The sync watcher: the queue's job for a sync request (../jobs/consumer routes each
 * message). It pulls every page of every connected bank's feed and hands each to the
 * tenant's ledger, which applies it atomically with its cursor. Delivery is at-least-once,
 * so a run must be safe to repeat:
 * - a request that already ended is acknowledged without running again;
 * - a run that fails half-way keeps the pages it applied, and the retry resumes each
 *   connection from its last applied cursor; a page applied twice changes nothing.
 * One connection failing does not stop the others: their lines land, and the run names
 * each connection that failed. A bank that wants its customer to sign in again marks its
 * connection so (the owner is told in the thread) and is skipped until update mode repairs it.
 */
import { bankTokenKeys, BankTokenError, decryptBankToken, type KeyRing } from "../banks/bank-tokens";
import { settle } from "../errors";
import { ledgerOf, type Env } from "../env";
import { JOB_MAX_DELIVERIES, type SyncJob } from "../jobs/job";
import { NO_CHANGES, type FeedCounts } from "../ledger/feed/feed-pages";
import type { SyncPlanConnection } from "../ledger/feed/sync-requests";
import { bankFor } from "../providers/bank";
import { BankProviderError, ITEM_ERROR_CODES, LOGIN_REQUIRED_CODES, type BankProvider, type FeedPage } from "../providers/bank/types";
import { recordMeter } from "../index-db/meter";
import { FIRST_TRANSACTION_LINES, nextTransactionLines, yieldToRuntime } from "./pacing";
import { sendToTail, type TailClient } from "../tail/ask-tail";

const linesOf = (page: FeedPage) => page.added.length + page.modified.length + page.removed.length;

/** The watcher's actor on what it records of a connection. */
export const WATCHER_ACTOR = "service:sync-watcher";

/** A bank for a connection: tests put a fake or faulty bank in front of every connection, or one per connection. */
export type BankFor = BankProvider | ((connection: SyncPlanConnection) => BankProvider);

type Ledger = ReturnType<typeof ledgerOf>;

/**
 * Runs one request: every page of every live connection's feed, then the tail. Pages are
 * held until they make the lines one transaction should hold (or the feed ends), then
 * applied in one transaction, decided by the rules and the local model, while the bank
 * serves the next. Each transaction is sized by how long the last one held the object
 * (./pacing), and the runtime is given a moment between pages, so reads are answered all
 * through a sync. Throws when the queue should deliver it again.
 */
export async function runSyncRequest(env: Env, request: Pick<SyncJob, "tenant" | "requestId">, delivery: number, provider?: BankFor, tail?: TailClient | null): Promise<void> {
  const ledger = ledgerOf(env, request.tenant);
  const plan = settle(await ledger.planSyncRun(request.requestId));
  if (!plan) return;

  const startedAt = new Date().toISOString();
  const counts: FeedCounts = { ...NO_CHANGES };
  let pages = 0;
  let resolvedLocal = 0;
  const record = (status: "ok" | "failed", final: boolean, error: string | null) =>
    ledger.recordSyncRun({
      requestId: request.requestId,
      attempt: plan.attempt,
      startedAt,
      finishedAt: new Date().toISOString(),
      pages,
      ...counts,
      status,
      final,
      error,
    });
  const tally = (outcome: FeedCounts & { decidedByModel: number }) => {
    pages++;
    counts.added += outcome.added;
    counts.modified += outcome.modified;
    counts.removed += outcome.removed;
    counts.duplicates += outcome.duplicates;
    resolvedLocal += outcome.decidedByModel;
  };

  if (plan.connections.length === 0) {
    await record("failed", true, "no bank is connected any more");
    return;
  }
  // While the bank serves the first page: a model that would learn afresh in a page's
  // transaction, holding the object, learns in slices now (after a whole-book run-rules).
  // Only a head start: if it fails, the pages' transactions learn as they always could.
  ledger.prepareModel().catch((error: unknown) => console.error(`learning the model ahead of ${request.tenant}'s pages failed:`, error));

  let keys: KeyRing | null | undefined;
  const bankOf = async (connection: SyncPlanConnection): Promise<BankProvider> => {
    if (provider) return typeof provider === "function" ? provider(connection) : provider;
    let accessToken = "";
    if (connection.accessToken !== "") {
      try {
        keys ??= bankTokenKeys(env);
        accessToken = await decryptBankToken(keys, connection.accessToken, { tenant: request.tenant, itemId: connection.itemId ?? "" });
      } catch (error) {
        if (error instanceof BankTokenError) throw new BankProviderError(`the deployment cannot read this bank's access token: ${error.message}`, false);
        throw error;
      }
    }
    return bankFor(env, request.tenant, { provider: connection.provider, accessToken, itemId: connection.itemId });
  };

  const failures: { connection: SyncPlanConnection; error: unknown }[] = [];
  for (const connection of plan.connections) {
    if (connection.status === "login_required") {
      failures.push({ connection, error: new BankProviderError("the bank waits for its owner to sign in again (Settings, Banks)", false, "ITEM_LOGIN_REQUIRED") });
      continue;
    }
    try {
      await pullFeed(ledger, connection, await bankOf(connection), tally);
      if (connection.status === "error") await markConnection(ledger, connection, "connected", "synced again");
    } catch (error) {
      failures.push({ connection, error });
      if (!(error instanceof BankProviderError)) console.error("sync watcher fault:", error);
      else if (error.code !== undefined && LOGIN_REQUIRED_CODES.has(error.code)) await markConnection(ledger, connection, "login_required", error.message);
      // The bank's own refusal of this item (not of the deployment's credentials): its connection says so, and the owner is told once.
      else if (error.code !== undefined && ITEM_ERROR_CODES.has(error.code)) await markConnection(ledger, connection, "error", error.message);
    }
  }

  if (failures.length === 0) {
    await record("ok", true, null);
    await afterSync(env, request.tenant, resolvedLocal, tail);
    return;
  }
  const retryable = failures.filter((f) => !(f.error instanceof BankProviderError) || f.error.retryable);
  const final = delivery >= JOB_MAX_DELIVERIES || retryable.length === 0;
  const why = (error: unknown) => (error instanceof BankProviderError ? error.message : "the watcher failed unexpectedly");
  const named = plan.connections.length === 1 ? why(failures[0]!.error) : failures.map((f) => `${bankName(f.connection)}: ${why(f.error)}`).join("; ");
  await record("failed", final, named);
  if (!final) throw retryable[0]!.error;
  // What the other banks delivered is in the books: the tail need not wait for the next sync.
  if (pages > 0) await afterSync(env, request.tenant, resolvedLocal, tail);
}

function bankName(connection: SyncPlanConnection): string {
  return `${connection.institution ?? (connection.provider === "sandbox" ? "the sandbox bank" : "a bank")} (connection ${connection.connectionId})`;
}

async function markConnection(ledger: Ledger, connection: SyncPlanConnection, status: "connected" | "login_required" | "error", detail: string): Promise<void> {
  try {
    settle(await ledger.recordConnectionStatus(connection.connectionId, status, detail, WATCHER_ACTOR));
  } catch (error) {
    // The run's own record names the failure; the connection's status waits for the next run or webhook.
    console.error(`connection ${connection.connectionId}'s status could not be recorded:`, error);
  }
}

/** Every page of one connection's feed into the ledger, from its cursor. */
async function pullFeed(ledger: Ledger, connection: SyncPlanConnection, bank: BankProvider, tally: (outcome: FeedCounts & { decidedByModel: number }) => void): Promise<void> {
  let held: FeedPage[] = [];
  let transactionLines = FIRST_TRANSACTION_LINES;
  const applyHeld = async () => {
    const group = held;
    held = [];
    if (group.length === 0) return;
    let outcomes;
    try {
      // The clock moves across the call (it is I/O), so this is the object's time for the group.
      const started = Date.now();
      outcomes = settle(await ledger.applyFeedPages(connection.connectionId, group));
      transactionLines = nextTransactionLines(group.reduce((lines, p) => lines + linesOf(p), 0), Date.now() - started);
    } catch (error) {
      if (group.length === 1) throw error;
      // None of the group landed: page by page, so the pages before a bad one still do.
      for (const page of group) tally(settle(await ledger.applyFeedPage(connection.connectionId, page)));
      return;
    }
    outcomes.forEach(tally);
  };

  let next = bank.syncPage(connection.cursor);
  next.catch(() => undefined); // awaited below; a failure is not unhandled meanwhile
  for (;;) {
    let page: FeedPage;
    try {
      page = await next;
    } catch (error) {
      // What the bank served before it failed still lands.
      await applyHeld();
      throw error;
    }
    await yieldToRuntime();
    // A page for an earlier cursor (a response served twice) is applied as a replay and paging goes on from it.
    if (page.hasMore && page.nextCursor === page.cursorBefore) {
      await applyHeld();
      throw new BankProviderError("the bank said it has more but did not move its cursor", false);
    }
    // The next page needs only this page's cursor: ask for it while this one waits or is applied.
    if (page.hasMore) {
      next = bank.syncPage(page.nextCursor);
      next.catch(() => undefined); // awaited on the next pass of the loop; a failure is not unhandled meanwhile
    }
    held.push(page);
    if (!page.hasMore || held.reduce((lines, p) => lines + linesOf(p), 0) >= transactionLines) await applyHeld();
    if (!page.hasMore) break;
  }
}

/** The meter's count of lines the model resolved, then the tail. Neither can fail the sync. */
async function afterSync(env: Env, tenant: string, resolvedLocal: number, tail: TailClient | null | undefined): Promise<void> {
  const now = new Date();
  try {
    if (resolvedLocal > 0) await recordMeter(env.INDEX_DB, tenant, now, { linesResolvedLocal: resolvedLocal });
    await sendToTail(env, tenant, { now, client: tail });
  } catch (error) {
    console.error(`the tail did not run for ${tenant}; its lines wait for the next sync or the daily batch:`, error);
  }
}
