/**
 * The auditor view: what a read-only grant shows, over the books on the tenant's face.
 * - months: calendar-month totals of the lines in books (relation C, as the dashboard reads it);
 * - pocket_flagged: the owner add-back list, the booked lines under `draw` categories;
 * - receipts: the provider's verbatim records of those flagged lines.
 */
import { and, eq, sql } from "drizzle-orm";
import { addMonths } from "../../clock";
import { listCategoryTotals, onFace } from "../books/reads";
import { normalName, taxonomy } from "../books/categories";
import type { LedgerHandle } from "../store/db";
import type { Face } from "../face";
import { JsonFragment, toJson } from "../store/json-text";
import { aLines, cMonthTotals, cRows } from "../store/schema";

/**
 * The auditor view as JSON text, its `grant_id` the grant the token reads under. The
 * add-back list and its records are written by SQLite (thousands of lines at 100,000, each
 * record as stored): they never become objects in the object or in the Worker.
 */
export function auditorViewJson(db: LedgerHandle, face: Face, grantId: number): string {
  const drawNames = new Set(taxonomy(db).filter((t) => t.header_key === "draw").map((t) => normalName(t.name)));
  const labels = listCategoryTotals(db, face)
    .map((c) => c.category)
    .filter((c) => drawNames.has(normalName(c)));
  const order = sql`ORDER BY ${cRows.postedOn}, ${cRows.srcId}`;
  const flagged = db.get<{ pocket: string; receipts: string }>(sql`
    SELECT json_group_array(json_object('side', ${cRows.side}, 'src_id', ${cRows.srcId}, 'posted_on', ${cRows.postedOn},
        'description', ${cRows.description}, 'amount_cents', ${cRows.amountCents}, 'category', ${cRows.category}) ${order}) AS pocket,
      -- Lines in books are side A: their provider records come with them, not by a query per row.
      -- A record is JSON.stringify's text (feed.ts), spliced in as it stands: json() would parse
      -- every one again (6-13 ms of a 61-69 ms read at 100,000 lines).
      '[' || coalesce(group_concat('{"side":' || json_quote(${cRows.side}) || ',"src_id":' || ${cRows.srcId} || ',"raw":' ||
        (SELECT ${aLines.raw} FROM ${aLines} WHERE ${aLines.id} = ${cRows.srcId}) || '}', ',' ${order}), '') || ']' AS receipts
    FROM ${cRows}
    -- One bound value however many labels: the object's SQLite binds at most 100 per statement.
    WHERE ${and(onFace(face), eq(cRows.state, "in books"), sql`${cRows.category} IN (SELECT value FROM json_each(${JSON.stringify(labels)}))`)}`)!;
  return toJson({
    grant_id: grantId,
    months: bookedMonths(db, face),
    pocket_flagged: new JsonFragment(flagged.pocket),
    receipts: new JsonFragment(flagged.receipts),
  });
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
