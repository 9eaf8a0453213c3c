/**
 * The rolling P&L as the workspace shows it: the sections' and lines' numbers with how many
 * transactions stand behind each, and one line's (or section's) contributing transactions
 * a page at a time. Read as the API reads them, so the page and the API never disagree:
 * the numbers from the report's totals form (the kept daily figures), the transactions
 * from `list_pnl_transactions`' pages. Neither reads the whole windows' lines.
 */
import type { Face } from "../face";
import type { LedgerHandle } from "../store/db";
import { rollingPnlJson, SECTIONS, WINDOWS, windowDays, type SectionName, type WindowName } from "./pnl";
import { pnlTransactionsPage, type PnlTransactionEntry } from "./pnl-transactions";

export interface PnlViewLine {
  category: string;
  current: number;
  prior: number;
  sign: 1 | -1;
  /** How many transactions contribute to each period. */
  current_lines: number;
  prior_lines: number;
}

export interface PnlViewSection {
  current: number;
  prior: number;
  derived: boolean;
  lines: PnlViewLine[];
}

export interface PnlViewWindow {
  from: string;
  to: string;
  prior_from: string;
  prior_to: string;
  sections: Record<SectionName, PnlViewSection>;
}

export interface PnlView {
  as_of: string;
  windows: Record<WindowName, PnlViewWindow>;
}

/** The totals form's lines as it writes them: each with its transactions counted, none listed. */
interface TotalsLine {
  category: string;
  current: number;
  prior: number;
  sign: 1 | -1;
  transaction_count: { current: number; prior: number };
}

interface TotalsReport {
  as_of: string;
  windows: Record<WindowName, Omit<PnlViewWindow, "sections"> & { sections: Record<SectionName, Omit<PnlViewSection, "lines"> & { lines: TotalsLine[] }> }>;
}

/** The report's totals form, a few kilobytes whatever the books hold. */
function totalsReport(db: LedgerHandle, face: Face, asOf: string): TotalsReport {
  return JSON.parse(rollingPnlJson(db, face, asOf, "totals")) as TotalsReport;
}

export function pnlOverview(db: LedgerHandle, face: Face, asOf: string): PnlView {
  const report = totalsReport(db, face, asOf);
  const windows = {} as Record<WindowName, PnlViewWindow>;
  for (const name of Object.keys(WINDOWS) as WindowName[]) {
    const { from, to, prior_from, prior_to, sections } = report.windows[name];
    const viewed = {} as Record<SectionName, PnlViewSection>;
    for (const section of SECTIONS) {
      const { current, prior, derived, lines } = sections[section];
      viewed[section] = {
        current,
        prior,
        derived,
        lines: lines.map(({ transaction_count, category, current, prior, sign }) => ({
          category,
          current,
          prior,
          sign,
          current_lines: transaction_count.current,
          prior_lines: transaction_count.prior,
        })),
      };
    }
    windows[name] = { from, to, prior_from, prior_to, sections: viewed };
  }
  return { as_of: report.as_of, windows };
}

export interface PnlDrill {
  window: WindowName;
  section: SectionName;
  /** Null: every line of the section. */
  category: string | null;
  period: "current" | "prior";
}

export interface PnlContributors {
  /** The period's first and last days. */
  from: string;
  to: string;
  /** The page's transactions, by category, the newest first within each (list_pnl_transactions' order). */
  transactions: PnlTransactionEntry[];
  /** Every contributing transaction, not only the page's. */
  total: number;
  /** Their amounts summed as the section counts them (each line's sign, and the section's own sign for money out). */
  cents: number;
}

/** The transactions behind a section's line (or the whole section) in one period, a page at a time. */
export function pnlContributors(db: LedgerHandle, face: Face, asOf: string, drill: PnlDrill, page: number, perPage: number): PnlContributors {
  const lines = totalsReport(db, face, asOf).windows[drill.window].sections[drill.section].lines.filter(
    (l) => drill.category === null || l.category === drill.category,
  );
  const cents = lines.reduce((sum, l) => sum + l.sign * l[drill.period], 0);
  const found = pnlTransactionsPage(db, face, {
    asOf,
    window: drill.window,
    part: drill.section,
    category: drill.category ?? undefined,
    period: drill.period,
    page,
    perPage,
  });
  const days = windowDays(asOf, drill.window);
  const [from, to] = drill.period === "current" ? [days.from, days.to] : [days.prior_from, days.prior_to];
  return { from, to, transactions: found.transactions, total: found.total, cents };
}
