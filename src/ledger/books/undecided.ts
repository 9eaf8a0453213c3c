/**
 * The lines nobody has decided: side-A lines in books or pending (no line event: neither
 * superseded nor retracted) with no decision fact at all. The rules, the local model and
 * the tail decide only these, so a human judgement (even one that put a line back in the
 * queue) is never overridden.
 *
 * Raw SQL: it runs at every feed page, where drizzle's query building and row mapping
 * cost more than the query itself.
 */
import { sql } from "drizzle-orm";
import type { LedgerHandle } from "../store/db";
import { EXCEPTION_STATES, EXCEPTIONS_QUEUE } from "../store/schema";
import type { LineFacts } from "../model/features";

export interface UndecidedLine extends LineFacts {
  aId: number;
}

export interface UndecidedScope {
  /** Only lines appended after this one (a feed page's new lines). */
  newerThan?: number;
  /** Only lines up to this one (with `newerThan`, a range of lines: a run-rules read in slices). */
  upTo?: number;
  /** Only lines posted on or after this date (the face's floor). */
  postedFrom?: string | null;
  /** Only lines the tail has never been asked about. */
  unaskedByTail?: boolean;
  /** Only these lines (those of a run-rules slice, asked again after another call wrote). */
  among?: number[];
  /** At most this many, the oldest first. */
  limit?: number;
  /**
   * Only lines whose description satisfies this query on the trigram index (`c_words`, an
   * FTS5 query such as `wordsQueryOf` writes): a rule's candidates, for it to check.
   */
  words?: string | null;
}

/**
 * The undecided lines in line order. Every undecided line is in the queue (relation C's
 * side-A rows with no category), so when the queue is a small part of the live lines its
 * index names the candidates (a run over a tenant whose rules decide nearly everything
 * reads a few hundred entries, not 100,000 lines); otherwise reading the lines in order is
 * cheaper. Either way each candidate passes the definition's own checks.
 */
export function undecidedLines(db: LedgerHandle, scope: UndecidedScope = {}): UndecidedLine[] {
  const candidates =
    scope.newerThan === undefined && !scope.words && !scope.among && queueIsSmall(db)
      ? sql`FROM c_rows c INDEXED BY c_rows_queue CROSS JOIN a_lines a ON a.id = c.src_id
          WHERE c.category IS NULL AND c.side = 'A' ${scope.postedFrom ? sql`AND c.posted_on >= ${scope.postedFrom}` : sql``}`
      : sql`FROM a_lines a
          WHERE a.id > ${scope.newerThan ?? 0} ${scope.upTo === undefined ? sql`` : sql`AND a.id <= ${scope.upTo}`}
            ${scope.postedFrom ? sql`AND a.posted_on >= ${scope.postedFrom}` : sql``}
          ${scope.words ? sql`AND a.id IN (SELECT rowid >> 1 FROM c_words WHERE c_words MATCH ${scope.words} AND rowid & 1 = 0)` : sql``}
          ${scope.among ? sql`AND a.id IN (SELECT value FROM json_each(${JSON.stringify(scope.among)}))` : sql``}`;
  return db.all<UndecidedLine>(sql`
    SELECT a.id AS aId, a.description AS description, a.merchant_name AS merchantName, a.amount_cents AS amountCents, a.account_id AS accountId
    ${candidates}
      AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.a_id = a.id)
      AND NOT EXISTS (SELECT 1 FROM line_events e WHERE e.a_id = a.id)
      ${scope.unaskedByTail ? sql`AND NOT EXISTS (SELECT 1 FROM tail_asks t WHERE t.a_id = a.id)` : sql``}
    ORDER BY a.id
    ${scope.limit === undefined ? sql`` : sql`LIMIT ${scope.limit}`}`);
}

/** Whether fewer than half of the live lines (in books or pending) are queued, by the running figures. */
export function queueIsSmall(db: LedgerHandle): boolean {
  const { queued, live } = db.get<{ queued: number; live: number }>(sql`
    SELECT coalesce(sum(lines) FILTER (WHERE queued = 1), 0) AS queued, coalesce(sum(lines), 0) AS live
    FROM c_totals WHERE state IN ('in books', 'pending')`);
  return queued * 2 < live;
}

/**
 * An undecided line as run-rules reads it from its row of relation C: its text and amount,
 * and what the row's figures are keyed by (so a slice's decisions keep the figures
 * themselves, `appendDecisionsOfRows`).
 */
export interface UndecidedRow {
  aId: number;
  description: string;
  amountCents: number;
  accountId: string;
  state: (typeof EXCEPTION_STATES)[number];
  postedOn: string;
  /** As the row keeps it: null where the bank named none. */
  currency: string | null;
}

/**
 * A side-A row of relation C whose line nobody decided, by the kept row alone: its state
 * (in books or pending) says no line event, and its engine, null until the line's first
 * decision (every decision names one), says no decision fact. The same lines as
 * `undecidedLines`, tested without a lookup in the decisions or the events.
 */
export const UNDECIDED_ROW = sql.raw(`side = 'A' AND (state = 'in books' OR state = 'pending') AND engine IS NULL`);

/**
 * The undecided lines in line order, read from relation C's rows (a range of its key, or
 * the queue's index when the queue is a small part of the books), not from the lines with
 * their provider records: what `run_rules` reads of a whole book.
 */
export function undecidedRows(db: LedgerHandle, scope: Pick<UndecidedScope, "newerThan" | "upTo" | "postedFrom" | "among"> = {}): UndecidedRow[] {
  const ranged = scope.newerThan !== undefined || scope.upTo !== undefined || scope.among !== undefined;
  const rows = db.values<[number, string, number, string, UndecidedRow["state"], string, string | null]>(sql`
    SELECT src_id, description, amount_cents, account_id, state, posted_on, currency FROM c_rows
    WHERE ${UNDECIDED_ROW}
      ${scope.newerThan === undefined ? sql`` : sql`AND src_id > ${scope.newerThan}`}
      ${scope.upTo === undefined ? sql`` : sql`AND src_id <= ${scope.upTo}`}
      ${scope.among === undefined ? sql`` : sql`AND src_id IN (SELECT value FROM json_each(${JSON.stringify(scope.among)}))`}
      ${!ranged && queueIsSmall(db) ? sql`AND ${sql.raw(EXCEPTIONS_QUEUE)}` : sql``}
      ${scope.postedFrom ? sql`AND posted_on >= ${scope.postedFrom}` : sql``}
    ORDER BY src_id`);
  return rows.map(([aId, description, amountCents, accountId, state, postedOn, currency]) => ({ aId, description, amountCents, accountId, state, postedOn, currency }));
}
