/**
 * The rolling profit-and-loss report (docs/decisions.md, "Reports and parity").
 *
 * Two windows, 7 and 30 days ending on `as_of` (America/Chicago dates), each compared with
 * the same number of days before it. Booked lines on the caller's face only. A line's
 * section comes from its category's header in the tenant's taxonomy: income -> revenue,
 * cogs -> cogs, expense -> biz_expenses, draw -> owners_draw. Transfers are in no section.
 * Lines with no category, or a label the taxonomy does not hold, are in no section either:
 * they are gathered under the line "Uncategorised / unknown label" beside the sections,
 * and the report warns of them. Lines the bank gave in a currency other than the books'
 * are left out and counted.
 *
 * Two forms. `totals` (the default) reads its numbers from the kept daily figures
 * (`c_day_totals`): a few rows per day of the windows, whatever the books hold, and each
 * line says how many transactions it has; `list_pnl_transactions` pages them
 * (./pnl-transactions.ts). `full` is the contract's whole report, every line with its
 * transactions: 13,000 entries, 1.9 MB, at 100,000 lines, read from relation C's rows, so
 * SQLite writes each category's transactions as JSON text, per stretch of days, and the
 * answer is assembled around those fragments as text (docs/performance.md).
 */
import { sql } from "drizzle-orm";
import { addDays } from "../../clock";
import { normalName, taxonomy, type HeaderKey } from "../books/categories";
import { currentBooksCurrency } from "../books/currency";
import { UNCATEGORISED } from "../books/reads";
import type { LedgerHandle } from "../store/db";
import type { Face } from "../face";
import { JsonFragment, toJson } from "../store/json-text";

export const WINDOWS = { "7d": 7, "30d": 30 } as const;
export type WindowName = keyof typeof WINDOWS;
export const SECTIONS = ["revenue", "cogs", "gross_margin", "biz_expenses", "net_income", "owners_draw"] as const;
export type SectionName = (typeof SECTIONS)[number];
export type BaseSection = "revenue" | "cogs" | "biz_expenses" | "owners_draw";

const SECTION_OF_HEADER: Partial<Record<HeaderKey, BaseSection>> = {
  income: "revenue",
  cogs: "cogs",
  expense: "biz_expenses",
  draw: "owners_draw",
};

/** Revenue counts money in; the cost sections count money out as positive (a refund lowers them). */
const NATURAL_SIGN: Record<BaseSection, 1 | -1> = { revenue: 1, cogs: -1, biz_expenses: -1, owners_draw: -1 };
export const BASE_SECTIONS = Object.keys(NATURAL_SIGN) as BaseSection[];

/** The derived sections and the sign each component enters with. */
export const DERIVED: Partial<Record<SectionName, [BaseSection, 1 | -1][]>> = {
  gross_margin: [["revenue", 1], ["cogs", -1]],
  net_income: [["revenue", 1], ["cogs", -1], ["biz_expenses", -1]],
};

/** The line that gathers the booked lines no section takes but transfers: the queue's, and labels the taxonomy does not hold. */
export const UNKNOWN_LABEL_LINE = "Uncategorised / unknown label";

/** `totals`: numbers and counts, from the kept daily figures; `full`: the contract's report, every transaction listed. */
export const PNL_FORMS = ["totals", "full"] as const;
export type PnlForm = (typeof PNL_FORMS)[number];

// --- The contract's shape (DECISIONS.md, "Rolling P&L and parity"): the oracle's too. ---

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

/** The window whose periods cover every day the report reads (its current and prior periods together). */
const WIDEST: WindowName = (Object.keys(WINDOWS) as WindowName[]).reduce((a, b) => (WINDOWS[a] >= WINDOWS[b] ? a : b));

/** A window's days: its current period, and the prior one before it. */
export function windowDays(asOf: string, window: WindowName) {
  const from = addDays(asOf, -WINDOWS[window] + 1);
  const priorTo = addDays(from, -1);
  return { from, to: asOf, prior_from: addDays(priorTo, -WINDOWS[window] + 1), prior_to: priorTo };
}

/** Where a label's lines go: a section, no section (a transfer), or the unknown-label line. */
export type Placement = BaseSection | "transfer" | "unknown";

