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
import type { LedgerHandle } from "./db";
import type { LineFacts } from "./model/features";

export interface UndecidedLine extends LineFacts {
  aId: number;
}

export interface UndecidedScope {
  /** Only lines appended after this one (a feed page's new lines). */
  newerThan?: number;
  /** Only lines posted on or after this date (the face's floor). */
  postedFrom?: string | null;
  /** Only lines the tail has never been asked about. */
  unaskedByTail?: boolean;
  /** At most this many, the oldest first. */
  limit?: number;
  /**
   * Only lines whose description satisfies this query on the trigram index (`c_words`, an
   * FTS5 query such as `wordsQueryOf` writes): a rule's candidates, for it to check.
   */
  words?: string | null;
}

/** The undecided lines in line order. */
export function undecidedLines(db: LedgerHandle, scope: UndecidedScope = {}): UndecidedLine[] {
  return db.all<UndecidedLine>(sql`
    SELECT a.id AS aId, a.description AS description, a.merchant_name AS merchantName, a.amount_cents AS amountCents, a.account_id AS accountId
    FROM a_lines a
    WHERE a.id > ${scope.newerThan ?? 0}
      ${scope.postedFrom ? sql`AND a.posted_on >= ${scope.postedFrom}` : sql``}
      AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.a_id = a.id)
      AND NOT EXISTS (SELECT 1 FROM line_events e WHERE e.a_id = a.id)
      ${scope.words ? sql`AND a.id IN (SELECT rowid >> 1 FROM c_words WHERE c_words MATCH ${scope.words} AND rowid & 1 = 0)` : sql``}
      ${scope.unaskedByTail ? sql`AND NOT EXISTS (SELECT 1 FROM tail_asks t WHERE t.a_id = a.id)` : sql``}
    ORDER BY a.id
    ${scope.limit === undefined ? sql`` : sql`LIMIT ${scope.limit}`}`);
}
