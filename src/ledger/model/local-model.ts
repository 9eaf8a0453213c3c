/**
 * The local model's place in the ledger: what it learns from, when it retrains, and the
 * decisions it makes. The classifier itself lives in ./model/.
 *
 * It learns from the tenant's own evidence: every current line whose latest decision is
 * a human's (categorize, label, adjudicate, carried) or a rule's. Its own decisions and
 * the tail's are never evidence. It also reads the text of every line of the feed,
 * labelled or not, to learn which words the tenant's bank puts on every kind of line.
 * Everything it knows is derived from the ledger; its evidence is kept beside the ledger
 * so a restarted object need not derive it again.
 */
import { sql, type SQL } from "drizzle-orm";
import type { LedgerDb, LedgerHandle, LedgerTx } from "../store/db";
import { DEFAULT_DUH_BAND_FLOOR, LocalModel, type EvidenceRows, type Example, type KeptCalibration } from "./classifier";
import { lineKey, type LineFacts } from "./features";
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

/** A point in the ledger's history: its newest decision, line event and line then. */
export interface Marks {
  throughSeq: number;
  throughEvent: number;
  throughLine: number;
}

/**
 * The model as trained, and the ledger it was trained on (to learn only what is new).
 * The marks are the newest decision, line event and line it has seen: the model's evidence
 * is the one a retrain on the ledger as of them would give, so what it learnt from a line
 * is read from the ledger as of them (`learntExamples`), and the marks are kept with the
 * evidence.
 */
export interface TrainedModel extends Marks {
  model: LocalModel;
}

/** The engines whose decisions are evidence, as SQL. */
const EVIDENCE = sql.raw(EVIDENCE_ENGINES.map((e) => `'${e}'`).join(", "));
/**
 * A decision `d` a person made just now (not one carried from a superseded line, which
 * repeats what the person said before), as SQL: the fit must learn such a change before the
 * model's next decision.
 */
export const BY_PERSON = sql.raw(`(d.engine = 'human' AND d.carried_from_a_id IS NULL)`);

/**
 * Current lines whose latest decision is evidence, as training examples, in line order;
 * with `sinceSeq`, only lines with evidence newer than it; with `newest`, only the last
 * that many. (Conditions, not id lists: SQLite in a Durable Object binds at most 100
 * variables per statement.) Raw SQL: it runs at every feed page.
 */