/** Places labels by their header in the tenant's taxonomy (names compared as the taxonomy compares them); null is the queue. */
export function labelPlacer(db: LedgerHandle): (category: string | null) => Placement {
  const headerOf = new Map(taxonomy(db).map((e) => [normalName(e.name), e.header_key]));
  const placed = new Map<string | null, Placement>();
  return (category) => {
    let placement = placed.get(category);
    if (placement === undefined) {
      const header = category === null ? undefined : headerOf.get(normalName(category));
      placement = header === undefined ? "unknown" : header === "transfer" ? "transfer" : SECTION_OF_HEADER[header]!;
      placed.set(category, placement);
    }
    return placement;
  };
}

/** The first day the report reads: the widest window's prior start, or the face's floor when later. */
export function firstDayRead(face: Face, asOf: string): string {
  const earliest = addDays(asOf, -BOUNDS.at(-1)! + 1);
  return face.effectiveFrom !== null && face.effectiveFrom > earliest ? face.effectiveFrom : earliest;
}

/** The stretch a booked line's date falls in, as SQL over `posted_on` (null before the first). */
function stretchOf(asOf: string) {
  return sql`CASE ${sql.join(BOUNDS.map((days, k) => sql`WHEN posted_on >= ${addDays(asOf, -days + 1)} THEN ${k}`), sql` `)} END`;
}

/**
 * A line's currency where it is foreign, else '' (the books' own, named or not), as SQL
 * over `currency` (null or '' where the bank named none): one group per label and stretch
 * for the books' own lines.
 */
function foreignOnly(booksCurrency: string) {
  return sql`CASE WHEN coalesce(currency, '') IN ('', ${booksCurrency}) THEN '' ELSE currency END`;
}

/** Booked lines of one label and currency ('' = the books' own) in one stretch: their sum and count, and in the full form their transactions. */
interface Figure {
  category: string | null;
  currency: string;
  stretch: number;
  cents: number;
  lines: number;
  /** JSON arrays of the transactions, oldest first, with `period: "current"`, when the stretch is part of some window's current period. */
  asCurrent?: string | null;
  /** The same with `period: "prior"`. */
  asPrior?: string | null;
}

interface FigureRow {
  queued: number;
  category: string;
  currency: string;
  stretch: number;
  cents: number;
  lines: number;
  asCurrent?: string | null;
  asPrior?: string | null;
}

const toFigure = (r: FigureRow): Figure => ({ ...r, category: r.queued ? null : r.category });

/**
 * The labels booked lines carry, from the running figures (a few rows): the kept daily
 * figures are keyed by label before day, so the P&L reads each label's days as one range.
 */
export const BOOKED_LABELS = sql`(SELECT category FROM c_totals WHERE state = 'in books')`;

/** The totals form's figures: the kept daily figures, summed per label, currency and stretch. */
function keptFigures(db: LedgerHandle, face: Face, asOf: string, booksCurrency: string): Figure[] {
  return db
    .all<FigureRow>(sql`
      SELECT queued, category, currency, stretch, sum(amount_cents) AS cents, sum(lines) AS lines FROM (
        SELECT queued, category, ${foreignOnly(booksCurrency)} AS currency, amount_cents, lines, ${stretchOf(asOf)} AS stretch
        FROM c_day_totals
        WHERE state = 'in books' AND category IN ${BOOKED_LABELS} AND posted_on >= ${firstDayRead(face, asOf)} AND posted_on <= ${asOf})
      GROUP BY queued, category, currency, stretch HAVING sum(lines) <> 0`)
    .map(toFigure);
}

/** The full form's figures: relation C's booked rows, their transactions written by SQLite as JSON arrays (none for another currency's lines). */
function rowFigures(db: LedgerHandle, face: Face, asOf: string, booksCurrency: string): Figure[] {
  const inList = (stretches: number[]) => sql.join(stretches.map((k) => sql`${k}`), sql`, `);
  const transaction = (period: "current" | "prior") =>
    sql`json_object('side', side, 'src_id', src_id, 'posted_on', posted_on, 'description', description, 'amount_cents', amount_cents, 'period', ${period})`;
  const ours = sql`currency = ''`;
  return db
    .all<FigureRow>(sql`
      SELECT queued, category, currency, stretch, sum(amount_cents) AS cents, count(*) AS lines,
        json_group_array(${transaction("current")} ORDER BY posted_on, side, src_id) FILTER (WHERE ${ours} AND stretch IN (${inList(Object.values(CURRENT_STRETCHES).flat())})) AS asCurrent,
        json_group_array(${transaction("prior")} ORDER BY posted_on, side, src_id) FILTER (WHERE ${ours} AND stretch IN (${inList(Object.values(PRIOR_STRETCHES).flat())})) AS asPrior
      FROM (
        SELECT side, src_id, posted_on, description, amount_cents, category IS NULL AS queued, coalesce(category, '') AS category,
          ${foreignOnly(booksCurrency)} AS currency, ${stretchOf(asOf)} AS stretch
        FROM c_rows
        WHERE state = 'in books' AND posted_on >= ${firstDayRead(face, asOf)} AND posted_on <= ${asOf})
      GROUP BY queued, category, currency, stretch`)
    .map(toFigure);
}

