/**
 * Exceptions: side-A lines in books or pending, on the face, that nothing has given a
 * category. Adjudicating one decides it and mints the rule that would have, as one fact.
 */
import { and, asc, desc, inArray, isNull, sql } from "drizzle-orm";
import { faceFigures, findRow, onFace, rowColumns, toRow, type Row } from "./books";
import type { LedgerDb } from "./db";
import type { Face } from "./face";
import { categoryValue, judge } from "./judgements";
import { refuse, type Refusal } from "./refusal";
import { appendRevision, fromInput, matcherOf, type Rule, type RuleInput } from "./rules";
import { cRows } from "./schema";

export type ExceptionRow = Row & { a_id: number };

const EXCEPTION_STATES: Row["state"][] = ["in books", "pending"];

/** One page of the exceptions, newest first, and how many there are on the face. */
export interface ExceptionsPage {
  exceptions: ExceptionRow[];
  total: number;
}

export function listExceptions(db: LedgerDb, face: Face, page: number, perPage: number): ExceptionsPage {
  const exceptions = db
    .select(rowColumns)
    .from(cRows)
    // `+side` keeps SQLite off the key for a one-letter column: the queue's index (category, then the list order) is the narrow path.
    .where(and(onFace(face), sql`+${cRows.side} = 'A'`, inArray(cRows.state, EXCEPTION_STATES), isNull(cRows.category)))
    .orderBy(desc(cRows.postedOn), asc(cRows.side), desc(cRows.srcId))
    .limit(perPage)
    .offset((page - 1) * perPage)
    .all()
    .map((r) => ({ a_id: r.srcId, ...toRow(r) }));
  // Side B is always archived, so the queue's figures in these states are side A's: counted, not scanned.
  const total = faceFigures(db, face)
    .filter((f) => f.category === null && EXCEPTION_STATES.includes(f.state))
    .reduce((n, f) => n + f.lines, 0);
  return { exceptions, total };
}

export type AdjudicateOutcome = { op_seq: number; rule: Rule } | Refusal | undefined;

/**
 * Resolves one exception: the human judgement and the rule revision it mints
 * (`born_from_a_id` = the line). The line must be an exception, and the rule must match
 * the line it is born from. Undefined when the face holds no such line.
 */
export function adjudicate(db: LedgerDb, face: Face, aId: number, input: RuleInput, actor: string, at: string): AdjudicateOutcome {
  return db.transaction((tx) => {
    const row = findRow(tx, face, "A", aId);
    if (!row) return undefined;
    if (row.state !== "in books" && row.state !== "pending") {
      return refuse(`A:${aId} is no exception: it is ${row.state}, not in the books`);
    }
    if (row.category !== "uncategorised") return refuse(`A:${aId} is no exception: it already has category "${row.category}"`);
    const rule = fromInput(input, aId);
    if (!matcherOf(rule)({ aId, description: row.description, amountCents: row.amount_cents })) {
      return refuse(`rule "${input.rule_key}" does not match A:${aId}, the line it would be born from`);
    }
    const opSeq = judge(tx, aId, categoryValue(input.category), actor, "adjudicate", at);
    return { op_seq: opSeq, rule: appendRevision(tx, rule, actor, at) };
  });
}
