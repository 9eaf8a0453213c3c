/**
 * The auditor view: what a read-only grant shows, over the books on the tenant's face.
 * - months: calendar-month totals of the lines in books (relation C, as the dashboard reads it);
 * - add_backs: how many booked lines are under `draw` categories, and their total, per category;
 * - pocket_flagged: the owner add-back list, those lines (a page of them, or all);
 * - receipts: the provider's verbatim records of the listed lines.
 */
import { and, eq, sql } from "drizzle-orm";
import { addMonths } from "../../clock";
import { listCategoryTotals, onFace } from "../books/reads";
import { normalName, taxonomy } from "../books/categories";
import type { LedgerHandle } from "../store/db";
import type { Face } from "../face";
import { JsonFragment, toJson } from "../store/json-text";
import { aLines, cMonthTotals, cRows } from "../store/schema";

/** `paged`: the add-backs a page at a time with their totals; `full`: the contract's view, every add-back with its record. */
export const AUDITOR_VIEW_FORMS = ["paged", "full"] as const;
export type AuditorViewForm = (typeof AUDITOR_VIEW_FORMS)[number];

export interface AuditorViewAsk {
  form: AuditorViewForm;
  /** The page of add-backs, from 1 (paged form). */
  page: number;
  perPage: number;
}

/**
 * The auditor view as JSON text, its `grant_id` the grant the token reads under. The months
 * and the add-backs' totals are kept figures; the add-back list and its records (in full,
 * thousands of lines at 100,000, each record as stored) are written by SQLite: they never
 * become objects in the object or in the Worker.
 */
export function auditorViewJson(db: LedgerHandle, face: Face, grantId: number, ask: AuditorViewAsk): string {
  const drawNames = new Set(taxonomy(db).filter((t) => t.header_key === "draw").map((t) => normalName(t.name)));
  const draws = listCategoryTotals(db, face).filter((c) => drawNames.has(normalName(c.category)));
  const labels = JSON.stringify(draws.map((c) => c.category));
  const span = ask.form === "full" ? { where: sql``, page: sql`` } : pageSpan(db, face, labels, (ask.page - 1) * ask.perPage, ask.perPage);
  const flagged = db.get<{ pocket: string; receipts: string }>(sql`
    SELECT json_group_array(json_object('side', side, 'src_id', src_id, 'posted_on', posted_on,
        'description', description, 'amount_cents', amount_cents, 'category', category) ORDER BY posted_on, src_id) AS pocket,
      -- Lines in books are side A: their provider records come with them, not by a query per row.
      -- A record is JSON.stringify's text (feed.ts), spliced in as it stands: json() would parse
      -- every one again (6-13 ms of a 61-69 ms read at 100,000 lines).
      '[' || coalesce(group_concat('{"side":' || json_quote(side) || ',"src_id":' || src_id || ',"raw":' ||
        (SELECT ${aLines.raw} FROM ${aLines} WHERE ${aLines.id} = src_id) || '}', ',' ORDER BY posted_on, src_id), '') || ']' AS receipts
    FROM (
      SELECT ${cRows.side} AS side, ${cRows.srcId} AS src_id, ${cRows.postedOn} AS posted_on, ${cRows.description} AS description,
        ${cRows.amountCents} AS amount_cents, ${cRows.category} AS category
      FROM ${cRows}
      -- One bound value however many labels: the object's SQLite binds at most 100 per statement.
      WHERE ${and(onFace(face), eq(cRows.state, "in books"), sql`${cRows.category} IN (SELECT value FROM json_each(${labels}))`)} ${span.where}
      ORDER BY ${cRows.postedOn}, ${cRows.srcId} ${span.page})`)!;
  return toJson({
    grant_id: grantId,
    form: ask.form,
    months: bookedMonths(db, face),
    add_backs: {
      lines: draws.reduce((n, c) => n + c.lines, 0),
      total_cents: draws.reduce((n, c) => n + c.total_cents, 0),
      categories: [...draws].sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0)),
    },
    ...(ask.form === "full" ? {} : { page: ask.page, per_page: ask.perPage }),
    pocket_flagged: new JsonFragment(flagged.pocket),
    receipts: new JsonFragment(flagged.receipts),
  });
}

/**
 * Where a page of add-backs lies: the days it spans, found in the kept daily figures of the
 * draw categories (about a row per day), and how many of the first day's lines come before
 * it. The page then reads only those days' lines, instead of sorting every add-back to
 * skip to it.
 */
function pageSpan(db: LedgerHandle, face: Face, labels: string, offset: number, perPage: number) {
  const days = db.all<{ posted_on: string; lines: number }>(sql`
    SELECT posted_on, sum(lines) AS lines FROM c_day_totals
    WHERE state = 'in books' AND category IN (SELECT value FROM json_each(${labels}))
      ${face.effectiveFrom === null ? sql`` : sql`AND posted_on >= ${face.effectiveFrom}`}
    GROUP BY posted_on HAVING sum(lines) <> 0 ORDER BY posted_on`);
  let seen = 0;
  let from: string | null = null;
  let to: string | null = null;
  let skip = 0;
  for (const day of days) {
    const through = seen + day.lines;
    if (from === null && through > offset) {
      from = day.posted_on;
      skip = offset - seen;
    }
    if (from !== null) {
      to = day.posted_on;
      if (through >= offset + perPage) break;
    }
    seen = through;
  }
  // Past the last add-back: an empty page.
  if (from === null) return { where: sql`AND 0`, page: sql`` };
  return { where: sql`AND ${cRows.postedOn} >= ${from} AND ${cRows.postedOn} <= ${to}`, page: sql`LIMIT ${perPage} OFFSET ${skip}` };
}

/**
 * Calendar-month totals of the booked lines on the face, newest first, from the kept month
 * figures: every month after the floor's is whole on the face. The floor's own month is
 * summed from its rows on or after the floor (at most a month of them, by the list order's
 * index, bounded by the next month's `YYYY-MM`, which sorts after every date of the month
 * before it); months before it are not on the face.
 */
export function bookedMonths(db: LedgerHandle, face: Face) {
  const floor = face.effectiveFrom;
  const kept = sql`SELECT month, lines, money_in_cents, money_out_cents FROM ${cMonthTotals} WHERE state = 'in books'`;
  const source =
    floor === null
      ? kept
      : sql`${kept} AND month > ${monthOf(floor)} UNION ALL
        SELECT substr(posted_on, 1, 7), count(*), sum(max(amount_cents, 0)), sum(max(-amount_cents, 0)) FROM ${cRows}
        WHERE state = 'in books' AND posted_on >= ${floor} AND posted_on < ${addMonths(monthOf(floor), 1)} GROUP BY 1`;
  return db
    .all<{ month: string; lines: number; money_in_cents: number; money_out_cents: number }>(
      sql`SELECT * FROM (${source}) WHERE lines <> 0 ORDER BY month DESC`,
    )
    .map((m) => ({
      month: m.month,
      money_in_cents: m.money_in_cents,
      money_out_cents: m.money_out_cents,
      net_cents: m.money_in_cents - m.money_out_cents,
      lines: m.lines,
    }));
}

const monthOf = (isoDate: string) => isoDate.slice(0, 7);