interface Count {
  current: number;
  prior: number;
}

/** A category line while it is gathered: its numbers, counts and (full form) transaction lists by stretch. */
interface Gathered {
  category: string | null;
  current: number;
  prior: number;
  count: Count;
  parts: { stretch: number; text: string }[];
}

type LineOut = { category: string; current: number; prior: number; sign: 1 | -1; transaction_count: Count; transactions?: JsonFragment };
type SectionOut = { current: number; prior: number; derived: boolean; lines: LineOut[] };

const labelOf = (category: string | null) => category ?? UNCATEGORISED;
const byLabel = (a: { category: string | null }, b: { category: string | null }) => {
  const [x, y] = [labelOf(a.category), labelOf(b.category)];
  return x < y ? -1 : x > y ? 1 : 0;
};

function gather(into: Map<string | null, Gathered>, f: Figure, period: "current" | "prior", sign: 1 | -1, form: PnlForm): void {
  const line = into.get(f.category) ?? { category: f.category, current: 0, prior: 0, count: { current: 0, prior: 0 }, parts: [] };
  line[period] += sign * f.cents;
  line.count[period] += f.lines;
  if (form === "full") line.parts.push({ stretch: f.stretch, text: (period === "current" ? f.asCurrent : f.asPrior) ?? "[]" });
  into.set(f.category, line);
}

/** Older stretches first: each line's transactions run from the oldest. */
const transactionsOf = (g: Gathered) => joinArrays(g.parts.sort((a, b) => b.stretch - a.stretch).map((p) => p.text));

