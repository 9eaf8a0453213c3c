/**
 * The local model's place in the ledger: what it learns from, when it retrains, and the
 * decisions it makes. The classifier itself lives in ./model/.
 *
 * It learns from the tenant's own evidence: every current line whose latest decision is
 * a human's (categorize, label, adjudicate, carried) or a rule's. Its own decisions and
 * the tail's are never evidence. Everything it knows is derived from the ledger; its counts
 * are kept beside the ledger so a restarted object need not derive them again.
 */
import { sql, type SQL } from "drizzle-orm";
import type { LedgerDb, LedgerHandle, LedgerTx } from "../store/db";
import { CALIBRATION_SAMPLE, DEFAULT_DUH_BAND_FLOOR, LocalModel, type CountRows, type Example, type KeptCalibration } from "./classifier";
import { featuresOf, type LineFacts } from "./features";
import { appendMachineDecisions, type MachineDecision } from "../books/machine-decisions";
import { MODEL_TABLES } from "../store/schema";
import { inLineRanges, type Pause } from "../slices";
import type { UndecidedLine } from "../books/undecided";

const EVIDENCE_ENGINES = ["human", "rule"] as const;

/** The deployment's duh band floor (DUH_BAND_FLOOR, 0..1), or the default when unset or invalid. */
export function duhBandFloor(configured: string | undefined): number {
  const floor = Number(configured);
  return configured && Number.isFinite(floor) && floor > 0 && floor <= 1 ? floor : DEFAULT_DUH_BAND_FLOOR;
}

/** A point in the ledger's history: its newest decision and line event then. */
interface Marks {
  throughSeq: number;
  throughEvent: number;
}

/**
 * The model as trained, and the ledger it was trained on (to learn only what is new).
 * The marks are the newest decision and line event it has seen: the model is the one a
 * retrain on the ledger as of them would give, so what it learnt from a line is read from
 * the ledger as of them (`learntExamples`), and the marks are kept with the counts.
 */
export interface TrainedModel extends Marks {
  model: LocalModel;
}

/** The engines whose decisions are evidence, as SQL. */
const EVIDENCE = sql.raw(EVIDENCE_ENGINES.map((e) => `'${e}'`).join(", "));

/**
 * Current lines whose latest decision is evidence, as training examples, in line order;
 * with `sinceSeq`, only lines with evidence newer than it; with `newest`, only the last
 * that many. (Conditions, not id lists: SQLite in a Durable Object binds at most 100
 * variables per statement.) Raw SQL: it runs at every feed page.
 */
