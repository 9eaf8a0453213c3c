/**
 * Parity: the books' rolling P&L against an outside reference report (the oracle) for
 * the same day. The verdict holds the difference coefficient over the twelve comparison
 * numbers, each number's delta, and the localisation of the differences to transactions.
 *
 * Matching, per window, over the current periods of the four base sections:
 * 1. the same transaction (side and src_id) on both sides: a different section or category
 *    is RECATEGORIZED, else a different amount is AMOUNT_DIFF;
 * 2. what is left is matched on posted_on, amount and description together (an oracle that
 *    numbers transactions its own way), then compared as in 1;
 * 3. what is still left is on one side only: WINDOW_EDGE when it is within a day of the
 *    window's first or last day (a time-zone or posting-date shift), otherwise
 *    MISSING_ON_ORACLE (only the books have it) or MISSING_ON_LOCAL (only the oracle has it).
 * Everything is sorted, so the same books and oracle always give the same verdict.
 */
import { desc, eq } from "drizzle-orm";
import { addDays } from "../../clock";
import type { LedgerDb } from "../store/db";
import type { Face } from "../face";
import { rollingPnl, SECTIONS, twelveNumbers, WINDOWS, type PnlReport, type SectionName, type SectionNumbers, type WindowName } from "./pnl";
import { parityVerdicts } from "../store/schema";

export type LocalisationKind = "RECATEGORIZED" | "AMOUNT_DIFF" | "WINDOW_EDGE" | "MISSING_ON_LOCAL" | "MISSING_ON_ORACLE";

interface Seen {
  section: SectionName;
  category: string;
  amount_cents: number;
}

export interface Localisation {
  kind: LocalisationKind;
  window: WindowName;
  side: "A" | "B";
  src_id: number;
  posted_on: string;
  description: string;
  /** How the books have it, and how the oracle has it (null where it is missing). */
  local: Seen | null;
  oracle: Seen | null;
}

export interface VerdictCore {
  as_of: string;
  coefficient: number;
  deltas: Record<string, number>;
  localisations: Localisation[];
}

export interface Verdict extends VerdictCore {
  revision: number;
}

/** The report shape both sides share (the oracle may carry other lineage and list words). */
export type ComparableReport = Pick<PnlReport, "windows">;

const BASE_SECTIONS: SectionName[] = SECTIONS.filter((s) => s !== "gross_margin" && s !== "net_income");

interface Entry extends Seen {
  key: string;
  side: "A" | "B";
  src_id: number;
  posted_on: string;
  description: string;
}

function entries(report: ComparableReport, window: WindowName): Entry[] {
  const out: Entry[] = [];
  for (const section of BASE_SECTIONS) {
    for (const line of report.windows[window].sections[section].lines) {
      for (const t of line.transactions) {
        if (t.period !== "current") continue;
        out.push({ key: `${t.side}:${t.src_id}`, side: t.side, src_id: t.src_id, posted_on: t.posted_on, description: t.description, section, category: line.category, amount_cents: t.amount_cents });
      }
    }
  }
  return out;
}

const seen = (e: Entry): Seen => ({ section: e.section, category: e.category, amount_cents: e.amount_cents });
const lookalike = (e: Entry) => `${e.posted_on}|${e.amount_cents}|${e.description.trim().replace(/\s+/g, " ").toLowerCase()}`;

function compareMatched(window: WindowName, local: Entry, oracle: Entry): Localisation | null {
  const base = { window, side: local.side, src_id: local.src_id, posted_on: local.posted_on, description: local.description, local: seen(local), oracle: seen(oracle) };
  if (local.section !== oracle.section || local.category !== oracle.category) return { kind: "RECATEGORIZED", ...base };
  if (local.amount_cents !== oracle.amount_cents) return { kind: "AMOUNT_DIFF", ...base };
  return null;
}