/** The report as JSON text, in either form, from its figures. */
function assemble(asOf: string, booksCurrency: string, figures: Figure[], place: (category: string | null) => Placement, form: PnlForm): string {
  const ours = figures.filter((f) => f.currency === "");
  const foreign = figures.filter((f) => f.currency !== "");
  const windows = {} as Record<WindowName, unknown>;
  const unknownLabels = new Set<string>();
  let unknownLines = 0;
  let foreignLines = 0;
  const foreignCurrencies = new Map<string, number>();

  for (const name of Object.keys(WINDOWS) as WindowName[]) {
    const periodOf = (stretch: number) => (CURRENT_STRETCHES[name].includes(stretch) ? "current" : PRIOR_STRETCHES[name].includes(stretch) ? "prior" : undefined);
    const base = Object.fromEntries(BASE_SECTIONS.map((s) => [s, new Map<string | null, Gathered>()])) as Record<BaseSection, Map<string | null, Gathered>>;
    const unknown = new Map<string | null, Gathered>();
    for (const f of ours) {
      const period = periodOf(f.stretch);
      const placement = place(f.category);
      if (!period || placement === "transfer") continue;
      if (placement === "unknown") {
        // No section gives these a direction: their numbers are the books' own sums (money in positive).
        gather(unknown, f, period, 1, form);
        if (name === WIDEST) {
          unknownLabels.add(labelOf(f.category));
          unknownLines += f.lines;
        }
      } else {
        gather(base[placement], f, period, NATURAL_SIGN[placement], form);
      }
    }
    const foreignCount = { current: 0, prior: 0 };
    for (const f of foreign) {
      const period = periodOf(f.stretch);
      if (!period) continue;
      foreignCount[period] += f.lines;
      if (name === WIDEST) {
        foreignLines += f.lines;
        foreignCurrencies.set(f.currency, (foreignCurrencies.get(f.currency) ?? 0) + f.lines);
      }
    }

    const baseSections = {} as Record<BaseSection, SectionOut>;
    for (const section of BASE_SECTIONS) {
      const lines: LineOut[] = [...base[section].values()].sort(byLabel).map((g) => ({
        category: labelOf(g.category),
        current: g.current,
        prior: g.prior,
        sign: 1 as const,
        transaction_count: g.count,
        ...(form === "full" ? { transactions: transactionsOf(g) } : {}),
      }));
      baseSections[section] = { current: sum(lines, "current"), prior: sum(lines, "prior"), derived: false, lines };
    }
    const sections = {} as Record<SectionName, SectionOut>;
    for (const section of SECTIONS) {
      const components = DERIVED[section];
      if (!components) {
        sections[section] = baseSections[section as BaseSection];
        continue;
      }
      const lines = components.flatMap(([component, sign]) => baseSections[component].lines.map((l) => ({ ...l, sign })));
      sections[section] = {
        current: lines.reduce((s, l) => s + l.sign * l.current, 0),
        prior: lines.reduce((s, l) => s + l.sign * l.prior, 0),
        derived: true,
        lines,
      };
    }

    const labels = [...unknown.values()].sort(byLabel);
    const unknownLine = {
      category: UNKNOWN_LABEL_LINE,
      current: sum(labels, "current"),
      prior: sum(labels, "prior"),
      sign: 1 as const,
      transaction_count: { current: labels.reduce((n, l) => n + l.count.current, 0), prior: labels.reduce((n, l) => n + l.count.prior, 0) },
      labels: labels.map((l) => ({ category: labelOf(l.category), current: l.current, prior: l.prior, transaction_count: l.count })),
      ...(form === "full" ? { transactions: unknownTransactions(labels) } : {}),
    };
    windows[name] = {
      ...windowDays(asOf, name),
      sections,
      unknown_label: unknownLine,
      foreign_currency: { ...foreignCount, currencies: [...new Set(foreign.filter((f) => periodOf(f.stretch)).map((f) => f.currency))].sort() },
    };
  }

  const warnings = [];
  if (unknownLines > 0) {
    const labels = [...unknownLabels].sort();
    warnings.push({
      code: "unknown_label",
      lines: unknownLines,
      message:
        `${unknownLines} booked line${unknownLines === 1 ? "" : "s"} in the windows ${unknownLines === 1 ? "has" : "have"} no category or a label ` +
        `the taxonomy does not hold (${labels.map((l) => JSON.stringify(l)).join(", ")}): in no section, under the line "${UNKNOWN_LABEL_LINE}".`,
    });
  }
  if (foreignLines > 0) {
    const currencies = [...foreignCurrencies.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([c, n]) => `${c} ${n}`);
    warnings.push({
      code: "foreign_currency",
      lines: foreignLines,
      message:
        `${foreignLines} booked line${foreignLines === 1 ? " is" : "s are"} in a currency other than the books' (${booksCurrency}): ` +
        `${currencies.join(", ")}. ${foreignLines === 1 ? "It is" : "They are"} left out of the P&L.`,
    });
  }
  return toJson({ as_of: asOf, lineage_basis: "unreadable", lists_source: LISTS_SOURCE, form, currency: booksCurrency, warnings, windows });
}

/** The unknown-label line's transactions, each with its label, oldest first: parsed, since each entry gains its label. */
function unknownTransactions(labels: Gathered[]): JsonFragment {
  const entries = labels.flatMap((l) =>
    (JSON.parse(transactionsOf(l).text) as PnlTransaction[]).map((t) => ({ ...t, category: labelOf(l.category) })),
  );
  entries.sort((a, b) => (a.posted_on < b.posted_on ? -1 : a.posted_on > b.posted_on ? 1 : 0) || (a.side < b.side ? -1 : a.side > b.side ? 1 : 0) || a.src_id - b.src_id);
  return new JsonFragment(JSON.stringify(entries));
}

/** The rolling P&L as the endpoint answers it: JSON text, in the form asked for. */
export function rollingPnlJson(db: LedgerHandle, face: Face, asOf: string, form: PnlForm = "totals"): string {
  const { currency } = currentBooksCurrency(db);
  const figures = form === "full" ? rowFigures(db, face, asOf, currency) : keptFigures(db, face, asOf, currency);
  return assemble(asOf, currency, figures, labelPlacer(db), form);
}

/** The rolling P&L in full, as objects, for the parity verdict (read once a day). */
export function rollingPnl(db: LedgerHandle, face: Face, asOf: string): PnlReport {
  return JSON.parse(rollingPnlJson(db, face, asOf, "full")) as PnlReport;
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
