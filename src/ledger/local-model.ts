/**
 * The local model's place in the ledger: what it learns from, when it retrains, and the
 * decisions it makes. The classifier itself lives in ./model/.
 *
 * It learns from the tenant's own evidence: every current line whose latest decision is
 * a human's (categorize, label, adjudicate, carried) or a rule's. Its own decisions and
 * the tail's are never evidence. Everything it knows is derived from the ledger, so a
 * restarted object retrains from the same facts and nothing is lost.
 */
import { and, eq, inArray, isNotNull, notExists, sql } from "drizzle-orm";
import type { LedgerHandle, LedgerTx } from "./db";
import { DEFAULT_DUH_BAND_FLOOR, LocalModel, type Example } from "./model/classifier";
import { featuresOf, type LineFacts } from "./model/features";
import { undecidedLines } from "./rules";
import { aLines, decisions, lineEvents } from "./schema";

const EVIDENCE_ENGINES = ["human", "rule"] as const;

/** The deployment's duh band floor (DUH_BAND_FLOOR, 0..1), or the default when unset or invalid. */
export function duhBandFloor(configured: string | undefined): number {
  const floor = Number(configured);
  return configured && Number.isFinite(floor) && floor > 0 && floor <= 1 ? floor : DEFAULT_DUH_BAND_FLOOR;
}

/** The model as trained, and the evidence it was trained on (to know when to retrain). */
export interface TrainedModel {
  evidence: string;
  model: LocalModel;
}

/** Changes whenever the evidence can have changed: a new human or rule decision. */
export function evidenceMark(db: LedgerHandle): string {
  const mark = db
    .select({ count: sql<number>`count(*)`, last: sql<number>`coalesce(max(${decisions.seq}), 0)` })
    .from(decisions)
    .where(inArray(decisions.engine, [...EVIDENCE_ENGINES]))
    .get()!;
  return `${mark.count}:${mark.last}`;
}

/** Current lines whose latest decision is evidence, as training examples. */
export function trainingExamples(db: LedgerHandle): Example[] {
  const latestSeq = sql`(select max(d2.seq) from ${decisions} d2 where d2.a_id = ${aLines.id})`;
  return db
    .select({
      description: aLines.description,
      merchantName: aLines.merchantName,
      amountCents: aLines.amountCents,
      accountId: aLines.accountId,
      category: decisions.category,
    })
    .from(aLines)
    .innerJoin(decisions, eq(decisions.seq, latestSeq))
    .where(
      and(
        inArray(decisions.engine, [...EVIDENCE_ENGINES]),
        isNotNull(decisions.category),
        notExists(db.select({ id: lineEvents.id }).from(lineEvents).where(and(eq(lineEvents.aId, aLines.id), eq(lineEvents.kind, "superseded")))),
      ),
    )
    .all()
    .map((r) => ({ features: featuresOf(r), category: r.category! }));
}

/** The model for the ledger as it stands: the one given if the evidence is unchanged, else retrained. */
export function currentModel(db: LedgerHandle, trained: TrainedModel | undefined): TrainedModel {
  const evidence = evidenceMark(db);
  if (trained && trained.evidence === evidence) return trained;
  return { evidence, model: LocalModel.train(trainingExamples(db)) };
}

/** The facts the model reads for each line nobody has decided. */
export function undecidedFacts(db: LedgerHandle): (LineFacts & { aId: number })[] {
  const ids = undecidedLines(db, null).map((l) => l.aId);
  if (ids.length === 0) return [];
  return db
    .select({
      aId: aLines.id,
      description: aLines.description,
      merchantName: aLines.merchantName,
      amountCents: aLines.amountCents,
      accountId: aLines.accountId,
    })
    .from(aLines)
    .where(inArray(aLines.id, ids))
    .all();
}

/**
 * Decides the undecided lines the model is sure of: confidence at or above the duh
 * band's floor. Below it a line is left for the tail. Returns how many it decided.
 */
export function decideByModel(tx: LedgerTx, model: LocalModel, floor: number, at: string): number {
  if (model.size === 0) return 0;
  let decided = 0;
  for (const line of undecidedFacts(tx)) {
    const prediction = model.predict(featuresOf(line));
    if (!prediction || prediction.confidence < floor) continue;
    tx.insert(decisions)
      .values({
        aId: line.aId,
        category: prediction.category,
        engine: "model",
        modelVersion: model.version,
        confidence: Math.round(prediction.confidence * 1_000_000),
        bandFloorPpm: Math.round(floor * 1_000_000),
        decidedAt: at,
        recordedAt: at,
      })
      .run();
    decided++;
  }
  return decided;
}
