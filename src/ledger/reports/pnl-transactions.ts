/**
 * The P&L's contributing transactions, a page at a time (`list_pnl_transactions`): the
 * booked lines behind one section of one window (or behind the "Uncategorised / unknown
 * label" line), optionally one category line and one period of it. The labels a section
 * takes, and how many lines they hold, come from the kept daily figures; the page's lines
 * from relation C by the category index.
 */
import { sql } from "drizzle-orm";
import { currentBooksCurrency } from "../books/currency";
import { UNCATEGORISED } from "../books/reads";
import type { LedgerHandle } from "../store/db";
import type { Face } from "../face";
import { BOOKED_LABELS, DERIVED, labelPlacer, SECTIONS, windowDays, type BaseSection, type PnlTransaction, type Placement, type SectionName, type WindowName } from "./pnl";

/** The sections a page can be asked of, and the unknown-label line. */
export const PNL_PARTS = [...SECTIONS, "unknown_label"] as const;
export type PnlPart = (typeof PNL_PARTS)[number];

export interface PnlTransactionsAsk {
  asOf: string;
  window: WindowName;
  part: PnlPart;
  /** One category line, as the report names it (`uncategorised` is the queue's, under the unknown-label line). */
  category?: string;
  period?: "current" | "prior";
  page: number;
  perPage: number;
}

export interface PnlTransactionEntry extends PnlTransaction {
  category: string;
}

export interface PnlTransactionsPage {
  transactions: PnlTransactionEntry[];
  total: number;
}

/** The placements a part takes its lines from: a derived section's are its components'. */
function placementsOf(part: PnlPart): Placement[] {
  if (part === "unknown_label") return ["unknown"];
  return DERIVED[part as SectionName]?.map(([component]) => component) ?? [part as BaseSection];
}

export function pnlTransactionsPage(db: LedgerHandle, face: Face, ask: PnlTransactionsAsk): PnlTransactionsPage {
  const booksCurrency = currentBooksCurrency(db).currency;
  const days = windowDays(ask.asOf, ask.window);
  const periodFrom = ask.period === "current" ? days.from : days.prior_from;
  const from = face.effectiveFrom !== null && face.effectiveFrom > periodFrom ? face.effectiveFrom : periodFrom;
  const to = ask.period === "prior" ? days.prior_to : days.to;
  const ours = sql`currency IN ('', ${booksCurrency})`;

  const place = labelPlacer(db);
  const placements = placementsOf(ask.part);
  const labels = db
    .all<{ queued: number; category: string; lines: number }>(
      sql`SELECT queued, category, sum(lines) AS lines FROM c_day_totals
        WHERE state = 'in books' AND category IN ${BOOKED_LABELS} AND posted_on >= ${from} AND posted_on <= ${to} AND ${ours}
        GROUP BY queued, category HAVING sum(lines) <> 0`,
    )
    .map((l) => ({ category: l.queued ? null : l.category, lines: l.lines }))
    .filter((l) => placements.includes(place(l.category)) && (ask.category === undefined || (l.category ?? UNCATEGORISED) === ask.category));
  const total = labels.reduce((n, l) => n + l.lines, 0);
  if (total === 0) return { transactions: [], total };

  const named = JSON.stringify(labels.flatMap((l) => (l.category === null ? [] : [l.category])));
  const queue = labels.some((l) => l.category === null);
  const rows = db.all<Omit<PnlTransactionEntry, "period" | "category"> & { category: string | null }>(sql`
    SELECT side, src_id, posted_on, description, amount_cents, category FROM c_rows
    WHERE state = 'in books' AND posted_on >= ${from} AND posted_on <= ${to} AND coalesce(currency, '') IN ('', ${booksCurrency})
      AND (category IN (SELECT value FROM json_each(${named}))${queue ? sql` OR category IS NULL` : sql``})
    ORDER BY category, posted_on DESC, side, src_id DESC
    LIMIT ${ask.perPage} OFFSET ${(ask.page - 1) * ask.perPage}`);
  return {
    transactions: rows.map((r) => ({
      side: r.side,
      src_id: r.src_id,
      posted_on: r.posted_on,
      description: r.description,
      amount_cents: r.amount_cents,
      period: r.posted_on >= days.from ? "current" : "prior",
      category: r.category ?? UNCATEGORISED,
    })),
    total,
  };
}
