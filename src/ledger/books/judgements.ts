/**
 * Human judgements about a line's category. A judgement is a decision fact; the
 * latest decision is the line's category. When the bank replaces a line (a pending
 * line posts, or a modification arrives) the human judgement follows it.
 */
import { desc, eq } from "drizzle-orm";
import { findRow, type Row, type Side } from "./reads";
import type { LedgerDb, LedgerHandle, LedgerTx } from "../store/db";
import type { Face } from "../face";
import { isQueueLabel } from "./queue-label";
import { noSuchLine, ok, refused, type Outcome } from "../outcome";
import { aLines, bLines, decisions, labels, lineEvents } from "../store/schema";

export function latestDecision(db: LedgerHandle, aId: number) {
  return db.select().from(decisions).where(eq(decisions.aId, aId)).orderBy(desc(decisions.seq)).limit(1).get();
}

/** Copies a superseded line's human judgement onto its successor. */
export function carryJudgement(tx: LedgerTx, fromAId: number, toAId: number, at: string): void {
  const judgement = latestDecision(tx, fromAId);
  if (!judgement || judgement.engine !== "human" || judgement.category === null) return;
  tx.insert(decisions)
    .values({
      aId: toAId,
      category: judgement.category,
      engine: "human",
      actor: judgement.actor,
      op: judgement.op,
      carriedFromAId: fromAId,
      decidedAt: judgement.decidedAt,
      recordedAt: at,
    })
    .run();
}

export type HumanOp = "categorize" | "label" | "adjudicate";

/**
 * Appends a human judgement on a side-A line (null category = the queue). A judgement
 * made on a superseded line follows the line down to its current successor. Returns the
 * op sequence number of the judgement on the line itself.
 */
export function judge(tx: LedgerTx, aId: number, category: string | null, actor: string, op: HumanOp, at: string): number {
  const seq = tx
    .insert(decisions)
    .values({ aId, category, engine: "human", actor, op, decidedAt: at, recordedAt: at })
    .returning({ seq: decisions.seq })
    .get().seq;
  for (let from = aId, next = successorOf(tx, aId); next !== null; from = next, next = successorOf(tx, next)) {
    tx.insert(decisions)
      .values({ aId: next, category, engine: "human", actor, op, carriedFromAId: from, decidedAt: at, recordedAt: at })
      .run();
  }
  return seq;
}

/** The stored form of a category a human names: trimmed, or null for the queue. */
export function categoryValue(category: string): string | null {
  return isQueueLabel(category) ? null : category.trim();
}

/** Records a judgement as `categorize` would; null when the ledger holds no such A line. */
export function recordHumanJudgement(db: LedgerDb, aId: number, category: string, actor: string, at: string): number | null {
  return db.transaction((tx) => {
    if (!tx.select({ id: aLines.id }).from(aLines).where(eq(aLines.id, aId)).get()) return null;
    return judge(tx, aId, categoryValue(category), actor, "categorize", at);
  });
}

/** The ledger's words when a judgement names a side-B line. */
export function sideBRefusal(srcId: number, twinAId: number): Outcome<never> {
  return refused(`B:${srcId} is an archived twin (a duplicate arrival of A:${twinAId}); the ledger takes judgements on side-A lines only`);
}

/** The A line a judgement names on the caller's face; refused for side B. */
function judgedLine(db: LedgerHandle, face: Face, side: Side, srcId: number): Outcome<number> {
  const row = findRow(db, face, side, srcId);
  if (!row) return noSuchLine(side, srcId);
  if (side === "B") return sideBRefusal(srcId, db.select({ twin: bLines.twinAId }).from(bLines).where(eq(bLines.id, srcId)).get()!.twin);
  return ok(srcId);
}

/** A judgement's op and the line as it now reads. */
export interface Judged {
  op_seq: number;
  row: Row;
}

/** categorize: appends a judgement; `uncategorised`/`uncategorized` unsets. */
export function categorize(db: LedgerDb, face: Face, side: Side, srcId: number, category: string, actor: string, at: string): Outcome<Judged> {
  return db.transaction((tx) => {
    const line = judgedLine(tx, face, side, srcId);
    if (!line.ok) return line;
    const opSeq = judge(tx, line.value, categoryValue(category), actor, "categorize", at);
    return ok({ op_seq: opSeq, row: findRow(tx, face, side, srcId)! });
  });
}

/**
 * label: the training label and the set-category op, as one atomic fact. The old
 * category is the ledger's, never the caller's.
 */
export function label(
  db: LedgerDb,
  face: Face,
  side: Side,
  srcId: number,
  input: { category: string; reason?: string | null },
  actor: string,
  at: string,
): Outcome<Judged> {
  return db.transaction((tx) => {
    const line = judgedLine(tx, face, side, srcId);
    if (!line.ok) return line;
    const aId = line.value;
    const oldCategory = latestDecision(tx, aId)?.category ?? null;
    const category = categoryValue(input.category);
    const opSeq = judge(tx, aId, category, actor, "label", at);
    tx.insert(labels).values({ aId, category, oldCategory, reason: input.reason ?? null, actor, opSeq, createdAt: at }).run();
    return ok({ op_seq: opSeq, row: findRow(tx, face, side, srcId)! });
  });
}

function successorOf(tx: LedgerHandle, aId: number): number | null {
  const event = tx.select({ by: lineEvents.byAId, kind: lineEvents.kind }).from(lineEvents).where(eq(lineEvents.aId, aId)).all();
  return event.find((e) => e.kind === "superseded")?.by ?? null;
}
