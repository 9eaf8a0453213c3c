/**
 * The rolling P&L as the workspace shows it: the sections' and lines' numbers with how many
 * transactions stand behind each, and one line's (or section's) contributing transactions
 * a page at a time. Read from the report itself (`rollingPnl`), so the page and the API
 * never disagree.
 */
import type { Face } from "../face";
import type { LedgerHandle } from "../store/db";
import { rollingPnl, SECTIONS, WINDOWS, type PnlTransaction, type SectionName, type WindowName } from "./pnl";

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

export function pnlOverview(db: LedgerHandle, face: Face, asOf: string): PnlView {
  const report = rollingPnl(db, face, asOf);
  const windows = {} as Record<WindowName, PnlViewWindow>;
  for (const name of Object.keys(WINDOWS) as WindowName[]) {
    const { sections, ...dates } = report.windows[name];
    const viewed = {} as Record<SectionName, PnlViewSection>;
    for (const section of SECTIONS) {
      const { lines, ...numbers } = sections[section];
      viewed[section] = {
        ...numbers,
        lines: lines.map(({ transactions, ...line }) => ({
          ...line,
          current_lines: transactions.filter((t) => t.period === "current").length,
          prior_lines: transactions.filter((t) => t.period === "prior").length,
        })),
      };
    }
    windows[name] = { ...dates, sections: viewed };
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
  transactions: (PnlTransaction & { category: string; sign: 1 | -1 })[];
  /** Every contributing transaction, not only the page's. */
  total: number;
  /** Their amounts summed as the section counts them (each line's sign, and the section's own sign for money out). */
  cents: number;
}

/** The transactions behind a section's line (or the whole section) in one period, oldest first, a page at a time. */
export function pnlContributors(db: LedgerHandle, face: Face, asOf: string, drill: PnlDrill, page: number, perPage: number): PnlContributors {
  const window = rollingPnl(db, face, asOf).windows[drill.window];
  const section = window.sections[drill.section];
  const lines = section.lines.filter((l) => drill.category === null || l.category === drill.category);
  const all = lines.flatMap((l) =>
    l.transactions.filter((t) => t.period === drill.period).map((t) => ({ ...t, category: l.category, sign: l.sign })),
  );
  all.sort((a, b) => (a.posted_on < b.posted_on ? -1 : a.posted_on > b.posted_on ? 1 : a.src_id - b.src_id));
  const cents = lines.reduce((sum, l) => sum + l.sign * l[drill.period], 0);
  const [from, to] = drill.period === "current" ? [window.from, window.to] : [window.prior_from, window.prior_to];
  return { from, to, transactions: all.slice((page - 1) * perPage, page * perPage), total: all.length, cents };
}