export function trainingExamples(db: LedgerHandle, options: { sinceSeq?: number; newest?: number } = {}): (Example & { aId: number; engine: string; byPerson: boolean })[] {
  const { sinceSeq, newest } = options;
  const rows = db.all<LineFacts & { aId: number; category: string; engine: string; byPerson: number }>(sql`
    SELECT a.id AS aId, a.description AS description, a.merchant_name AS merchantName, a.amount_cents AS amountCents,
      a.account_id AS accountId, d.category AS category, d.engine AS engine, ${BY_PERSON} AS byPerson
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
  return rows.map((r) => ({ aId: r.aId, key: lineKey(r), category: r.category, engine: r.engine, byPerson: r.byPerson === 1 }));
}

/** The keys of the feed's lines after `after` up to `upTo`, every line the feed delivered (a line never changes). */
function lineKeys(db: LedgerHandle, after: number, upTo: number): string[] {
  return db
    .all<LineFacts>(sql`SELECT description, merchant_name AS merchantName, amount_cents AS amountCents, account_id AS accountId
      FROM a_lines WHERE id > ${after} AND id <= ${upTo} ORDER BY id`)
    .map(lineKey);
}

export function marksNow(db: LedgerHandle): Marks {
  return db.get<Marks>(sql`SELECT (SELECT coalesce(max(seq), 0) FROM decisions) AS throughSeq,
    (SELECT coalesce(max(id), 0) FROM line_events) AS throughEvent,
    (SELECT coalesce(max(id), 0) FROM a_lines) AS throughLine`);
}

/** Trains from scratch on every example and line the ledger holds. Keeps nothing. */
export function trainFromLedger(db: LedgerHandle): TrainedModel {
  const trained: TrainedModel = { model: new LocalModel(), ...marksNow(db) };
  trained.model.seeLines(lineKeys(db, 0, trained.throughLine));
  trained.model.addAll(trainingExamples(db), false);
  return trained;
}

/**
 * What the model learnt from these lines, read from the ledger as of its marks: each line's
 * latest decision then, if it was evidence and the line not yet superseded, with the
 * line's features (a line never changes). Lines it never learnt from are left out.
 */
function learntExamples(db: LedgerHandle, trained: Marks, aIds: number[]): (Example & { aId: number })[] {
  return examplesAsOf(db, trained, sql`a.id IN (SELECT value FROM json_each(${JSON.stringify(aIds)}))`);
}

/**
 * The examples a retrain on the ledger as of these marks would learn from the lines `which`
 * names (a condition on the line `a`), in line order: writes after the marks change nothing here.
 */
function examplesAsOf(db: LedgerHandle, marks: Marks, which: SQL): (Example & { aId: number })[] {
  const rows = db.all<LineFacts & { aId: number; category: string }>(sql`
    SELECT a.id AS aId, a.description AS description, a.merchant_name AS merchantName, a.amount_cents AS amountCents,
      a.account_id AS accountId, d.category AS category
    FROM a_lines a
    JOIN decisions d ON d.seq = (SELECT max(d2.seq) FROM decisions d2 WHERE d2.a_id = a.id AND d2.seq <= ${marks.throughSeq})
    WHERE ${which}
      AND d.engine IN (${EVIDENCE}) AND d.category IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM line_events e WHERE e.a_id = a.id AND e.kind = 'superseded' AND e.id <= ${marks.throughEvent})
    ORDER BY a.id`);
  return rows.map((r) => ({ aId: r.aId, key: lineKey(r), category: r.category }));
}

/** The model as last kept in the ledger (MODEL_TABLES), or undefined when none is. */
function keptModel(db: LedgerHandle): TrainedModel | undefined {
  const state = db.get<(Marks & { hash: number; calibration: string | null }) | undefined>(
    sql`SELECT hash, through_seq AS throughSeq, through_event AS throughEvent, through_line AS throughLine, calibration FROM model_state WHERE id = 1`,
  );
  if (!state) return undefined;
  const rows: EvidenceRows = {
    examples: db.all(sql`SELECT key, category, lines FROM model_examples`),
    lines: db.all(sql`SELECT key, lines FROM model_lines`),
  };
  const calibration = state.calibration === null ? null : (JSON.parse(state.calibration) as KeptCalibration);
  return { model: LocalModel.restore(rows, state.hash, calibration), ...marksOf(state) };
}

/** Writes what changed in the evidence, and the marks, in the caller's transaction. 0 lines drops a row. */
function keep(db: LedgerHandle, trained: TrainedModel, changes: EvidenceRows): void {
  const [examples, noExamples] = partition(changes.examples, (r) => r.lines > 0);
  const [lines, noLines] = partition(changes.lines, (r) => r.lines > 0);
  // As JSON arrays (a statement binds at most 100 variables, and a page changes thousands of
  // rows), each under the longest string the object's SQLite takes: a book's whole evidence
  // is megabytes of line keys.
  for (const chunk of jsonArrays(examples.map((r) => [r.key, r.category, r.lines]))) {
    db.run(sql`INSERT INTO model_examples (key, category, lines)
      SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${chunk}) WHERE true
      ON CONFLICT (key, category) DO UPDATE SET lines = excluded.lines`);
  }
  for (const chunk of jsonArrays(noExamples.map((r) => [r.key, r.category]))) {
    db.run(sql`DELETE FROM model_examples WHERE (key, category) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${chunk}))`);
  }
  for (const chunk of jsonArrays(lines.map((r) => [r.key, r.lines]))) {
    db.run(sql`INSERT INTO model_lines (key, lines)
      SELECT value ->> 0, value ->> 1 FROM json_each(${chunk}) WHERE true
      ON CONFLICT (key) DO UPDATE SET lines = excluded.lines`);
  }
  for (const chunk of jsonArrays(noLines.map((r) => r.key))) {
    db.run(sql`DELETE FROM model_lines WHERE key IN (SELECT value FROM json_each(${chunk}))`);
  }
  db.run(sql`INSERT INTO model_state (id, hash, through_seq, through_event, through_line)
    VALUES (1, ${trained.model.examplesHash}, ${trained.throughSeq}, ${trained.throughEvent}, ${trained.throughLine})
    ON CONFLICT (id) DO UPDATE SET hash = excluded.hash, through_seq = excluded.through_seq, through_event = excluded.through_event,
      through_line = excluded.through_line`);
}

/** Keeps the calibration's new fit, if the model refitted it, beside the kept evidence. */
export function keepCalibration(db: LedgerHandle, model: LocalModel): void {
  const fit = model.takeNewCalibration();
  if (fit) db.run(sql`UPDATE model_state SET calibration = ${JSON.stringify(fit)} WHERE id = 1`);
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

/**
 * The most characters of JSON one bound parameter carries: a Durable Object's SQLite
 * refuses a string over 2 MB (SQLITE_TOOBIG), and a character is at most three bytes of
 * UTF-8.
 */
export const JSON_ARRAY_CHARS = 600_000;

/** `items` as JSON arrays of at most JSON_ARRAY_CHARS characters each (an item longer than that alone); none for no items. */
export function jsonArrays(items: readonly unknown[], most = JSON_ARRAY_CHARS): string[] {
  const arrays: string[] = [];
  let parts: string[] = [];
  let length = 2;
  for (const item of items) {
    const text = JSON.stringify(item);
    if (parts.length > 0 && length + text.length + 1 > most) {
      arrays.push(`[${parts.join(",")}]`);
      parts = [];
      length = 2;
    }
    parts.push(text);
    length += text.length + 1;
  }
  if (parts.length > 0) arrays.push(`[${parts.join(",")}]`);
  return arrays;
}

/** Learns examples, those of the lines in `byPerson` as a person's change (classifier.ts, `addAll`). */
function learnEach(model: LocalModel, examples: (Example & { aId: number })[], byPerson: Set<number>): void {
  const [persons, others] = partition(examples, (e) => byPerson.has(e.aId));
  model.addAll(others, false);
  model.addAll(persons, true);
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
 * about this factor (measured at 100,000 lines in the object). Below a few thousand
 * lines either way takes milliseconds, and the catch-up is kept.
 */
const RETRAIN_OVER_CHANGES = 5;
const RETRAIN_FROM_CHANGES = 5_000;

/**
 * What changed since a model's marks, up to `upTo` (the ledger now by default): the lines
 * with new evidence, every line whose evidence may have changed, and the lines a person
 * decided (their forgotten examples are a person's change too).
 */
function changesSince(db: LedgerHandle, trained: Marks, upTo: Marks = marksNow(db)): { fresh: number; changed: number[]; byPerson: Set<number> } {
  const fresh = db.all<{ aId: number; byPerson: number }>(
    sql`SELECT a_id AS aId, ${BY_PERSON} AS byPerson FROM decisions d WHERE seq > ${trained.throughSeq} AND seq <= ${upTo.throughSeq}`,
  );
  const superseded = db.all<{ aId: number }>(
    sql`SELECT a_id AS aId FROM line_events WHERE id > ${trained.throughEvent} AND id <= ${upTo.throughEvent} AND kind = 'superseded'`,
  );
  const evidence = fresh.length;
  return {
    fresh: evidence,
    changed: [...new Set([...fresh, ...superseded].map((d) => d.aId))],
    byPerson: new Set(fresh.filter((d) => d.byPerson === 1).map((d) => d.aId)),
  };
}

/** Whether learning afresh is cheaper than catching up a model of this size (it gives the same model either way). */
function learnsAfresh(changed: number, size: number): boolean {
  return changed >= RETRAIN_FROM_CHANGES && changed > RETRAIN_OVER_CHANGES * size;
}

/**
 * The model for the ledger as it stands, kept up incrementally: the feed's new lines are
 * seen, what a line taught it is forgotten when the line gets new evidence (relabelled) or
 * is superseded, and the line's current evidence is learnt. The evidence is then that of a
 * retrain from the ledger, at the cost of the lines that changed (reading every line at
 * 100,000 lines takes more than a second, during which the tenant's object answers
 * nothing). The regression is refitted from the evidence at the next prediction that finds
 * it changed (classifier.ts), so a label changes the next decision.
 *
 * The evidence is kept in the ledger as it changes (MODEL_TABLES, written in the caller's
 * transaction), so an object that starts again (`trained` undefined) restores it and
 * catches up from its marks instead of retraining; it retrains only when none is kept,
 * or when nearly all the evidence is new (RETRAIN_OVER_CHANGES). Before a sync's pages the
 * object learns such changes in slices instead (`catchUpInSlices`, `learnAfreshInSlices`), so
 * this catches up the rest.
 * The calibration's last fit is kept too (`decideByModel`), so a restored model predicts as
 * the running one did.
 */
export function currentModel(db: LedgerHandle, trained: TrainedModel | undefined): TrainedModel {
  const current = trained ?? keptModel(db);
  if (!current) return retrainAndKeep(db);
  const now = marksNow(db);
  if (now.throughSeq === current.throughSeq && now.throughEvent === current.throughEvent && now.throughLine === current.throughLine) return current;
  const { fresh, changed, byPerson } = changesSince(db, current, now);
  if (learnsAfresh(changed.length, current.model.size)) return retrainAndKeep(db);
  current.model.seeLines(lineKeys(db, current.throughLine, now.throughLine));
  try {
    for (const example of learntExamples(db, current, changed)) current.model.forget(example, byPerson.has(example.aId));
  } catch (error) {
    // Kept evidence that disagrees with the ledger is a cache gone wrong: the ledger wins.
    console.error("the local model's evidence disagrees with the ledger; retraining:", error);
    return retrainAndKeep(db);
  }
  if (fresh > 0) {
    learnEach(current.model, trainingExamples(db, { sinceSeq: current.throughSeq }), byPerson);
  }
  Object.assign(current, now);
  keep(db, current, current.model.takeChanges());
  return current;
}

/** How many lines one slice of learning reads: about 10 ms of the object's time (docs/performance.md). */
export const LINES_PER_SLICE = 2_000;

/**
 * Up to this many changes since a model's marks are caught up in one step (`currentModel`,
 * some milliseconds); more are learnt in slices (`catchUpInSlices`, `learnAfreshInSlices`).
 */
export const CHANGES_CAUGHT_UP_AT_ONCE = 2_000;

/** What changed since a model's marks, counted without reading the lines: and whether a person made any of it. */
export interface Pending {
  /** Decisions, supersessions and new lines since the marks. */
  changes: number;
  /** Whether a person decided a line since the marks (the fit must learn it before the next decision). */
  byPerson: boolean;
}

export function pendingSince(db: LedgerHandle, marks: Marks): Pending {
  const row = db.get<{ decisions: number; byPerson: number; superseded: number; lines: number }>(sql`
    SELECT (SELECT count(*) FROM decisions d WHERE seq > ${marks.throughSeq}) AS decisions,
      (SELECT count(*) FROM decisions d WHERE seq > ${marks.throughSeq} AND ${BY_PERSON}) AS byPerson,
      (SELECT count(*) FROM line_events WHERE id > ${marks.throughEvent} AND kind = 'superseded') AS superseded,
      (SELECT coalesce(max(id), 0) FROM a_lines) - ${marks.throughLine} AS lines`);
  return { changes: row.decisions + row.superseded + row.lines, byPerson: row.byPerson > 0 };
}

/**
 * The keys of the lines a person decided after these marks, or null where there are more
 * than `most` (the decisions after them only are read).
 */
export function personDecidedKeysSince(db: LedgerHandle, marks: Marks, most: number): string[] | null {
  const rows = db.all<LineFacts>(sql`
    SELECT a.description AS description, a.merchant_name AS merchantName, a.amount_cents AS amountCents, a.account_id AS accountId
    FROM decisions d JOIN a_lines a ON a.id = d.a_id
    WHERE d.seq > ${marks.throughSeq} AND ${BY_PERSON}
    LIMIT ${most + 1}`);
  return rows.length > most ? null : rows.map(lineKey);
}

/** Whether a person or a rule decided a line after these marks: evidence the model learns from. */
export function evidenceSince(db: LedgerHandle, marks: Marks): boolean {
  return db.get<{ found: number }>(sql`SELECT EXISTS (SELECT 1 FROM decisions d WHERE seq > ${marks.throughSeq} AND d.engine IN (${EVIDENCE})) AS found`).found === 1;
}

/** Whether a person decided a line after these marks (the decisions after them only are read). */
export function personDecidedSince(db: LedgerHandle, marks: Marks): boolean {
  return db.get<{ found: number }>(sql`SELECT EXISTS (SELECT 1 FROM decisions d WHERE seq > ${marks.throughSeq} AND ${BY_PERSON}) AS found`).found === 1;
}

/** The model kept in the ledger, restored (its evidence read in one step: some milliseconds at 100,000 lines), or undefined. */
export function restoreKept(db: LedgerHandle): TrainedModel | undefined {
  return keptModel(db);
}

/** Whether learning afresh is cheaper than catching up this many changes for this model (the same model either way). */
export function learnsAfreshFor(pending: Pending, trained: TrainedModel): boolean {
  return learnsAfresh(pending.changes, trained.model.size);
}

/**
 * Learns the ledger afresh in slices of `linesPerSlice` lines, with `pause()` before each,
 * so the object answers other calls meanwhile: what a retrain on the ledger as of the marks
 * taken first gives (what is written between slices is the next catch-up's). The regression
 * and the calibration are fitted in slices too. The model is kept with its marks and fit in
 * the last slice, in place of anything kept before, and the caller must take it in place of
 * its own model in that same slice (a pause after it would let a call catch up the model it
 * replaces and write that model's evidence over this).
 */
export async function learnAfreshInSlices(db: LedgerDb, pause: Pause, linesPerSlice = LINES_PER_SLICE): Promise<TrainedModel> {
  const learnt: TrainedModel = { model: new LocalModel(), ...marksNow(db) };
  await inLineRanges(db, linesPerSlice, pause, (after, upTo) => {
    learnt.model.seeLines(lineKeys(db, after, Math.min(upTo, learnt.throughLine)));
    learnt.model.addAll(examplesAsOf(db, learnt, sql`a.id > ${after} AND a.id <= ${upTo}`), false);
  });
  await pause();
  for (const _ of learnt.model.refitInSteps()) await pause();
  return db.transaction((tx) => {
    keepInstead(tx, learnt);
    keepCalibration(tx, learnt.model);
    return learnt;
  });
}

/**
 * Catches a model up with the ledger in slices (many changes that learning afresh would
 * not make cheaper): the new lines seen and the changed lines forgotten and learnt again,
 * `linesPerSlice` at a time with `pause()` before each, each read as of the marks taken
 * first, so what is written between slices is the next catch-up's. The evidence is kept
 * with the new marks in the last slice. Nothing else may change the model meanwhile.
 */
export async function catchUpInSlices(db: LedgerDb, trained: TrainedModel, pause: Pause, linesPerSlice = LINES_PER_SLICE): Promise<TrainedModel> {
  const now = marksNow(db);
  const { changed, byPerson } = changesSince(db, trained, now);
  for (let after = trained.throughLine; after < now.throughLine; after += linesPerSlice) {
    await pause();
    trained.model.seeLines(lineKeys(db, after, Math.min(after + linesPerSlice, now.throughLine)));
  }
  for (let from = 0; from < changed.length; from += linesPerSlice) {
    await pause();
    const lines = changed.slice(from, from + linesPerSlice);
    const which = sql`a.id IN (SELECT value FROM json_each(${JSON.stringify(lines)}))`;
    for (const example of examplesAsOf(db, trained, which)) trained.model.forget(example, byPerson.has(example.aId));
    learnEach(trained.model, examplesAsOf(db, now, which), byPerson);
  }
  await pause();
  Object.assign(trained, now);
  db.transaction((tx) => keep(tx, trained, trained.model.takeChanges()));
  return trained;
}

/** Refits the model in steps with `pause()` between them, and keeps the calibration's fit if it was refitted. */
export async function refitInSlices(db: LedgerDb, trained: TrainedModel, pause: Pause): Promise<void> {
  for (const _ of trained.model.refitInSteps()) await pause();
  db.transaction((tx) => keepCalibration(tx, trained.model));
}

export function marksOf({ throughSeq, throughEvent, throughLine }: Marks): Marks {
  return { throughSeq, throughEvent, throughLine };
}

/**
 * Decides the undecided lines the model is sure of: confidence at or above the duh
 * band's floor, once the band is open (`LocalModel.bandOpens`), by the standing fit (a
 * transaction refits nothing: the caller makes sure no person's change waits for a fit, or
 * holds back the lines it speaks to: `heldBack`). Below it a line is left for the tail.
 * Returns how many it decided.
 */
export function decideByModel(
  tx: LedgerTx,
  model: LocalModel,
  floor: number,
  at: string,
  lines: UndecidedLine[],
  heldBack: (key: string) => boolean = () => false,
): number {
  const version = model.fittedVersion;
  if (model.size === 0 || version === null) return 0;
  // Until enough of the tenant's held-out lines reached the floor, every line waits (classifier.ts, `bandOpens`).
  if (!model.bandOpens(floor)) {
    keepCalibration(tx, model);
    return 0;
  }
  const decided: MachineDecision[] = [];
  for (const line of lines) {
    const key = lineKey(line);
    if (heldBack(key)) continue;
    const prediction = model.predictAsFitted(key);
    // The others' category is a suggestion only (shared-prior.ts); a line held below the band
    // (held-below.ts, `heldBelowBy`) waits for a person or a rule whatever floor the deployment sets.
    if (!prediction || prediction.byOthers || prediction.heldBelow || prediction.confidence < floor) continue;
    decided.push({
      engine: "model",
      aId: line.aId,
      category: prediction.category,
      modelVersion: version,
      confidencePpm: Math.round(prediction.confidence * 1_000_000),
      bandFloorPpm: Math.round(floor * 1_000_000),
    });
  }
  appendMachineDecisions(tx, decided, at);
  keepCalibration(tx, model);
  return decided.length;
}
