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
  /** The newest line event it has seen: a line superseded since then is no longer evidence. */
  throughEvent: number;
  /**
   * The category it learnt from each line, to forget the line's example when the line is
   * relabelled or superseded (its features are read again from the line, which never changes).
   */
  lines: Map<number, string>;
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

function newestEvent(db: LedgerHandle): number {
  return db.get<{ last: number }>(sql`SELECT coalesce(max(id), 0) AS last FROM line_events`).last;
}

function newestEvidence(db: LedgerHandle): number {
  return db.get<{ last: number }>(sql`SELECT coalesce(max(seq), 0) AS last FROM decisions WHERE engine IN (${EVIDENCE})`).last;
}

/** Trains from scratch on every example the ledger holds. */
export function trainFromLedger(db: LedgerHandle): TrainedModel {
  const trained: TrainedModel = { model: new LocalModel(), throughSeq: newestEvidence(db), throughEvent: newestEvent(db), lines: new Map() };
  learnFrom(trained, trainingExamples(db));
  return trained;
}

function learnFrom(trained: TrainedModel, examples: (Example & { aId: number })[]): void {
  for (const { aId, category } of examples) trained.lines.set(aId, category);
  trained.model.addAll(examples.map(({ features, category }) => ({ features, category })));
}

/** What the model learnt from these lines: their features, read again, with the categories it learnt. */
function learntExamples(db: LedgerHandle, trained: TrainedModel, aIds: number[]): Example[] {
  const facts = db.all<LineFacts & { aId: number }>(sql`
    SELECT id AS aId, description, merchant_name AS merchantName, amount_cents AS amountCents, account_id AS accountId
    FROM a_lines WHERE id IN (SELECT value FROM json_each(${JSON.stringify(aIds)}))`);
  return facts.map((line) => ({ features: featuresOf(line), category: trained.lines.get(line.aId)! }));
}

/**
 * The model for the ledger as it stands, kept up incrementally: what a line taught it is
 * forgotten when the line gets new evidence (relabelled) or is superseded, and the line's
 * current evidence is learnt. The counts are then those of a retrain from the ledger, at
 * the cost of the lines that changed (a retrain at 100,000 lines takes about 2 s, during
 * which the tenant's object answers nothing).
 */
export function currentModel(db: LedgerHandle, trained: TrainedModel | undefined): TrainedModel {
  if (!trained) return trainFromLedger(db);
  const fresh = db.all<{ seq: number; aId: number }>(
    sql`SELECT seq, a_id AS aId FROM decisions WHERE seq > ${trained.throughSeq} AND engine IN (${EVIDENCE})`,
  );
  const events = db.all<{ id: number; aId: number; kind: string }>(
    sql`SELECT id, a_id AS aId, kind FROM line_events WHERE id > ${trained.throughEvent}`,
  );
  if (fresh.length === 0 && events.length === 0) return trained;
  const superseded = events.filter((e) => e.kind === "superseded");
  const changed = [...new Set([...fresh, ...superseded].map((d) => d.aId))].filter((aId) => trained.lines.has(aId));
  for (const example of learntExamples(db, trained, changed)) trained.model.forget(example);
  for (const aId of changed) trained.lines.delete(aId);
  if (fresh.length > 0) learnFrom(trained, trainingExamples(db, trained.throughSeq));
  trained.throughSeq = fresh.reduce((newest, d) => Math.max(newest, d.seq), trained.throughSeq);
  trained.throughEvent = events.reduce((newest, e) => Math.max(newest, e.id), trained.throughEvent);
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
