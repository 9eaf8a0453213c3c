/**
 * The local model's place in the ledger: what it learns from, when it retrains, and the
 * decisions it makes. The classifier itself lives in ./model/.
 *
 * It learns from the tenant's own evidence: every current line whose latest decision is
 * a human's (categorize, label, adjudicate, carried) or a rule's. Its own decisions and
 * the tail's are never evidence. Everything it knows is derived from the ledger, so a
 * restarted object retrains from the same facts and nothing is lost.
 */
import { and, eq, gt, inArray, isNotNull, notExists, sql } from "drizzle-orm";
import type { LedgerHandle, LedgerTx } from "./db";
import { DEFAULT_DUH_BAND_FLOOR, LocalModel, type Example } from "./model/classifier";
import { featuresOf, type LineFacts } from "./model/features";
import { appendMachineDecisions, type MachineDecision } from "./machine-decisions";
import { aLines, decisions, lineEvents } from "./schema";

const EVIDENCE_ENGINES = ["human", "rule"] as const;

/** The deployment's duh band floor (DUH_BAND_FLOOR, 0..1), or the default when unset or invalid. */
export function duhBandFloor(configured: string | undefined): number {
  const floor = Number(configured);
  return configured && Number.isFinite(floor) && floor > 0 && floor <= 1 ? floor : DEFAULT_DUH_BAND_FLOOR;
}

/** The model as trained, and what it was trained on (to learn only what is new). */
export interface TrainedModel {
  model: LocalModel;
  /** The newest evidence decision it has seen. */
  throughSeq: number;
  /** How many lines had been superseded then: a change means an example may be gone. */
  superseded: number;
  /** The lines it learnt from. */
  lines: Set<number>;
}

/** What the model reads of a line, as columns of side A. */
const lineFacts = {
  aId: aLines.id,
  description: aLines.description,
  merchantName: aLines.merchantName,
  amountCents: aLines.amountCents,
  accountId: aLines.accountId,
};

/**
 * Current lines whose latest decision is evidence, as training examples; with `sinceSeq`,
 * only lines with evidence newer than it. (Conditions, not id lists: SQLite in a Durable
 * Object binds at most 100 variables per statement.)
 */
export function trainingExamples(db: LedgerHandle, sinceSeq?: number): (Example & { aId: number })[] {
  const latestSeq = sql`(select max(d2.seq) from ${decisions} d2 where d2.a_id = ${aLines.id})`;
  return db
    .select({ ...lineFacts, category: decisions.category })
    .from(aLines)
    .innerJoin(decisions, eq(decisions.seq, latestSeq))
    .where(
      and(
        // Driven from the new decisions (a page's worth), not from every line of the books.
        sinceSeq === undefined
          ? undefined
          : inArray(
              aLines.id,
              db
                .select({ aId: decisions.aId })
                .from(decisions)
                .where(and(sql`${decisions.seq} > ${sinceSeq}`, inArray(decisions.engine, [...EVIDENCE_ENGINES]))),
            ),
        inArray(decisions.engine, [...EVIDENCE_ENGINES]),
        isNotNull(decisions.category),
        notExists(db.select({ id: lineEvents.id }).from(lineEvents).where(and(eq(lineEvents.aId, aLines.id), eq(lineEvents.kind, "superseded")))),
      ),
    )
    .orderBy(aLines.id)
    .all()
    .map((r) => ({ aId: r.aId, features: featuresOf(r), category: r.category! }));
}

function supersededCount(db: LedgerHandle): number {
  return db.select({ n: sql<number>`count(*)` }).from(lineEvents).where(eq(lineEvents.kind, "superseded")).get()!.n;
}

function newestEvidence(db: LedgerHandle): number {
  return db
    .select({ last: sql<number>`coalesce(max(${decisions.seq}), 0)` })
    .from(decisions)
    .where(inArray(decisions.engine, [...EVIDENCE_ENGINES]))
    .get()!.last;
}

/** Trains from scratch on every example the ledger holds. */
export function trainFromLedger(db: LedgerHandle): TrainedModel {
  const examples = trainingExamples(db);
  return {
    model: LocalModel.train(examples.map(({ features, category }) => ({ features, category }))),
    throughSeq: newestEvidence(db),
    superseded: supersededCount(db),
    lines: new Set(examples.map((e) => e.aId)),
  };
}

/**
 * The model for the ledger as it stands. New evidence about lines it has not learnt from
 * (a label landing on a fresh line) is added incrementally; evidence that changes what it
 * learnt (a line relabelled, or superseded) retrains it from the ledger.
 */
export function currentModel(db: LedgerHandle, trained: TrainedModel | undefined): TrainedModel {
  if (!trained || supersededCount(db) !== trained.superseded) return trainFromLedger(db);
  const fresh = db
    .select({ seq: decisions.seq, aId: decisions.aId })
    .from(decisions)
    .where(and(inArray(decisions.engine, [...EVIDENCE_ENGINES]), sql`${decisions.seq} > ${trained.throughSeq}`))
    .all();
  if (fresh.length === 0) return trained;
  const touched = [...new Set(fresh.map((d) => d.aId))];
  if (touched.some((aId) => trained.lines.has(aId))) return trainFromLedger(db);
  for (const example of trainingExamples(db, trained.throughSeq)) {
    trained.model.add({ features: example.features, category: example.category });
    trained.lines.add(example.aId);
  }
  trained.throughSeq = Math.max(...fresh.map((d) => d.seq));
  return trained;
}

/**
 * The facts the model reads for each line nobody has decided: side-A lines in books or
 * pending (no line event: neither superseded nor retracted) with no decision at all.
 */
export function undecidedFacts(db: LedgerHandle, newerThan = 0): (LineFacts & { aId: number })[] {
  const about = (table: typeof decisions | typeof lineEvents) => db.select({ one: sql`1` }).from(table).where(sql`${table.aId} = ${aLines.id}`);
  return db
    .select(lineFacts)
    .from(aLines)
    .where(and(gt(aLines.id, newerThan), notExists(about(decisions)), notExists(about(lineEvents))))
    .orderBy(aLines.id)
    .all();
}

/**
 * Decides the undecided lines the model is sure of: confidence at or above the duh
 * band's floor. Below it a line is left for the tail. Returns how many it decided.
 */
export function decideByModel(tx: LedgerTx, model: LocalModel, floor: number, at: string, newerThan = 0): number {
  if (model.size === 0) return 0;
  const decided: MachineDecision[] = [];
  for (const line of undecidedFacts(tx, newerThan)) {
    const prediction = model.predict(featuresOf(line));
    if (!prediction || prediction.confidence < floor) continue;
    decided.push({
      engine: "model",
      aId: line.aId,
      category: prediction.category,
      modelVersion: model.version,
      confidencePpm: Math.round(prediction.confidence * 1_000_000),
      bandFloorPpm: Math.round(floor * 1_000_000),
    });
  }
  appendMachineDecisions(tx, decided, at);
  return decided.length;
}
