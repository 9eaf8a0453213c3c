/**
 * The local model's place in the ledger: what it learns from, when it retrains, and the
 * decisions it makes. The classifier itself lives in ./model/.
 *
 * It learns from the tenant's own evidence: every current line whose latest decision is
 * a human's (categorize, label, adjudicate, carried) or a rule's. Its own decisions and
 * the tail's are never evidence. Everything it knows is derived from the ledger, so a
 * restarted object retrains from the same facts and nothing is lost.
 */
import { sql } from "drizzle-orm";
import type { LedgerHandle, LedgerTx } from "./db";
import { DEFAULT_DUH_BAND_FLOOR, LocalModel, type Example } from "./model/classifier";
import { featuresOf, type LineFacts } from "./model/features";
import { appendMachineDecisions, type MachineDecision } from "./machine-decisions";
import type { UndecidedLine } from "./undecided";

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

/** The engines whose decisions are evidence, as SQL. */
const EVIDENCE = sql.raw(EVIDENCE_ENGINES.map((e) => `'${e}'`).join(", "));

/**
 * Current lines whose latest decision is evidence, as training examples; with `sinceSeq`,
 * only lines with evidence newer than it. (Conditions, not id lists: SQLite in a Durable
 * Object binds at most 100 variables per statement.) Raw SQL: it runs at every feed page.
 */
export function trainingExamples(db: LedgerHandle, sinceSeq?: number): (Example & { aId: number })[] {
  const rows = db.all<LineFacts & { aId: number; category: string }>(sql`
    SELECT a.id AS aId, a.description AS description, a.merchant_name AS merchantName, a.amount_cents AS amountCents,
      a.account_id AS accountId, d.category AS category
    FROM a_lines a
    JOIN decisions d ON d.seq = (SELECT max(d2.seq) FROM decisions d2 WHERE d2.a_id = a.id)
    WHERE d.engine IN (${EVIDENCE}) AND d.category IS NOT NULL
      ${
        // Driven from the new decisions (a page's worth), not from every line of the books.
        sinceSeq === undefined ? sql`` : sql`AND a.id IN (SELECT n.a_id FROM decisions n WHERE n.seq > ${sinceSeq} AND n.engine IN (${EVIDENCE}))`
      }
      AND NOT EXISTS (SELECT 1 FROM line_events e WHERE e.a_id = a.id AND e.kind = 'superseded')
    ORDER BY a.id`);
  return rows.map((r) => ({ aId: r.aId, features: featuresOf(r), category: r.category }));
}

function supersededCount(db: LedgerHandle): number {
  return db.get<{ n: number }>(sql`SELECT count(*) AS n FROM line_events WHERE kind = 'superseded'`).n;
}

function newestEvidence(db: LedgerHandle): number {
  return db.get<{ last: number }>(sql`SELECT coalesce(max(seq), 0) AS last FROM decisions WHERE engine IN (${EVIDENCE})`).last;
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
  const fresh = db.all<{ seq: number; aId: number }>(
    sql`SELECT seq, a_id AS aId FROM decisions WHERE seq > ${trained.throughSeq} AND engine IN (${EVIDENCE})`,
  );
  if (fresh.length === 0) return trained;
  const touched = [...new Set(fresh.map((d) => d.aId))];
  if (touched.some((aId) => trained.lines.has(aId))) return trainFromLedger(db);
  const examples = trainingExamples(db, trained.throughSeq);
  trained.model.addAll(examples.map(({ features, category }) => ({ features, category })));
  for (const example of examples) trained.lines.add(example.aId);
  trained.throughSeq = fresh.reduce((newest, d) => Math.max(newest, d.seq), trained.throughSeq);
  return trained;
}

/**
 * Decides the undecided lines the model is sure of: confidence at or above the duh
 * band's floor. Below it a line is left for the tail. Returns how many it decided.
 */
export function decideByModel(tx: LedgerTx, model: LocalModel, floor: number, at: string, lines: UndecidedLine[]): number {
  if (model.size === 0) return 0;
  const decided: MachineDecision[] = [];
  for (const line of lines) {
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
