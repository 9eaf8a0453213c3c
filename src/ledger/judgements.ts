/**
 * Human judgements about a line's category. A judgement is a decision fact; the
 * latest decision is the line's category. When the bank replaces a line (a pending
 * line posts, or a modification arrives) the human judgement follows it.
 */
import { desc, eq } from "drizzle-orm";
import type { LedgerDb, LedgerHandle, LedgerTx } from "./db";
import { aLines, decisions, lineEvents } from "./schema";


/** `uncategorised` and `uncategorized` both mean the queue: no category. */
export const QUEUE_LABELS = ["uncategorised", "uncategorized"] as const;

export function isQueueLabel(category: string): boolean {
  return (QUEUE_LABELS as readonly string[]).includes(category.trim().toLowerCase());
}

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
      carriedFromAId: fromAId,
      decidedAt: judgement.decidedAt,
      recordedAt: at,
    })
    .run();
}

/**
 * Records a human judgement on a side-A line; a judgement made on a superseded line
 * follows the line to its current successor. Returns the op sequence number.
 */
export function recordHumanJudgement(db: LedgerDb, aId: number, category: string, actor: string, at: string): number | null {
  return db.transaction((tx) => {
    if (!tx.select({ id: aLines.id }).from(aLines).where(eq(aLines.id, aId)).get()) return null;
    const value = isQueueLabel(category) ? null : category.trim();
    let seq = tx
      .insert(decisions)
      .values({ aId, category: value, engine: "human", actor, decidedAt: at, recordedAt: at })
      .returning({ seq: decisions.seq })
      .get().seq;
    for (let from = aId, next = successorOf(tx, aId); next !== null; from = next, next = successorOf(tx, next)) {
      seq = tx
        .insert(decisions)
        .values({ aId: next, category: value, engine: "human", actor, carriedFromAId: from, decidedAt: at, recordedAt: at })
        .returning({ seq: decisions.seq })
        .get().seq;
    }
    return seq;
  });
}

function successorOf(tx: LedgerHandle, aId: number): number | null {
  const event = tx.select({ by: lineEvents.byAId, kind: lineEvents.kind }).from(lineEvents).where(eq(lineEvents.aId, aId)).all();
  return event.find((e) => e.kind === "superseded")?.by ?? null;
}