export function trainingExamples(db: LedgerHandle, options: { sinceSeq?: number; newest?: number } = {}): (Example & { aId: number })[] {
  const { sinceSeq, newest } = options;
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
    ${newest === undefined ? sql`ORDER BY a.id` : sql`ORDER BY a.id DESC LIMIT ${newest}`}`);
  if (newest !== undefined) rows.reverse();
  return rows.map((r) => ({ aId: r.aId, features: featuresOf(r), category: r.category }));
}

function marksNow(db: LedgerHandle): Marks {
  return db.get<Marks>(sql`SELECT (SELECT coalesce(max(seq), 0) FROM decisions) AS throughSeq,
    (SELECT coalesce(max(id), 0) FROM line_events) AS throughEvent`);
}

/** Trains from scratch on every example the ledger holds. Keeps nothing. */
export function trainFromLedger(db: LedgerHandle): TrainedModel {
  const trained: TrainedModel = { model: new LocalModel(), ...marksNow(db) };
  trained.model.addAll(trainingExamples(db));
  return trained;
}

/**
 * What the model learnt from these lines, read from the ledger as of its marks: each line's
 * latest decision then, if it was evidence and the line not yet superseded, with the
 * line's features (a line never changes). Lines it never learnt from are left out.
 */
function learntExamples(db: LedgerHandle, trained: Marks, aIds: number[]): Example[] {
  return examplesAsOf(db, trained, sql`a.id IN (SELECT value FROM json_each(${JSON.stringify(aIds)}))`);
}

/**
 * The examples a retrain on the ledger as of these marks would learn from the lines `which`
 * names (a condition on the line `a`), in line order: writes after the marks change nothing here.
 */
function examplesAsOf(db: LedgerHandle, marks: Marks, which: SQL): Example[] {
  const rows = db.all<LineFacts & { category: string }>(sql`
    SELECT a.description AS description, a.merchant_name AS merchantName, a.amount_cents AS amountCents,
      a.account_id AS accountId, d.category AS category
    FROM a_lines a
    JOIN decisions d ON d.seq = (SELECT max(d2.seq) FROM decisions d2 WHERE d2.a_id = a.id AND d2.seq <= ${marks.throughSeq})
    WHERE ${which}
      AND d.engine IN (${EVIDENCE}) AND d.category IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM line_events e WHERE e.a_id = a.id AND e.kind = 'superseded' AND e.id <= ${marks.throughEvent})
    ORDER BY a.id`);
  return rows.map((r) => ({ features: featuresOf(r), category: r.category }));
}

/** The model as last kept in the ledger (MODEL_TABLES), or undefined when none is. */
function keptModel(db: LedgerHandle): TrainedModel | undefined {
  const marks = db.get<{ hash: number; throughSeq: number; throughEvent: number; calibration: string | null } | undefined>(
    sql`SELECT hash, through_seq AS throughSeq, through_event AS throughEvent, calibration FROM model_marks WHERE id = 1`,
  );
  if (!marks) return undefined;
  const rows: CountRows = {
    categories: db.all(sql`SELECT category, examples FROM model_categories`),
    cells: db.all(sql`SELECT category, feature, count FROM model_cells`),
  };
  const calibration = marks.calibration === null ? null : (JSON.parse(marks.calibration) as KeptCalibration);
  return { model: LocalModel.restore(rows, marks.hash, calibration), throughSeq: marks.throughSeq, throughEvent: marks.throughEvent };
}

/** Writes what changed in the counts, and the marks, in the caller's transaction. A count of 0 drops its row. */
function keep(db: LedgerHandle, trained: TrainedModel, changes: CountRows): void {
  const [categories, noCategories] = partition(changes.categories, (r) => r.examples > 0);
  const [cells, noCells] = partition(changes.cells, (r) => r.count > 0);
  // As JSON arrays: a statement binds at most 100 variables, and a page changes thousands of counts.
  if (categories.length > 0) {
    db.run(sql`INSERT INTO model_categories (category, examples)
      SELECT value ->> 0, value ->> 1 FROM json_each(${JSON.stringify(categories.map((r) => [r.category, r.examples]))}) WHERE true
      ON CONFLICT (category) DO UPDATE SET examples = excluded.examples`);
  }
  if (noCategories.length > 0) {
    db.run(sql`DELETE FROM model_categories WHERE category IN (SELECT value FROM json_each(${JSON.stringify(noCategories.map((r) => r.category))}))`);
  }
  if (cells.length > 0) {
    db.run(sql`INSERT INTO model_cells (category, feature, count)
      SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${JSON.stringify(cells.map((r) => [r.category, r.feature, r.count]))}) WHERE true
      ON CONFLICT (category, feature) DO UPDATE SET count = excluded.count`);
  }
  if (noCells.length > 0) {
    db.run(sql`DELETE FROM model_cells WHERE (category, feature) IN
      (SELECT value ->> 0, value ->> 1 FROM json_each(${JSON.stringify(noCells.map((r) => [r.category, r.feature]))}))`);
  }
  db.run(sql`INSERT INTO model_marks (id, hash, through_seq, through_event) VALUES (1, ${trained.model.examplesHash}, ${trained.throughSeq}, ${trained.throughEvent})
    ON CONFLICT (id) DO UPDATE SET hash = excluded.hash, through_seq = excluded.through_seq, through_event = excluded.through_event`);
}

/** Keeps the calibration's new fit, if the model refitted it, beside the kept counts. */
function keepCalibration(db: LedgerHandle, model: LocalModel): void {
  const fit = model.takeNewCalibration();
  if (fit) db.run(sql`UPDATE model_marks SET calibration = ${JSON.stringify(fit)} WHERE id = 1`);
}

/**
 * Makes the model ready to predict: a restored model whose next prediction would refit its
 * calibration is given its sample first, the newest examples (a retrain's sample too).
 */
export function readyToPredict(db: LedgerHandle, model: LocalModel): LocalModel {
  if (model.wantsSample) model.resample(trainingExamples(db, { newest: CALIBRATION_SAMPLE }));
  return model;
}

/** Trains from the ledger and keeps it in place of anything kept before (its calibration is fitted at its first prediction). */
function retrainAndKeep(db: LedgerHandle): TrainedModel {
  return keepInstead(db, trainFromLedger(db));
}

/** Keeps a model learnt afresh in place of anything kept before, in the caller's transaction. */
function keepInstead(db: LedgerHandle, learnt: TrainedModel): TrainedModel {
  for (const table of MODEL_TABLES) db.run(sql`DELETE FROM ${sql.identifier(table)}`);
  keep(db, learnt, learnt.model.takeChanges());
  return learnt;
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

/**
 * A catch-up costs about 1.2 times a retrain's cost per line it forgets or learns, so it is
 * the cheaper way until the lines that changed outnumber the examples the model holds by
 * about this factor (measured: docs/performance.md, the tenth session). Below a few thousand
 * lines either way takes milliseconds, and the catch-up is kept.
 */
const RETRAIN_OVER_CHANGES = 5;
const RETRAIN_FROM_CHANGES = 5_000;

/** What changed since a model's marks: the lines with new evidence, and every line whose evidence may have changed. */
function changesSince(db: LedgerHandle, trained: Marks): { fresh: number; changed: number[] } {
  const fresh = db.all<{ aId: number }>(sql`SELECT a_id AS aId FROM decisions WHERE seq > ${trained.throughSeq} AND engine IN (${EVIDENCE})`);
  const superseded = db.all<{ aId: number }>(
    sql`SELECT a_id AS aId FROM line_events WHERE id > ${trained.throughEvent} AND kind = 'superseded'`,
  );
  return { fresh: fresh.length, changed: [...new Set([...fresh, ...superseded].map((d) => d.aId))] };
}

/** Whether learning afresh is cheaper than catching up a model of this size (it gives the same model either way). */
function learnsAfresh(changed: number, size: number): boolean {
  return changed >= RETRAIN_FROM_CHANGES && changed > RETRAIN_OVER_CHANGES * size;
}

/**
 * The model for the ledger as it stands, kept up incrementally: what a line taught it is
 * forgotten when the line gets new evidence (relabelled) or is superseded, and the line's
 * current evidence is learnt. The counts are then those of a retrain from the ledger, at
 * the cost of the lines that changed (a retrain at 100,000 lines takes more than a second,
 * during which the tenant's object answers nothing).
 *
 * The counts are kept in the ledger as they change (MODEL_TABLES, written in the caller's
 * transaction), so an object that starts again (`trained` undefined) restores them and
 * catches up from their marks instead of retraining; it retrains only when none are kept,
 * or when nearly all the evidence is new (RETRAIN_OVER_CHANGES). Before a sync's pages the
 * object learns such changes in turns instead (`learnInTurns`), so this catches up the rest.
 * The calibration's last fit is kept too (`decideByModel`), so a restored model predicts as
 * the running one did; a restored model predicts once `readyToPredict`.
 */
export function currentModel(db: LedgerHandle, trained: TrainedModel | undefined): TrainedModel {
  const current = trained ?? keptModel(db);
  if (!current) return retrainAndKeep(db);
  const now = marksNow(db);
  if (now.throughSeq === current.throughSeq && now.throughEvent === current.throughEvent) return current;
  const { fresh, changed } = changesSince(db, current);
  if (learnsAfresh(changed.length, current.model.size)) return retrainAndKeep(db);
  try {
    for (const example of learntExamples(db, current, changed)) current.model.forget(example);
  } catch (error) {
    // Kept counts that disagree with the ledger are a cache gone wrong: the ledger wins.
    console.error("the local model's counts disagree with the ledger; retraining:", error);
    return retrainAndKeep(db);
  }
  if (fresh > 0) current.model.addAll(trainingExamples(db, { sinceSeq: current.throughSeq }));
  Object.assign(current, now);
  keep(db, current, current.model.takeChanges());
  return current;
}

/** How many lines one turn of `learnInTurns` reads: 10-15 ms of the object's time (docs/performance.md). */
export const LINES_PER_TURN = 2_500;

/**
 * Where `currentModel` would learn afresh from a standing model (nearly all the evidence
 * new: the first sync after a whole-book run-rules), learns in turns of `linesPerTurn`
 * lines instead, with `pause()` before each turn, so the object answers other calls
 * meanwhile rather than holding them for a second. Each turn reads the ledger as of the
 * marks taken first, so what is written between turns changes nothing learnt. The
 * calibration is fitted in a turn of its own; the model is kept with its marks and fit in
 * the last turn, and the caller must take it in place of its own model in that same turn
 * (`currentModel` then catches up what came after the marks). Returns the model learnt, or
 * undefined where a catch-up is the cheaper way, or no model stands (nothing kept: a
 * tenant whose rules decide every line never needs one, and `currentModel` trains one at
 * the first need).
 */
export async function learnInTurns(
  db: LedgerDb,
  trained: TrainedModel | undefined,
  pause: Pause,
  linesPerTurn = LINES_PER_TURN,
): Promise<TrainedModel | undefined> {
  const standing = trained ? { ...marksOf(trained), size: trained.model.size } : keptStanding(db);
  if (!standing || !learnsAfresh(changesSince(db, standing).changed.length, standing.size)) return undefined;
  const learnt: TrainedModel = { model: new LocalModel(), ...marksNow(db) };
  await pause(); // the check above was a turn of its own
  await inLineRanges(db, linesPerTurn, pause, (after, upTo) =>
    learnt.model.addAll(examplesAsOf(db, learnt, sql`a.id > ${after} AND a.id <= ${upTo}`)),
  );
  // The calibration's fit too, which the first prediction would make in a page's transaction.
  await pause();
  learnt.model.refitIfStale();
  await pause();
  // Kept in the turn that hands it over: a pause after it would let a call catch up the
  // model it replaces and write that model's changed counts over these.
  return db.transaction((tx) => {
    keepInstead(tx, learnt);
    keepCalibration(tx, learnt.model);
    return learnt;
  });
}

function marksOf({ throughSeq, throughEvent }: Marks): Marks {
  return { throughSeq, throughEvent };
}

/** The kept model's marks and size, without restoring its counts. */
function keptStanding(db: LedgerHandle): (Marks & { size: number }) | undefined {
  return db.get<(Marks & { size: number }) | undefined>(sql`
    SELECT through_seq AS throughSeq, through_event AS throughEvent,
      (SELECT coalesce(sum(examples), 0) FROM model_categories) AS size
    FROM model_marks WHERE id = 1`);
}

/**
 * Decides the undecided lines the model is sure of: confidence at or above the duh
 * band's floor. Below it a line is left for the tail. Returns how many it decided.
 */
export function decideByModel(tx: LedgerTx, model: LocalModel, floor: number, at: string, lines: UndecidedLine[]): number {
  if (model.size === 0) return 0;
  readyToPredict(tx, model);
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
  keepCalibration(tx, model);
  return decided.length;
}
