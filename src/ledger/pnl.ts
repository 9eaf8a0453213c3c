/**
 * The rolling profit-and-loss report (DECISIONS.md, "Rolling P&L and parity").
 *
 * Two windows, 7 and 30 days ending on `as_of` (America/Chicago dates), each compared with
 * the same number of days before it. Booked lines on the caller's face only. A line's
 * section comes from its category's header in the tenant's taxonomy: income -> revenue,
 * cogs -> cogs, expense -> biz_expenses, draw -> owners_draw; transfers and lines whose
 * category the taxonomy does not hold are in no section. The rows are read in SQL, bounded
 * to the two windows, never the whole ledger.
 */
import { sql } from "drizzle-orm";
import { addDays } from "../clock";
import { normalName, taxonomy, type HeaderKey } from "./categories";
import type { LedgerHandle } from "./db";
import type { Face } from "./face";

export const WINDOWS = { "7d": 7, "30d": 30 } as const;
export type WindowName = keyof typeof WINDOWS;
export const SECTIONS = ["revenue", "cogs", "gross_margin", "biz_expenses", "net_income", "owners_draw"] as const;
export type SectionName = (typeof SECTIONS)[number];
type BaseSection = "revenue" | "cogs" | "biz_expenses" | "owners_draw";

const SECTION_OF_HEADER: Partial<Record<HeaderKey, BaseSection>> = {
  income: "revenue",
  cogs: "cogs",
  expense: "biz_expenses",
  draw: "owners_draw",
};

/** Revenue counts money in; the cost sections count money out as positive (a refund lowers them). */
const NATURAL_SIGN: Record<BaseSection, 1 | -1> = { revenue: 1, cogs: -1, biz_expenses: -1, owners_draw: -1 };

/** The derived sections and the sign each component enters with. */
const DERIVED: Partial<Record<SectionName, [BaseSection, 1 | -1][]>> = {
  gross_margin: [["revenue", 1], ["cogs", -1]],
  net_income: [["revenue", 1], ["cogs", -1], ["biz_expenses", -1]],
};

export interface PnlTransaction {
  side: "A" | "B";
  src_id: number;
  posted_on: string;
  description: string;
  amount_cents: number;
  period: "current" | "prior";
}

export interface PnlLine {
  category: string;
  current: number;
  prior: number;
  sign: 1 | -1;
  transactions: PnlTransaction[];
}

export interface PnlSection {
  current: number;
  prior: number;
  derived: boolean;
  lines: PnlLine[];
}

export interface PnlWindow {
  from: string;
  to: string;
  prior_from: string;
  prior_to: string;
  sections: Record<SectionName, PnlSection>;
}

export interface PnlReport {
  as_of: string;
  lineage_basis: "unreadable";
  lists_source: string;
  windows: Record<WindowName, PnlWindow>;
}

/** What classified the rows: the tenant's own taxonomy (there is no house chart of accounts). */
export const LISTS_SOURCE = "tenant taxonomy (category -> header)";

export function rollingPnl(db: LedgerHandle, face: Face, asOf: string): PnlReport {
  const headerOf = new Map(taxonomy(db).map((e) => [normalName(e.name), e.header_key]));
  const earliest = addDays(asOf, -(2 * WINDOWS["30d"]) + 1);
  // The face's floor, when later, bounds the read instead.
  const from = face.effectiveFrom !== null && face.effectiveFrom > earliest ? face.effectiveFrom : earliest;
  // Raw rows, spared drizzle's per-row mapping: two months of a busy ledger is thousands
  // of them (their lookups are most of this report's cost; docs/performance.md).
  const rows = db.all<{ side: "A" | "B"; srcId: number; postedOn: string; description: string; amountCents: number; category: string | null }>(sql`
    SELECT side, src_id AS srcId, posted_on AS postedOn, description, amount_cents AS amountCents, category
    FROM c_rows
    WHERE state = 'in books' AND posted_on >= ${from} AND posted_on <= ${asOf}
    ORDER BY posted_on, side, src_id`);
  // Each label's section once, not once per line: a label names many lines.
  const sectionOfLabel = new Map<string, BaseSection | undefined>();
  const sectionOf = (category: string) => {
    if (!sectionOfLabel.has(category)) {
      const header = headerOf.get(normalName(category));
      sectionOfLabel.set(category, header === undefined ? undefined : SECTION_OF_HEADER[header]);
    }
    return sectionOfLabel.get(category);
  };
  const rowsOf = new Map<BaseSection, (typeof rows)[number][]>();
  for (const r of rows) {
    const section = r.category === null ? undefined : sectionOf(r.category);
    if (!section) continue;
    const bucket = rowsOf.get(section) ?? [];
    bucket.push(r);
    rowsOf.set(section, bucket);
  }

  const windows = {} as Record<WindowName, PnlWindow>;
  for (const [name, days] of Object.entries(WINDOWS) as [WindowName, number][]) {
    const from = addDays(asOf, -days + 1);
    const priorTo = addDays(from, -1);
    const priorFrom = addDays(priorTo, -days + 1);
    const base = {} as Record<BaseSection, PnlSection>;
    for (const section of Object.keys(NATURAL_SIGN) as BaseSection[]) {
      const lines = new Map<string, PnlLine>();
      for (const r of rowsOf.get(section) ?? []) {
        if (r.postedOn < priorFrom) continue;
        const period = r.postedOn >= from ? "current" : "prior";
        const line = lines.get(r.category!) ?? { category: r.category!, current: 0, prior: 0, sign: 1 as const, transactions: [] };
        line[period] += NATURAL_SIGN[section] * r.amountCents;
        line.transactions.push({ side: r.side, src_id: r.srcId, posted_on: r.postedOn, description: r.description, amount_cents: r.amountCents, period });
        lines.set(r.category!, line);
      }
      const sorted = [...lines.values()].sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
      base[section] = { current: sum(sorted, "current"), prior: sum(sorted, "prior"), derived: false, lines: sorted };
    }
    const sections = {} as Record<SectionName, PnlSection>;
    for (const section of SECTIONS) {
      const components = DERIVED[section];
      if (!components) {
        sections[section] = base[section as BaseSection];
        continue;
      }
      const lines = components.flatMap(([component, sign]) => base[component].lines.map((l) => ({ ...l, sign })));
      sections[section] = {
        current: lines.reduce((s, l) => s + l.sign * l.current, 0),
        prior: lines.reduce((s, l) => s + l.sign * l.prior, 0),
        derived: true,
        lines,
      };
    }
    windows[name] = { from, to: asOf, prior_from: priorFrom, prior_to: priorTo, sections };
  }
  return { as_of: asOf, lineage_basis: "unreadable", lists_source: LISTS_SOURCE, windows };
}

function sum(lines: PnlLine[], period: "current" | "prior"): number {
  return lines.reduce((s, l) => s + l[period], 0);
}

/** What the twelve comparison numbers are read from: each section's `current` in each window. */
export interface SectionNumbers {
  windows: Record<WindowName, { sections: Record<SectionName, { current: number }> }>;
}

/** The twelve comparison numbers: each section's `current` in each window. */
export function twelveNumbers(report: SectionNumbers): Record<`${WindowName}.${SectionName}`, number> {
  const out = {} as Record<`${WindowName}.${SectionName}`, number>;
  for (const w of Object.keys(WINDOWS) as WindowName[]) for (const s of SECTIONS) out[`${w}.${s}`] = report.windows[w].sections[s].current;
  return out;
}
