/**
 * Appending the decisions of rules and the local model in bulk: one statement per
 * thousand decisions, their values passed as one JSON parameter (the object's SQLite
 * binds at most 100 values per statement). Op numbers follow the order given.
 */
import { sql } from "drizzle-orm";
import type { LedgerHandle, LedgerTx } from "../store/db";
import type { UndecidedRow } from "./undecided";

export type MachineDecision =
  | { engine: "rule"; aId: number; category: string; ruleKey: string; ruleRevision: number }
  | { engine: "model"; aId: number; category: string; modelVersion: string; confidencePpm: number; bandFloorPpm: number };

const CHUNK = 1_000;

type RuleDecision = Extract<MachineDecision, { engine: "rule" }>;
type ModelDecision = Extract<MachineDecision, { engine: "model" }>;

/**
 * The decisions, each moving its line's row of relation C and its figures by the per-row
 * triggers. Each run of one engine's decisions is one statement per thousand, its rows as
 * arrays of that engine's fields alone: read field by field, objects of both engines' eight
 * fields (three to five of them null) cost a 100,000-line run_rules a tenth more
 * (docs/performance.md, R11).
 */
export function appendMachineDecisions(db: LedgerHandle, decided: MachineDecision[], at: string): void {
  for (let from = 0; from < decided.length; ) {
    const engine = decided[from]!.engine;
    let to = from + 1;
    while (to < decided.length && to - from < CHUNK && decided[to]!.engine === engine) to++;
    if (engine === "rule") {
      const rows = JSON.stringify((decided.slice(from, to) as RuleDecision[]).map((d) => [d.aId, d.category, d.ruleKey, d.ruleRevision]));
      db.run(sql`
        INSERT INTO decisions (a_id, category, engine, rule_key, rule_revision, decided_at, recorded_at)
        SELECT value ->> 0, value ->> 1, 'rule', value ->> 2, value ->> 3, ${at}, ${at}
        FROM json_each(${rows}) ORDER BY key`);
    } else {
      const rows = JSON.stringify((decided.slice(from, to) as ModelDecision[]).map((d) => [d.aId, d.category, d.modelVersion, d.confidencePpm, d.bandFloorPpm]));
      db.run(sql`
        INSERT INTO decisions (a_id, category, engine, model_version, confidence_ppm, band_floor_ppm, decided_at, recorded_at)
        SELECT value ->> 0, value ->> 1, 'model', value ->> 2, value ->> 3, value ->> 4, ${at}, ${at}
        FROM json_each(${rows}) ORDER BY key`);
    }
    from = to;
  }
}

/**
 * The decisions of lines whose rows are `rows` (`undecidedRows`), read in this transaction
 * or with nothing written since (run-rules checks), in the caller's transaction. Row by
 * row, the figures (`c_totals`, `c_floor_totals`, `c_day_totals`) cost six writes per
 * line, most of a 100,000-line run; these lines share a few days and categories, so their
 * moves are grouped here and each figure written once, the triggers standing aside for
 * side-A rows while `c_figures_by_batch` holds its row (migration 0039). The side-B twins a
 * decision moves too are few and still kept by the triggers. Relation C's tests hold the
 * figures equal to their definition.
 */
export function appendDecisionsOfRows(db: LedgerTx, decided: MachineDecision[], rows: readonly UndecidedRow[], at: string): void {
  if (decided.length === 0) return;
  const moves = movesOf(decided, rows);
  const floor = db.get<{ floor: string } | undefined>(sql`SELECT floor FROM c_floor`)?.floor ?? null;
  db.run(sql`INSERT INTO c_figures_by_batch (held) VALUES (1)`);
  appendMachineDecisions(db, decided, at);
  keepFigures(db, moves, floor);
  db.run(sql`DELETE FROM c_figures_by_batch`);
}

/** Rows that move alike: from the queue to `category` by `engine`, all keyed alike in every figure. */
interface Move {
  accountId: string;
  state: string;
  postedOn: string;
  currency: string;
  category: string;
  engine: string;
  lines: number;
  cents: number;
}

