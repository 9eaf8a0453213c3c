/**
 * The rolling profit-and-loss report (docs/decisions.md, "Reports and parity").
 *
 * Two windows, 7 and 30 days ending on `as_of` (America/Chicago dates), each compared with
 * the same number of days before it. Booked lines on the caller's face only. A line's
 * section comes from its category's header in the tenant's taxonomy: income -> revenue,
 * cogs -> cogs, expense -> biz_expenses, draw -> owners_draw; transfers and lines whose
 * category the taxonomy does not hold are in no section. The rows are read in SQL, bounded
 * to the two windows, never the whole ledger.
 *
 * The report lists every booked transaction of its 60 days several times over (in each
 * window, and again in the derived sections): 13,000 entries, 1.9 MB, at 100,000 lines.
 * So SQLite writes each category's transactions as JSON text, per stretch of days, and the
 * answer is assembled around those fragments as text: neither the rows nor the answer
 * become objects to be serialised again (docs/performance.md).
 */
import { sql } from "drizzle-orm";
import { addDays } from "../../clock";
import { normalName, taxonomy, type HeaderKey } from "../books/categories";
import type { LedgerHandle } from "../store/db";
import type { Face } from "../face";
import { JsonFragment, toJson } from "../store/json-text";

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

/**
 * The days back from `as_of` the windows' periods are cut from: 7 and 14 for the 7-day
 * window, 30 and 60 for the 30-day one. A stretch runs from one bound (exclusive) to the
 * next (inclusive): days 1-7, 8-14, 15-30 and 31-60 back. Each period is whole stretches.
 */
const BOUNDS = [...new Set(Object.values(WINDOWS).flatMap((days) => [days, 2 * days]))].sort((a, b) => a - b);
const stretchesWithin = (fromDays: number, toDays: number) => BOUNDS.flatMap((bound, k) => (bound > fromDays && bound <= toDays ? [k] : []));
const CURRENT_STRETCHES = Object.fromEntries(Object.entries(WINDOWS).map(([name, days]) => [name, stretchesWithin(0, days)])) as Record<WindowName, number[]>;
const PRIOR_STRETCHES = Object.fromEntries(Object.entries(WINDOWS).map(([name, days]) => [name, stretchesWithin(days, 2 * days)])) as Record<WindowName, number[]>;

/** One category's booked lines in one stretch: their sum, and their transactions as JSON arrays (oldest first). */
interface Stretch {
  category: string;
  stretch: number;
  cents: number;
  /** Each transaction with `period: "current"`, when the stretch is part of some window's current period. */
  asCurrent: string;
  /** The same with `period: "prior"`. */
  asPrior: string;
}

/** A line as the report carries it: its transactions are JSON text SQLite wrote. */
type LineText = Omit<PnlLine, "transactions"> & { transactions: JsonFragment };
type SectionText = Omit<PnlSection, "lines"> & { lines: LineText[] };

/** The rolling P&L as the endpoint answers it: JSON text. */
export function rollingPnlJson(db: LedgerHandle, face: Face, asOf: string): string {
  const headerOf = new Map(taxonomy(db).map((e) => [normalName(e.name), e.header_key]));
  const stretchFrom = BOUNDS.map((days) => addDays(asOf, -days + 1));
  const earliest = stretchFrom.at(-1)!;
  // The face's floor, when later, bounds the read instead.
  const from = face.effectiveFrom !== null && face.effectiveFrom > earliest ? face.effectiveFrom : earliest;
  const inList = (stretches: number[]) => sql.join(stretches.map((k) => sql`${k}`), sql`, `);
  const transaction = (period: "current" | "prior") =>
    sql`json_object('side', side, 'src_id', src_id, 'posted_on', posted_on, 'description', description, 'amount_cents', amount_cents, 'period', ${period})`;
  const stretches = db.all<Stretch>(sql`
    SELECT category, stretch, sum(amount_cents) AS cents,
      json_group_array(${transaction("current")} ORDER BY posted_on, side, src_id) FILTER (WHERE stretch IN (${inList(Object.values(CURRENT_STRETCHES).flat())})) AS asCurrent,
      json_group_array(${transaction("prior")} ORDER BY posted_on, side, src_id) FILTER (WHERE stretch IN (${inList(Object.values(PRIOR_STRETCHES).flat())})) AS asPrior
    FROM (
      SELECT side, src_id, posted_on, description, amount_cents, category,
        CASE ${sql.join(stretchFrom.map((day, k) => sql`WHEN posted_on >= ${day} THEN ${k}`), sql` `)} END AS stretch
      FROM c_rows
      WHERE state = 'in books' AND category IS NOT NULL AND posted_on >= ${from} AND posted_on <= ${asOf})
    GROUP BY category, stretch`);

  // Each label's section once, not once per stretch.
  const sectionOfLabel = new Map<string, BaseSection | undefined>();
  const sectionOf = (category: string) => {
    if (!sectionOfLabel.has(category)) {
      const header = headerOf.get(normalName(category));
      sectionOfLabel.set(category, header === undefined ? undefined : SECTION_OF_HEADER[header]);
    }
    return sectionOfLabel.get(category);
  };

  const windows = {} as Record<WindowName, Omit<PnlWindow, "sections"> & { sections: Record<SectionName, SectionText> }>;
  for (const [name, days] of Object.entries(WINDOWS) as [WindowName, number][]) {
    const from = addDays(asOf, -days + 1);
    const priorTo = addDays(from, -1);
    const priorFrom = addDays(priorTo, -days + 1);
    const base = {} as Record<BaseSection, SectionText>;
    for (const section of Object.keys(NATURAL_SIGN) as BaseSection[]) {
      const lines = new Map<string, { current: number; prior: number; parts: { stretch: number; text: string }[] }>();
      for (const s of stretches) {
        if (sectionOf(s.category) !== section) continue;
        const period = CURRENT_STRETCHES[name].includes(s.stretch) ? "current" : PRIOR_STRETCHES[name].includes(s.stretch) ? "prior" : undefined;
        if (!period) continue;
        const line = lines.get(s.category) ?? { current: 0, prior: 0, parts: [] };
        line[period] += NATURAL_SIGN[section] * s.cents;
        line.parts.push({ stretch: s.stretch, text: period === "current" ? s.asCurrent : s.asPrior });
        lines.set(s.category, line);
      }
      // Older stretches first: each line's transactions run from the oldest.
      const sorted: LineText[] = [...lines.entries()]
        .map(([category, { current, prior, parts }]) => ({
          category,
          current,
          prior,
          sign: 1 as const,
          transactions: joinArrays(parts.sort((a, b) => b.stretch - a.stretch).map((p) => p.text)),
        }))
        .sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
      base[section] = { current: sum(sorted, "current"), prior: sum(sorted, "prior"), derived: false, lines: sorted };
    }
    const sections = {} as Record<SectionName, SectionText>;
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
  return toJson({ as_of: asOf, lineage_basis: "unreadable", lists_source: LISTS_SOURCE, windows });
}

/** The rolling P&L as objects, for the parity verdict (read once a day). */
export function rollingPnl(db: LedgerHandle, face: Face, asOf: string): PnlReport {
  return JSON.parse(rollingPnlJson(db, face, asOf)) as PnlReport;
}

/** JSON arrays as text, joined into one, in the order given. */
function joinArrays(arrays: string[]): JsonFragment {
  return new JsonFragment(`[${arrays.map((a) => a.slice(1, -1)).filter((items) => items !== "").join(",")}]`);
}

function sum(lines: { current: number; prior: number }[], period: "current" | "prior"): number {
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
