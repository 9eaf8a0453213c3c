/**
 * Exceptions: side-A lines in books or pending, on the face, that nothing has given a
 * category. Adjudicating one decides it and mints the rule that would have, as one fact.
 */
import { asc, desc, sql } from "drizzle-orm";
import { faceFigures, findRow, rowColumns, toRow, type Row } from "./reads";
import type { LedgerDb, LedgerHandle } from "../store/db";
import type { Face } from "../face";
import { categoryValue, judge } from "./judgements";
import { noSuchLine, ok, refused, type Outcome } from "../outcome";
import { appendRevision } from "../rules/rulebook";
import { fromInput, type Rule, type RuleInput } from "../rules/rule";
import { matcherOf } from "../rules/matching";
import { cRows, EXCEPTION_STATES, EXCEPTIONS_QUEUE } from "../store/schema";

export type ExceptionRow = Row & { a_id: number };



/** One page of the exceptions, and how many there are on the face. */
export interface ExceptionsPage {
  exceptions: ExceptionRow[];
  total: number;
}

/**
 * The queue's two orders: `newest` (the API's list, newest posted first) and `oldest` (the
 * workspace's review, the longest-waiting first). Both read the queue's index, one of them
 * backwards.
 */
export type QueueOrder = "newest" | "oldest";

export function listExceptions(db: LedgerDb, face: Face, page: number, perPage: number, order: QueueOrder = "newest"): ExceptionsPage {
  const oldest = order === "oldest";
  const listOrder = oldest ? [asc(cRows.postedOn), desc(cRows.side), asc(cRows.srcId)] : [desc(cRows.postedOn), asc(cRows.side), desc(cRows.srcId)];
  // The page's keys from the queue's own index (exactly the queue, in list order), so a deep
  // page skips index entries; then the page's rows. (`+side`: a plain `side = 'A'` makes
  // SQLite sort the page again.)
  const pageKeys = sql`SELECT side, src_id FROM ${cRows} INDEXED BY c_rows_queue
    WHERE ${sql.raw(EXCEPTIONS_QUEUE)} AND +side = 'A' ${face.effectiveFrom === null ? sql`` : sql`AND posted_on >= ${face.effectiveFrom}`}
    ORDER BY ${oldest ? sql`posted_on, side DESC, src_id` : sql`posted_on DESC, side, src_id DESC`} LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`;
  const exceptions = db
    .select(rowColumns)
    .from(cRows)
    .where(sql`(${cRows.side}, ${cRows.srcId}) IN (${pageKeys})`)
    .orderBy(...listOrder)
    .all()
    .map((r) => ({ a_id: r.srcId, ...toRow(r) }));
  return { exceptions, total: queueSize(db, face) };
}

/** How many lines wait in the queue on the face. Side B is always archived, so the queue's figures in these states are side A's: counted, not scanned. */
export function queueSize(db: LedgerHandle, face: Face): number {
  return faceFigures(db, face)
    .filter((f) => f.category === null && (EXCEPTION_STATES as readonly string[]).includes(f.state))
    .reduce((n, f) => n + f.lines, 0);
}

/**
 * Resolves one exception: the human judgement and the rule revision it mints
 * (`born_from_a_id` = the line). The line must be an exception, and the rule must match
 * the line it is born from.
 */
export function adjudicate(db: LedgerDb, face: Face, aId: number, input: RuleInput, actor: string, at: string): Outcome<{ op_seq: number; rule: Rule; row: Row }> {
  return db.transaction((tx) => {
    const row = findRow(tx, face, "A", aId);
    if (!row) return noSuchLine("A", aId);
    if (row.state !== "in books" && row.state !== "pending") {
      return refused(`A:${aId} is no exception: it is ${row.state}, not in the books`);
    }
    if (row.category !== "uncategorised") return refused(`A:${aId} is no exception: it already has category "${row.category}"`);
    const rule = fromInput(input, aId);
    if (!matcherOf(rule)({ aId, description: row.description, amountCents: row.amount_cents })) {
      return refused(`rule "${input.rule_key}" does not match A:${aId}, the line it would be born from`);
    }
    const opSeq = judge(tx, aId, categoryValue(input.category), actor, "adjudicate", at);
    const minted = appendRevision(tx, rule, actor, at);
    return ok({ op_seq: opSeq, rule: minted, row: findRow(tx, face, "A", aId)! });
  });
}
