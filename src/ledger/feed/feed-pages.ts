/**
 * Provider pages -> sides A and B and line events (docs/decisions.md, "Bank feed and sync").
 *
 * - a new transaction id: a side-A line (`pending` or in books);
 * - a posted line naming a held pending line: the pending line is superseded;
 * - `modified`: a new side-A line that supersedes the current one;
 * - `removed`: the current line is retracted;
 * - a transaction id arriving again as `added`: a side-B twin (archived).
 * A superseded line's human judgement follows it to its successor.
 * A page is applied in one transaction, keyed by its cursor pair, so a replay is a no-op;
 * its new lines are decided (rules, then the local model) and the page closed in the
 * same transaction, which is when they enter relation C.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { wellFormed } from "../../input/control-characters";
import type { FeedPage, ProviderAccount, ProviderTransaction } from "../../providers/bank/types";
import type { LedgerDb, LedgerHandle, LedgerTx } from "../store/db";
import { carryJudgement } from "../books/judgements";
import { aLines, bLines, feedAccounts, feedPageCloses, feedPages, lineEvents } from "../store/schema";

export interface FeedCounts {
  added: number;
  modified: number;
  removed: number;
  duplicates: number;
}

export interface PageOutcome extends FeedCounts {
  /** True when this exact page had already been applied: nothing changed. */
  replayed: boolean;
}


export const NO_CHANGES: FeedCounts = { added: 0, modified: 0, removed: 0, duplicates: 0 };

/** The cursor to ask the provider with next: the end of the last applied page. */
export function currentCursor(db: LedgerHandle, connectionId: number): string {
  const last = db
    .select({ cursor: feedPages.cursorAfter })
    .from(feedPages)
    .where(eq(feedPages.connectionId, connectionId))
    .orderBy(desc(feedPages.id))
    .limit(1)
    .get();
  return last?.cursor ?? "";
}

/**
 * Decides a page's new lines (those after `newerThan`) inside the page's transaction,
 * before they enter relation C: the rules, then the local model.
 */
export type DecidePage = (tx: LedgerTx, newerThan: number) => void;

export function applyFeedPage(db: LedgerDb, connectionId: number, page: FeedPage, at: string, decide?: DecidePage): PageOutcome {
  const hasChanges = page.added.length + page.modified.length + page.removed.length + page.accounts.length > 0;
  if (!hasChanges && page.nextCursor === page.cursorBefore) return { ...NO_CHANGES, replayed: false };

  return db.transaction((tx) => {
    const seen = tx
      .select({ id: feedPages.id })
      .from(feedPages)
      .where(
        and(
          eq(feedPages.connectionId, connectionId),
          eq(feedPages.cursorBefore, page.cursorBefore),
          eq(feedPages.cursorAfter, page.nextCursor),
        ),
      )
      .get();
    if (seen) return { ...NO_CHANGES, replayed: true };

    const newerThan = newestLineId(tx);
    const pageId = tx
      .insert(feedPages)
      .values({ connectionId, cursorBefore: page.cursorBefore, cursorAfter: page.nextCursor, appliedAt: at })
      .returning({ id: feedPages.id })
      .get().id;

    const counts = { ...NO_CHANGES };
    for (const account of page.accounts) recordAccount(tx, account, at);
    // Most of a page is new transactions that name no other line: those are appended in
    // runs, a statement per run. Anything else (a duplicate, a posting) first flushes the
    // run, then is applied alone, so the order of the page is the order of the ledger.
    const known = knownTransactions(tx, page.added.map((t) => t.transaction_id));
    let run: ProviderTransaction[] = [];
    const flush = () => {
      appendNewLines(tx, run, pageId, at);
      run = [];
    };
    for (const txn of page.added) {
      const posting = txn.pending !== true && Boolean(txn.pending_transaction_id);
      if (!known.has(txn.transaction_id) && !posting) {
        run.push(txn);
        known.add(txn.transaction_id);
        counts.added++;
        continue;
      }
      flush();
      if (currentLine(tx, txn.transaction_id)) {
        archiveDuplicate(tx, txn, pageId, at);
        counts.duplicates++;
      } else {
        addLine(tx, txn, "added", pageId, at);
        known.add(txn.transaction_id);
        counts.added++;
      }
    }
    flush();
    for (const txn of page.modified) {
      const current = currentLine(tx, txn.transaction_id);
      // A transaction whose line already posted under another id is over: the change is stale.
      if (current && isSuperseded(tx, current.id)) continue;
      const id = addLine(tx, txn, current ? "modified" : "added", pageId, at);
      if (current) {
        supersede(tx, current.id, id, pageId, at);
        counts.modified++;
      } else {
        counts.added++;
      }
    }
    for (const { transaction_id } of page.removed) {
      if (retract(tx, transaction_id, pageId, at)) counts.removed++;
    }
    decide?.(tx, newerThan);
    // Closing the page puts its new lines, as decided, into relation C (migration 0015).
    tx.insert(feedPageCloses).values({ pageId }).run();
    return { ...counts, replayed: false };
  });
}

/** The id of the newest side-A line (0 for none): lines appended later (a page's new lines) come after it. */
export function newestLineId(db: LedgerHandle): number {
  return db.get<{ id: number }>(sql`SELECT coalesce(max(id), 0) AS id FROM a_lines`).id;
}

/** The newest side-A line for a provider transaction id: the one a change applies to. */
function currentLine(tx: LedgerTx, transactionId: string) {
  return tx
    .select({ id: aLines.id, pending: aLines.pending })
    .from(aLines)
    .where(eq(aLines.transactionId, transactionId))
    .orderBy(desc(aLines.id))
    .limit(1)
    .get();
}

