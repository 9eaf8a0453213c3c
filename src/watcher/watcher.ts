/**
 * The sync watcher: the queue's job for a sync request (../queue-consumer routes each
 * message). It pulls every page of the tenant's feed and hands each to the tenant's
 * ledger, which applies it atomically with its cursor. Delivery is at-least-once, so a run must be safe to repeat:
 * - a request that already ended is acknowledged without running again;
 * - a run that fails half-way keeps the pages it applied, and the retry resumes from
 *   the last applied cursor; a page applied twice changes nothing.
 */
import { settle } from "../errors";
import { ledgerOf, type Env } from "../env";
import { JOB_MAX_DELIVERIES, type SyncJob } from "../jobs/job";
import { NO_CHANGES, type FeedCounts } from "../ledger/feed/feed-pages";
import { bankFor } from "../providers/bank";
import { BankProviderError, type BankProvider, type FeedPage } from "../providers/bank/types";
import { recordMeter } from "../index-db/meter";
import { FIRST_TRANSACTION_LINES, nextTransactionLines, yieldToRuntime } from "./pacing";
import { sendToTail, type TailClient } from "../tail/ask-tail";

const linesOf = (page: FeedPage) => page.added.length + page.modified.length + page.removed.length;

/**
 * Runs one request: every page of the feed, then the tail. Pages are held until they make
 * the lines one transaction should hold (or the feed ends), then applied in one
 * transaction, decided by the rules and the local model, while the bank serves the next.
 * Each transaction is sized by how long the last one held the object (./pacing), and the
 * runtime is given a moment between pages, so reads are answered all through a sync.
 * Throws when the queue should deliver it again.
 * `provider` and `tail` let tests put a faulty bank or a fake model in front.
 */
export async function runSyncRequest(
  env: Env,
  request: Pick<SyncJob, "tenant" | "requestId">,
  delivery: number,
  provider?: BankProvider,
  tail?: TailClient | null,
): Promise<void> {
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
      outcomes = settle(await ledger.applyFeedPages(plan.connectionId, group));
      transactionLines = nextTransactionLines(group.reduce((lines, p) => lines + linesOf(p), 0), Date.now() - started);
    } catch (error) {
      if (group.length === 1) throw error;
      // None of the group landed: page by page, so the pages before a bad one still do.
      for (const page of group) tally(settle(await ledger.applyFeedPage(plan.connectionId, page)));
      return;
    }
    outcomes.forEach(tally);
  };

  try {
    const bank = provider ?? bankFor(env, request.tenant, plan);
    let next = bank.syncPage(plan.cursor);
    next.catch(() => undefined); // awaited below; a failure is not unhandled meanwhile
    // While the bank serves the first page: a model that would learn afresh in a page's
    // transaction, holding the object, learns in slices now (after a whole-book run-rules).
    // Only a head start: if it fails, the pages' transactions learn as they always could.
    ledger.prepareModel().catch((error: unknown) => console.error(`learning the model ahead of ${request.tenant}'s pages failed:`, error));
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
  } catch (error) {
    const final = delivery >= JOB_MAX_DELIVERIES || (error instanceof BankProviderError && !error.retryable);
    const why = error instanceof BankProviderError ? error.message : "the watcher failed unexpectedly";
    if (!(error instanceof BankProviderError)) console.error("sync watcher fault:", error);
    await record("failed", final, why);
    if (!final) throw error;
    return;
  }
  await record("ok", true, null);
  await afterSync(env, request.tenant, resolvedLocal, tail);
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
