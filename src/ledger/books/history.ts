/**
 * A line's decisions, every one in the order they were made: the judgements (with a
 * label's reason), the rules' and the models' decisions, those carried over from a line it
 * superseded. A side-B row has none of its own: its twin's are its history.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Face } from "../face";
import { noSuchLine, ok, type Outcome } from "../outcome";
import type { LedgerHandle } from "../store/db";
import { bLines, decisions, labels } from "../store/schema";
import { confidenceOf, type Decision } from "./explanation";
import { findRow, type Side } from "./reads";

export interface DecisionEntry {
  op_seq: number;
  engine: Decision["engine"];
  /** Null: the line was put back in the queue. */
  category: string | null;
  actor: string | null;
  op: Decision["op"];
  rule_key: string | null;
  rule_revision: number | null;
  model_version: string | null;
  /** 0..1, for the local model's decisions. */
  confidence: number | null;
  carried_from_a_id: number | null;
  /** The reason a label gave, when it gave one. */
  reason: string | null;
  decided_at: string;
}

export interface LineHistory {
  /** The A line whose decisions these are (for side B, its twin). */
  a_id: number;
  decisions: DecisionEntry[];
}

export function lineHistory(db: LedgerHandle, face: Face, side: Side, srcId: number): Outcome<LineHistory> {
  if (!findRow(db, face, side, srcId)) return noSuchLine(side, srcId);
  const aId = side === "A" ? srcId : db.select({ twin: bLines.twinAId }).from(bLines).where(eq(bLines.id, srcId)).get()!.twin;
  const rows = db
    .select({ decision: decisions, reason: labels.reason })
    .from(decisions)
    .leftJoin(labels, and(eq(labels.aId, decisions.aId), eq(labels.opSeq, decisions.seq)))
    .where(eq(decisions.aId, aId))
    .orderBy(asc(decisions.seq))
    .all();
  return ok({
    a_id: aId,
    decisions: rows.map(({ decision: d, reason }) => ({
      op_seq: d.seq,
      engine: d.engine,
      category: d.category,
      actor: d.actor,
      op: d.op,
      rule_key: d.ruleKey,
      rule_revision: d.ruleRevision,
      model_version: d.modelVersion,
      confidence: confidenceOf(d.confidence),
      carried_from_a_id: d.carriedFromAId,
      reason,
      decided_at: d.decidedAt,
    })),
  });
}
