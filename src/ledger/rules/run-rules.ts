/**
 * run-rules: every live rule over the undecided lines, in slices of the object's time.
 */
import { sql } from "drizzle-orm";
import type { Face } from "../face";
import { queueIsSmall, undecidedRows, type UndecidedRow } from "../books/undecided";
import { inLineRanges, type Pause } from "../slices";
import type { LedgerDb, LedgerHandle } from "../store/db";
import { appendDecisionsOfRows } from "../books/machine-decisions";
import { compileRulebook, decisionsBy } from "./matching";
import { standingRules } from "./rulebook";

/** How many lines one slice of run-rules decides, in one transaction: 15-25 ms of the object's time at 100,000 lines. */
const RUN_SLICE = 2_000;

/**
 * run-rules: every live rule over the undecided lines. A second run decides 0.
 *
 * A run over a whole book takes about a second, so it works in slices with `pause()`
 * between them, where the object answers other calls: the lines are read (in ranges,
 * where most of the book is queued), then decided `linesPerSlice` at a time, each slice one
 * transaction (one transaction of 100,000 decisions costs the object twice the time).
 * Each slice decides by the ledger as it stands then: once anything was written since the
 * run began (SQLite's count of changed rows moved), each slice's lines are read again by
 * the definition of undecided, and the rulebook whenever it may have changed, so a
 * judgement, a supersession or a retired rule that landed meanwhile is respected. A run
 * cut short leaves each decision whole; the next run decides the rest.
 */
export async function runRules(
  db: LedgerDb,
  face: Face | null,
  at: string,
  pause: Pause = () => Promise.resolve(),
  linesPerSlice = RUN_SLICE,
): Promise<number> {
  const postedFrom = face?.effectiveFrom;
  let written = totalChanges(db);
  let decide = compileRulebook(standingRules(db));
  const candidates = await undecidedInSlices(db, postedFrom, pause, linesPerSlice * READ_OVER_DECIDE);
  // Whether another call has written since the run began: from then on every slice's lines
  // are asked again (the candidates may be stale), and the rulebook whenever it may have moved.
  let othersWrote = false;
  let decided = 0;
  for (let from = 0; from < candidates.length; from += linesPerSlice) {
    if (from > 0) await pause();
    let lines: UndecidedRow[] = candidates.slice(from, from + linesPerSlice);
    decided += db.transaction((tx) => {
      if (totalChanges(tx) !== written) {
        othersWrote = true;
        decide = compileRulebook(standingRules(tx));
      }
      if (othersWrote) lines = undecidedRows(tx, { postedFrom, among: lines.map((l) => l.aId) });
      const decisions = decisionsBy(decide, lines);
      appendDecisionsOfRows(tx, decisions, lines, at);
      return decisions.length;
    });
    written = totalChanges(db);
  }
  return decided;
}

/** Reading an undecided line costs run-rules about a fifth of deciding it, so a slice reads this many times the lines a slice decides. */
const READ_OVER_DECIDE = 5;

/**
 * The undecided lines in line order for run-rules. Where most of the book is queued (a
 * first run), they are read in ranges of `linesPerSlice` lines with `pause()` between, not
 * in one statement of a tenth of a second or more; where the queue is small, its index
 * names them in one short read.
 */
async function undecidedInSlices(
  db: LedgerDb,
  postedFrom: string | null | undefined,
  pause: Pause,
  linesPerSlice: number,
): Promise<UndecidedRow[]> {
  if (queueIsSmall(db)) return undecidedRows(db, { postedFrom });
  const lines: UndecidedRow[] = [];
  await inLineRanges(db, linesPerSlice, pause, (after, upTo) => {
    for (const line of undecidedRows(db, { postedFrom, newerThan: after, upTo })) lines.push(line);
  });
  return lines;
}

/** Rows changed by every statement so far on this object's connection (triggers included): a cheap "did anyone write?". */
function totalChanges(db: LedgerHandle): number {
  return db.get<{ n: number }>(sql`SELECT total_changes() AS n`).n;
}