/** The transaction ids among `ids` that already have a side-A line. */
function knownTransactions(tx: LedgerTx, ids: string[]): Set<string> {
  if (ids.length === 0) return new Set();
  const rows = tx.all<{ id: string }>(
    sql`SELECT DISTINCT ${aLines.transactionId} AS id FROM ${aLines} WHERE ${aLines.transactionId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  );
  return new Set(rows.map((r) => r.id));
}

/** Appends new side-A lines in order, a statement per 500 (their values as one JSON parameter). */
function appendNewLines(tx: LedgerTx, txns: ProviderTransaction[], pageId: number, at: string): void {
  for (let from = 0; from < txns.length; from += 500) {
    const values = txns.slice(from, from + 500).map((txn) => ({ ...lineFields(txn), pending: txn.pending === true ? 1 : 0 }));
    tx.run(sql`
      INSERT INTO a_lines (transaction_id, account_id, posted_on, authorized_on, description, merchant_name, amount_cents, pending,
        pending_transaction_id, arrival, raw, page_id, arrived_at)
      SELECT value ->> 'transactionId', value ->> 'accountId', value ->> 'postedOn', value ->> 'authorizedOn', value ->> 'description',
        value ->> 'merchantName', value ->> 'amountCents', value ->> 'pending', value ->> 'pendingTransactionId', 'added',
        value ->> 'raw', ${pageId}, ${at}
      FROM json_each(${JSON.stringify(values)}) ORDER BY key`);
  }
}

/** A provider transaction as the columns of its side-A line (all but how and when it arrived). */
function lineFields(txn: ProviderTransaction) {
  return {
    transactionId: txn.transaction_id,
    accountId: txn.account_id,
    postedOn: txn.date,
    authorizedOn: txn.authorized_date ?? null,
    description: wellFormed(txn.name),
    merchantName: txn.merchant_name == null ? null : wellFormed(txn.merchant_name),
    amountCents: booksCents(txn.amount),
    pendingTransactionId: txn.pending_transaction_id ?? null,
    raw: JSON.stringify(txn),
  };
}

function addLine(tx: LedgerTx, txn: ProviderTransaction, arrival: "added" | "modified", pageId: number, at: string): number {
  const pending = txn.pending === true;
  const id = tx
    .insert(aLines)
    .values({ ...lineFields(txn), pending, arrival, pageId, arrivedAt: at })
    .returning({ id: aLines.id })
    .get().id;

  // The bank posted a line we held as pending: the posted line takes its place.
  if (!pending && txn.pending_transaction_id) {
    const held = currentLine(tx, txn.pending_transaction_id);
    if (held?.pending && !isSuperseded(tx, held.id)) supersede(tx, held.id, id, pageId, at);
  }
  return id;
}

function archiveDuplicate(tx: LedgerTx, txn: ProviderTransaction, pageId: number, at: string): void {
  const twin = currentLine(tx, txn.transaction_id)!;
  tx.insert(bLines)
    .values({
      twinAId: twin.id,
      transactionId: txn.transaction_id,
      accountId: txn.account_id,
      postedOn: txn.date,
      description: wellFormed(txn.name),
      amountCents: booksCents(txn.amount),
      raw: JSON.stringify(txn),
      pageId,
      arrivedAt: at,
    })
    .run();
}

function supersede(tx: LedgerTx, aId: number, byAId: number, pageId: number, at: string): void {
  tx.insert(lineEvents).values({ aId, kind: "superseded", byAId, pageId, at }).run();
  carryJudgement(tx, aId, byAId, at);
}

/** Retracts the current line of a transaction; false when there is nothing left to retract. */
function retract(tx: LedgerTx, transactionId: string, pageId: number, at: string): boolean {
  const current = currentLine(tx, transactionId);
  if (!current || isSuperseded(tx, current.id) || hasEvent(tx, current.id, "retracted")) return false;
  tx.insert(lineEvents).values({ aId: current.id, kind: "retracted", pageId, at }).run();
  return true;
}

function isSuperseded(tx: LedgerTx, aId: number): boolean {
  return hasEvent(tx, aId, "superseded");
}

function hasEvent(tx: LedgerTx, aId: number, kind: "superseded" | "retracted"): boolean {
  return tx
    .select({ id: lineEvents.id })
    .from(lineEvents)
    .where(and(eq(lineEvents.aId, aId), eq(lineEvents.kind, kind)))
    .get() !== undefined;
}

/** Appends an account revision only when the record differs from the newest one. */
function recordAccount(tx: LedgerTx, account: ProviderAccount, at: string): void {
  const row = {
    accountId: account.account_id,
    name: wellFormed(account.name),
    mask: account.mask == null ? null : wellFormed(account.mask),
    type: account.type == null ? null : wellFormed(account.type),
    subtype: account.subtype == null ? null : wellFormed(account.subtype),
  };
  const latest = tx
    .select()
    .from(feedAccounts)
    .where(eq(feedAccounts.accountId, account.account_id))
    .orderBy(desc(feedAccounts.seq))
    .limit(1)
    .get();
  const same =
    latest && latest.name === row.name && latest.mask === row.mask && latest.type === row.type && latest.subtype === row.subtype;
  if (!same) tx.insert(feedAccounts).values({ ...row, arrivedAt: at }).run();
}

/** Aggregator sign (positive = money out) -> the business's side in cents (positive = money in). */
export function booksCents(amount: number): number {
  const cents = -Math.round(amount * 100);
  return cents === 0 ? 0 : cents;
}