/**
 * The decisions grouped by everything any figure is keyed by: one key built per line here,
 * and the three figures' keys per group (`keepFigures`), not six per line. Every row is
 * undecided, so each leaves the queue's figure (no category, no engine).
 */
function movesOf(decided: MachineDecision[], rows: readonly UndecidedRow[]): Move[] {
  const rowOf = new Map(rows.map((row) => [row.aId, row]));
  const moves = new Map<string, Move>();
  for (const decision of decided) {
    const row = rowOf.get(decision.aId);
    if (!row) throw new Error(`a decision of A:${decision.aId}, whose undecided row was not read (or a second decision of it)`);
    rowOf.delete(decision.aId);
    const currency = row.currency ?? "";
    const key = keyOf(row.accountId, row.state, row.postedOn, currency, decision.category, decision.engine);
    const move = moves.get(key);
    if (move) {
      move.lines += 1;
      move.cents += row.amountCents;
    } else {
      moves.set(key, { accountId: row.accountId, state: row.state, postedOn: row.postedOn, currency, category: decision.category, engine: decision.engine, lines: 1, cents: row.amountCents });
    }
  }
  return [...moves.values()];
}

/**
 * One string for a tuple of strings, each preceded by its length so that no two tuples
 * share one: built once per line, it costs a 100,000-line run 20-40 ms less than
 * `JSON.stringify` of the tuple (measured in Node).
 */
function keyOf(...parts: string[]): string {
  let key = "";
  for (const part of parts) key += `${part.length}:${part}`;
  return key;
}

/** Lines and cents to add to figures, by each figure's key. */
class Deltas {
  private readonly byKey = new Map<string, [key: (string | number)[], lines: number, cents: number]>();
  add(key: (string | number)[], lines: number, cents: number): void {
    const id = JSON.stringify(key);
    const entry = this.byKey.get(id);
    if (entry) {
      entry[1] += lines;
      entry[2] += cents;
    } else this.byKey.set(id, [key, lines, cents]);
  }
  get size(): number {
    return this.byKey.size;
  }
  /** Each figure's key, then its two deltas, as JSON rows. */
  json(): string {
    return JSON.stringify([...this.byKey.values()].map(([key, lines, cents]) => [...key, lines, cents]));
  }
}

/**
 * What the per-row triggers would have written for these moves (migrations 0013, 0017,
 * 0025, 0026): each row leaves its queued figure and joins its category's.
 */
function keepFigures(db: LedgerHandle, moves: Move[], floor: string | null): void {
  const totals = new Deltas();
  const floorTotals = new Deltas();
  const days = new Deltas();
  for (const move of moves) {
    const { accountId, state, postedOn, currency, category, engine, lines, cents } = move;
    for (const figures of floor !== null && postedOn < floor ? [totals, floorTotals] : [totals]) {
      figures.add([accountId, state, 1, ""], -lines, -cents);
      figures.add([accountId, state, 0, category], lines, cents);
    }
    days.add([state, postedOn, 1, "", currency, ""], -lines, -cents);
    days.add([state, postedOn, 0, category, currency, engine], lines, cents);
  }
  // `WHERE true` tells SQLite's parser that ON CONFLICT belongs to the INSERT, not to the join.
  const add = sql.raw("WHERE true ON CONFLICT DO UPDATE SET lines = lines + excluded.lines, amount_cents = amount_cents + excluded.amount_cents");
  for (const [table, figures] of [["c_totals", totals], ["c_floor_totals", floorTotals]] as const) {
    if (figures.size === 0) continue;
    db.run(sql`INSERT INTO ${sql.identifier(table)} (account_id, state, queued, category, lines, amount_cents)
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 FROM json_each(${figures.json()}) ${add}`);
  }
  db.run(sql`INSERT INTO c_day_totals (state, posted_on, queued, category, currency, engine, lines, amount_cents)
    SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7
    FROM json_each(${days.json()}) ${add}`);
}
