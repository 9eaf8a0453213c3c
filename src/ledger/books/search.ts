/**
 * The books searched as the workspace searches them: the list's filters (dates, category,
 * text) and two more, the amount's size and what decided the line (its latest decision's
 * engine). Each row says what decided it. Without the two, this is the list as the API
 * serves it (`listRows`, with its running figures).
 */
import { and, sql, type SQL } from "drizzle-orm";
import type { Face } from "../face";
import type { LedgerDb, LedgerHandle } from "../store/db";
import { bLines, cRows, DECIDED_NOT_BY_RULE, decisions } from "../store/schema";
import { isQueueLabel } from "./queue-label";
import type { Engine } from "./explanation";
import { LIST_ORDER, listRows, rowColumns, rowConditions, toRow, type Row, type RowFilter } from "./reads";

/** Every engine a line can be decided by, and `none`. */
export const ENGINES: readonly Engine[] = ["human", "rule", "model", "tail", "none"];

export interface SearchFilter extends RowFilter {
  /** The amount's size (money in or out alike), in cents, inclusive. */
  minCents?: number;
  maxCents?: number;
  /** Only side-A lines decided by this engine (`none`: decided by nothing). */
  engine?: Engine;
}

export interface FoundRow extends Row {
  /** What decided the line: its latest decision's engine (for side B, its twin's). */
  engine: Engine;
}

export interface Found {
  rows: FoundRow[];
  total: number;
  total_cents: number;
}

export function searchRows(db: LedgerDb, face: Face, filter: SearchFilter, page: number, perPage: number): Found {
  const narrowed = filter.minCents !== undefined || filter.maxCents !== undefined || filter.engine !== undefined;
  if (!narrowed) {
    const listed = listRows(db, face, filter, page, perPage);
    return { ...listed, rows: withEngines(db, listed.rows) };
  }
  const where = and(
    rowConditions(face, filter),
    filter.minCents === undefined ? undefined : sql`abs(${cRows.amountCents}) >= ${filter.minCents}`,
    filter.maxCents === undefined ? undefined : sql`abs(${cRows.amountCents}) <= ${filter.maxCents}`,
    filter.engine === undefined ? undefined : engineCondition(filter.engine),
  );
  const totals = () =>
    filter.engine !== undefined && filter.minCents === undefined && filter.maxCents === undefined && !filter.q
      ? keptTotals(db, face, filter, filter.engine)
      : db
          .select({ total: sql<number>`count(*)`, totalCents: sql<number>`coalesce(sum(case when ${cRows.state} = 'in books' then ${cRows.amountCents} else 0 end), 0)` })
          .from(cRows)
          .where(where)
          .get()!;
  const byKeys = (keys: SQL) => db.select(rowColumns).from(cRows).where(sql`(${cRows.side}, ${cRows.srcId}) IN ${keys}`).orderBy(...LIST_ORDER).all().map(toRow);
  if (filter.q) {
    // A word filter reads every matching row anyway: the totals over all of them and the
    // page's slice of their keys in one pass, as the list does.
    const matches = db
      .select({
        side: cRows.side,
        srcId: cRows.srcId,
        total: sql<number>`count(*) OVER ()`,
        totalCents: sql<number>`sum(case when ${cRows.state} = 'in books' then ${cRows.amountCents} else 0 end) OVER ()`,
      })
      .from(cRows)
      .where(where)
      .orderBy(...LIST_ORDER)
      .limit(perPage)
      .offset((page - 1) * perPage)
      .all();
    const first = matches[0];
    if (!first) {
      const counted = totals();
      return { rows: [], total: counted.total, total_cents: counted.totalCents };
    }
    const keys = JSON.stringify(matches.map((m) => [m.side, m.srcId]));
    const rows = byKeys(sql`(SELECT value ->> 0, value ->> 1 FROM json_each(${keys}))`);
    return { rows: withEngines(db, rows), total: first.total, total_cents: first.totalCents };
  }
  // The page's keys from an index in list order (the list's, which carries the amount and
  // the state; or the engine's), then the page's rows. The totals from the same index, or
  // from the kept daily figures when only dates, a category and the engine narrow the list.
  const counted = totals();
  if (counted.total === 0) return { rows: [], total: 0, total_cents: 0 };
  const pageKeys = db.select({ side: cRows.side, srcId: cRows.srcId }).from(cRows).where(where).orderBy(...LIST_ORDER).limit(perPage).offset((page - 1) * perPage);
  return { rows: withEngines(db, byKeys(sql`${pageKeys}`)), total: counted.total, total_cents: counted.totalCents };
}

