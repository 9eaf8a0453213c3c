/**
 * The auditor view: what a read-only grant shows, over the books on the tenant's face.
 * - months: calendar-month totals of the lines in books (relation C, as the dashboard reads it);
 * - pocket_flagged: the owner add-back list, the booked lines under `draw` categories;
 * - receipts: the provider's verbatim records of those flagged lines.
 */
import { and, asc, desc, eq, isNotNull, sql } from "drizzle-orm";
import { moneyInCents, moneyOutCents, onFace } from "./books";
import { normalName, taxonomy } from "./categories";
import type { LedgerHandle } from "./db";
import type { Face } from "./face";
import { aLines, cRows } from "./schema";

export function auditorView(db: LedgerHandle, face: Face) {
  const booked = and(onFace(face), eq(cRows.state, "in books"));
  const month = sql<string>`substr(${cRows.postedOn}, 1, 7)`;
  const months = db
    .select({
      month,
      moneyIn: moneyInCents,
      moneyOut: moneyOutCents,
      lines: sql<number>`count(*)`,
    })
    .from(cRows)
    .where(booked)
    .groupBy(month)
    .orderBy(desc(month))
    .all()
    .map((m) => ({ month: m.month, money_in_cents: m.moneyIn, money_out_cents: m.moneyOut, net_cents: m.moneyIn - m.moneyOut, lines: m.lines }));

  const drawNames = new Set(taxonomy(db).filter((t) => t.header_key === "draw").map((t) => normalName(t.name)));
  const labels = db
    .selectDistinct({ category: cRows.category })
    .from(cRows)
    .where(and(booked, isNotNull(cRows.category)))
    .all()
    .map((r) => r.category!)
    .filter((c) => drawNames.has(normalName(c)));
  // One bound value however many labels: the object's SQLite binds at most 100 per statement.
  const flagged = db
    .select({
      side: cRows.side,
      srcId: cRows.srcId,
      postedOn: cRows.postedOn,
      description: cRows.description,
      amountCents: cRows.amountCents,
      category: cRows.category,
      // Lines in books are side A: their provider records come with them, not by a query per row.
      raw: sql<string>`(SELECT ${aLines.raw} FROM ${aLines} WHERE ${aLines.id} = ${cRows.srcId})`,
    })
    .from(cRows)
    .where(and(booked, sql`${cRows.category} IN (SELECT value FROM json_each(${JSON.stringify(labels)}))`))
    .orderBy(asc(cRows.postedOn), asc(cRows.srcId))
    .all();
  const pocket_flagged = flagged.map((r) => ({
    side: r.side,
    src_id: r.srcId,
    posted_on: r.postedOn,
    description: r.description,
    amount_cents: r.amountCents,
    category: r.category!,
  }));
  // As stored (JSON text): a value of unknown shape does not cross the object's RPC boundary typed.
  const receipts = flagged.map((r) => ({ side: r.side, src_id: r.srcId, raw_json: r.raw }));
  return { months, pocket_flagged, receipts };
}
