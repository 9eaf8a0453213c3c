/**
 * Relation C is read from `c_rows`, its running figures from `c_totals` (per category; those
 * before a paid floor in `c_floor_totals`), `c_month_totals` (per calendar month) and
 * `c_day_totals` (per day, category, currency and engine) and its words from `c_words`, all kept
 * by triggers (migrations 0013, 0014, 0016, 0017, 0025 and 0026).
 * Their definition is the `c_rows_derived` view; drift is how far the kept copies are from
 * it, and must always be zero.
 */
import { sql } from "drizzle-orm";
import type { LedgerHandle } from "../../src/ledger/store/db";

const COLUMNS = "side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason, currency, engine";

/** Running figures per account, state and category, derived from the rows `where` selects. */
const derivedTotals = (where: string) => `SELECT account_id, state, category IS NULL AS queued, coalesce(category, '') AS category, count(*) AS lines,
  sum(amount_cents) AS amount_cents FROM c_rows_derived ${where} GROUP BY 1, 2, 3, 4`;
// A kept figure of no lines is an empty group: it stays as a row, and must hold no money either.
const keptTotals = (table: string) => `SELECT account_id, state, queued, category, lines, amount_cents FROM ${table} WHERE lines <> 0 OR amount_cents <> 0`;
const DERIVED_MONTHS = `SELECT substr(posted_on, 1, 7) AS month, state, count(*) AS lines,
  sum(max(amount_cents, 0)) AS money_in_cents, sum(max(-amount_cents, 0)) AS money_out_cents FROM c_rows_derived GROUP BY 1, 2`;
const KEPT_MONTHS = `SELECT month, state, lines, money_in_cents, money_out_cents FROM c_month_totals
  WHERE lines <> 0 OR money_in_cents <> 0 OR money_out_cents <> 0`;
const DERIVED_DAYS = `SELECT state, posted_on, category IS NULL AS queued, coalesce(category, '') AS category, coalesce(currency, '') AS currency,
  coalesce(engine, '') AS engine, count(*) AS lines, sum(amount_cents) AS amount_cents FROM c_rows_derived GROUP BY 1, 2, 3, 4, 5, 6`;
const KEPT_DAYS = `SELECT state, posted_on, queued, category, currency, engine, lines, amount_cents FROM c_day_totals WHERE lines <> 0 OR amount_cents <> 0`;

function differing(db: LedgerHandle, left: string, right: string): number {
  const one = db.get<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM (${left} EXCEPT ${right})`)).n;
  const other = db.get<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM (${right} EXCEPT ${left})`)).n;
  return one + other;
}

export interface RelationCDrift {
  /** Rows of `c_rows` that differ from the derivation, counted from both sides. */
  rows: number;
  /** Figures of `c_totals` that differ from the derivation's, counted from both sides. */
  totals: number;
  /** Figures of `c_floor_totals` that differ from the derivation's before the floor `c_floor` holds (none kept when it holds none). */
  floorTotals: number;
  /** Figures of `c_month_totals` that differ from the derivation's, counted from both sides. */
  months: number;
  /** Figures of `c_day_totals` that differ from the derivation's, counted from both sides. */
  days: number;
  /** Entries of the `c_words` index that differ from the rows' descriptions, counted from both sides. */
  words: number;
}

/** Compares the kept copies with their definition (a scan of the books: for tests and checks, not requests). */
export function relationCDrift(db: LedgerHandle): RelationCDrift {
  return {
    rows: differing(db, `SELECT ${COLUMNS} FROM c_rows`, `SELECT ${COLUMNS} FROM c_rows_derived`),
    totals: differing(db, keptTotals("c_totals"), derivedTotals("")),
    floorTotals: differing(db, keptTotals("c_floor_totals"), derivedTotals("WHERE posted_on < (SELECT floor FROM c_floor)")),
    months: differing(db, KEPT_MONTHS, DERIVED_MONTHS),
    days: differing(db, KEPT_DAYS, DERIVED_DAYS),
    words: differing(db, "SELECT rowid, description FROM c_words", "SELECT src_id * 2 + (side = 'B'), description FROM c_rows_derived"),
  };
}