/**
 * Side-A rows whose latest decision is the engine's (`none`: rows nothing decided), by the
 * engine relation C keeps per row. The engines that decide fewer lines than the rules are
 * read from their partial index (its condition repeated as written, so SQLite uses it);
 * undecided lines have no category, so the category index names them.
 */
function engineCondition(engine: Engine): SQL {
  // `+side`: the side is a test on each row, never the way in (a scan of every side-A row by
  // the key, then a sort, which SQLite picks for `side = 'A'` without the unary plus).
  const sideA = sql`+${cRows.side} = 'A'`;
  switch (engine) {
    case "none":
      return sql`${sideA} AND ${cRows.category} IS NULL AND ${cRows.engine} IS NULL`;
    case "rule":
      return sql`${sideA} AND ${cRows.engine} = 'rule'`;
    default:
      return sql`${sideA} AND ${cRows.engine} = ${engine} AND ${sql.raw(DECIDED_NOT_BY_RULE)}`;
  }
}

/**
 * How many side-A lines an engine decided on the face, within the dates and the category,
 * and their booked total: from the kept daily figures (side B is the archived state), a
 * few rows a day, not the lines.
 */
function keptTotals(db: LedgerHandle, face: Face, filter: SearchFilter, engine: Engine): { total: number; totalCents: number } {
  const from = [face.effectiveFrom, filter.from].filter((d): d is string => !!d).sort().at(-1);
  const category = filter.cat === undefined ? sql`` : isQueueLabel(filter.cat) ? sql`AND queued = 1` : sql`AND queued = 0 AND category = ${filter.cat}`;
  return db.get<{ total: number; totalCents: number }>(sql`
    SELECT coalesce(sum(lines), 0) AS total, coalesce(sum(CASE WHEN state = 'in books' THEN amount_cents ELSE 0 END), 0) AS totalCents
    FROM c_day_totals
    WHERE state <> 'archived' AND engine = ${engine === "none" ? "" : engine} ${category}
      ${from === undefined ? sql`` : sql`AND posted_on >= ${from}`} ${filter.to ? sql`AND posted_on <= ${filter.to}` : sql``}`)!;
}

/** The rows with what decided each (a side-B row: its twin's engine). */
export function withEngines(db: LedgerHandle, rows: Row[]): FoundRow[] {
  const bIds = rows.filter((r) => r.side === "B").map((r) => r.src_id);
  const twins = new Map(
    bIds.length === 0
      ? []
      : db
          .all<{ id: number; twin: number }>(sql`SELECT id, twin_a_id AS twin FROM ${bLines} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(bIds)}))`)
          .map((b) => [b.id, b.twin] as const),
  );
  const aIdOf = (r: Row) => (r.side === "A" ? r.src_id : twins.get(r.src_id));
  const aIds = [...new Set(rows.map(aIdOf).filter((id): id is number => id !== undefined))];
  const engines = new Map(
    aIds.length === 0
      ? []
      : db
          .all<{ aId: number; engine: Engine }>(sql`SELECT a_id AS aId, engine FROM ${decisions} WHERE seq IN
              (SELECT max(seq) FROM ${decisions} WHERE a_id IN (SELECT value FROM json_each(${JSON.stringify(aIds)})) GROUP BY a_id)`)
          .map((d) => [d.aId, d.engine] as const),
  );
  return rows.map((r) => {
    const aId = aIdOf(r);
    return { ...r, engine: (aId === undefined ? undefined : engines.get(aId)) ?? "none" };
  });
}