export function computeVerdict(asOf: string, local: ComparableReport, oracle: ComparableReport): VerdictCore {
  const ours = twelveNumbers(local);
  const theirs = twelveNumbers(oracle);
  const deltas: Record<string, number> = {};
  let differences = 0;
  let scale = 0;
  for (const key of Object.keys(ours) as (keyof typeof ours)[]) {
    deltas[key] = ours[key] - theirs[key];
    differences += Math.abs(deltas[key]!);
    scale += Math.abs(theirs[key]);
  }

  const localisations: Localisation[] = [];
  for (const window of Object.keys(WINDOWS) as WindowName[]) {
    const from = addDays(asOf, -WINDOWS[window] + 1);
    const nearEdge = (day: string) => [addDays(from, -1), from, addDays(from, 1), addDays(asOf, -1), asOf, addDays(asOf, 1)].includes(day);
    const mine = entries(local, window);
    const others = new Map(entries(oracle, window).map((e) => [e.key, e]));
    const unmatched: Entry[] = [];
    for (const e of mine) {
      const match = others.get(e.key);
      if (!match) {
        unmatched.push(e);
        continue;
      }
      others.delete(e.key);
      const found = compareMatched(window, e, match);
      if (found) localisations.push(found);
    }
    const byLook = new Map<string, Entry[]>();
    for (const e of others.values()) byLook.set(lookalike(e), [...(byLook.get(lookalike(e)) ?? []), e]);
    for (const e of unmatched) {
      const match = byLook.get(lookalike(e))?.shift();
      if (match) {
        others.delete(match.key);
        const found = compareMatched(window, e, match);
        if (found) localisations.push(found);
      } else {
        localisations.push({ kind: nearEdge(e.posted_on) ? "WINDOW_EDGE" : "MISSING_ON_ORACLE", window, side: e.side, src_id: e.src_id, posted_on: e.posted_on, description: e.description, local: seen(e), oracle: null });
      }
    }
    for (const e of others.values()) {
      localisations.push({ kind: nearEdge(e.posted_on) ? "WINDOW_EDGE" : "MISSING_ON_LOCAL", window, side: e.side, src_id: e.src_id, posted_on: e.posted_on, description: e.description, local: null, oracle: seen(e) });
    }
  }
  localisations.sort(
    (a, b) =>
      (a.window < b.window ? -1 : a.window > b.window ? 1 : 0) ||
      (a.posted_on < b.posted_on ? -1 : a.posted_on > b.posted_on ? 1 : 0) ||
      (a.side < b.side ? -1 : a.side > b.side ? 1 : 0) ||
      a.src_id - b.src_id ||
      (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
  );
  return { as_of: asOf, coefficient: differences / Math.max(1, scale), deltas, localisations };
}

/** The twelve numbers on which an asserted `local` report disagrees with the books. */
export function disagreements(books: SectionNumbers, asserted: SectionNumbers): string[] {
  const ours = twelveNumbers(books);
  const claimed = twelveNumbers(asserted);
  return (Object.keys(ours) as (keyof typeof ours)[]).filter((k) => ours[k] !== claimed[k]);
}

/** Files the day's verdict: the first revision, or the next one for a day already filed. */
export function fileVerdict(db: LedgerDb, core: VerdictCore, oracle: unknown, actor: string, at: string): Verdict {
  return db.transaction((tx) => {
    const last = tx.select({ revision: parityVerdicts.revision }).from(parityVerdicts).where(eq(parityVerdicts.asOf, core.as_of)).orderBy(desc(parityVerdicts.revision)).limit(1).get();
    const verdict: Verdict = { ...core, revision: (last?.revision ?? 0) + 1 };
    tx.insert(parityVerdicts).values({ asOf: core.as_of, revision: verdict.revision, verdict: JSON.stringify(verdict), oracle: JSON.stringify(oracle), actor, filedAt: at }).run();
    return verdict;
  });
}

/**
 * record-pnl-parity: files the day's verdict of the books' P&L against the oracle's, unless
 * an asserted `local` report disagrees with the books (then it names the numbers that
 * disagree, and files nothing).
 */
export function recordParity(
  db: LedgerDb,
  face: Face,
  asOf: string,
  oracle: ComparableReport,
  local: SectionNumbers | null,
  actor: string,
  at: string,
): { disagreeing: string[]; verdict: Verdict | null } {
  const books = rollingPnl(db, face, asOf);
  const disagreeing = local ? disagreements(books, local) : [];
  if (disagreeing.length > 0) return { disagreeing, verdict: null };
  return { disagreeing, verdict: fileVerdict(db, computeVerdict(asOf, books, oracle), oracle, actor, at) };
}
