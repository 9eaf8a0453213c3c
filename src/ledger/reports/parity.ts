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
 *
 * What the localisations account for of each delta is summed per section; the part of a
 * delta they do not account for (an oracle whose section number is not the sum of its own
 * transactions, say) is marked `unexplained` with its amount, rather than left as a delta
 * no line explains. A mismatch (a coefficient other than 0) posts a notice in the owner's
 * thread in the same transaction as the verdict (./parity-notice.ts).
 */
import { desc, eq } from "drizzle-orm";
import { addDays } from "../../clock";
import type { LedgerDb } from "../store/db";
import type { Face } from "../face";
import { NOTICE_ACTOR, postNotice, postTextedNotice, type Notice } from "../messages";
import { rollingPnl, SECTIONS, twelveNumbers, WINDOWS, type PnlReport, type SectionName, type SectionNumbers, type WindowName } from "./pnl";
import { oracleRunAt, recordFiledRun, sourceAddress } from "./oracle-runs";
import { noticeOfMismatch } from "./parity-notice";
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

/** The part of one of the twelve deltas that no localisation accounts for. */
export interface Unexplained {
  window: WindowName;
  section: SectionName;
  /** Books minus oracle: the delta itself. */
  delta_cents: number;
  /** What the window's localisations add up to in the section (in its natural direction). */
  explained_cents: number;
  /** delta_cents - explained_cents: never 0 in a listed entry. */
  unexplained_cents: number;
}

export interface VerdictCore {
  as_of: string;
  coefficient: number;
  /** Whether the twelve numbers agree: the coefficient is 0. */
  match: boolean;
  deltas: Record<string, number>;
  localisations: Localisation[];
  unexplained: Unexplained[];
}

export interface Verdict extends VerdictCore {
  revision: number;
}

/** The report shape both sides share (the oracle may carry other lineage and list words). */
export type ComparableReport = Pick<PnlReport, "windows">;

const BASE_SECTIONS: SectionName[] = SECTIONS.filter((s) => s !== "gross_margin" && s !== "net_income");

/**
 * How a transaction's amount enters its section's number, and the derived sections' sums
 * (the P&L's rule, docs/decisions.md "Reports and parity"): revenue counts money in, the
 * cost sections count money out as positive.
 */
const NATURAL_SIGN: Partial<Record<SectionName, 1 | -1>> = { revenue: 1, cogs: -1, biz_expenses: -1, owners_draw: -1 };
const DERIVED_FROM: Partial<Record<SectionName, [SectionName, 1 | -1][]>> = {
  gross_margin: [["revenue", 1], ["cogs", -1]],
  net_income: [["revenue", 1], ["cogs", -1], ["biz_expenses", -1]],
};

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
  const coefficient = differences / Math.max(1, scale);
  return { as_of: asOf, coefficient, match: coefficient === 0, deltas, localisations, unexplained: unexplainedOf(deltas, localisations) };
}

/**
 * Each delta's part that the localisations do not account for, in the twelve numbers'
 * order (7d then 30d, sections as the P&L lists them). A localisation accounts for its
 * amount on each side it is seen on: the books' side adds, the oracle's subtracts, each in
 * its own section; a derived section sums its components' parts. A function of the deltas
 * and the localisations alone, so a verdict filed without the field reads the same.
 */
export function unexplainedOf(deltas: Record<string, number>, localisations: readonly Localisation[]): Unexplained[] {
  const explained = new Map<string, number>();
  const account = (window: string, seen: Seen | null, side: 1 | -1) => {
    const sign = seen ? NATURAL_SIGN[seen.section] : undefined;
    if (!seen || sign === undefined) return;
    const key = `${window}.${seen.section}`;
    explained.set(key, (explained.get(key) ?? 0) + side * sign * seen.amount_cents);
  };
  for (const l of localisations) {
    account(l.window, l.local, 1);
    account(l.window, l.oracle, -1);
  }
  const out: Unexplained[] = [];
  for (const window of Object.keys(WINDOWS) as WindowName[]) {
    const part = (section: SectionName) => explained.get(`${window}.${section}`) ?? 0;
    for (const section of SECTIONS) {
      const components = DERIVED_FROM[section];
      const explainedCents = components ? components.reduce((sum, [s, sign]) => sum + sign * part(s), 0) : part(section);
      const delta = deltas[`${window}.${section}`] ?? 0;
      if (delta !== explainedCents) out.push({ window, section, delta_cents: delta, explained_cents: explainedCents, unexplained_cents: delta - explainedCents });
    }
  }
  return out;
}

/** The twelve numbers on which an asserted `local` report disagrees with the books. */
export function disagreements(books: SectionNumbers, asserted: SectionNumbers): string[] {
  const ours = twelveNumbers(books);
  const claimed = twelveNumbers(asserted);
  return (Object.keys(ours) as (keyof typeof ours)[]).filter((k) => ours[k] !== claimed[k]);
}

/** Who files a verdict, from where, and whether its notice is texted. */
export interface Filing {
  actor: string;
  /** The daily run's oracle source (its address); null when a caller sent the report (`record_pnl_parity`). */
  oracleUrl: string | null;
  /** The daily run's scheduled time, whose run the verdict records (with `oracleUrl`); null for `record_pnl_parity`. */
  ranAt: string | null;
  /** Whether the owner's SMS is configured: a mismatch's notice is then texted as well as posted. */
  textOwner: boolean;
}

export interface Filed {
  verdict: Verdict;
  /** The notice a mismatch posted in the owner's thread; null for a match. */
  notice: Notice | null;
}

/**
 * Files the day's verdict: the first revision, or the next one for a day already filed;
 * a mismatch posts its notice in the same transaction, so one never lands without the other.
 */
export function fileVerdict(db: LedgerDb, core: VerdictCore, oracle: unknown, filing: Filing, at: string): Filed {
  return db.transaction((tx) => {
    const last = tx.select({ revision: parityVerdicts.revision }).from(parityVerdicts).where(eq(parityVerdicts.asOf, core.as_of)).orderBy(desc(parityVerdicts.revision)).limit(1).get();
    const verdict: Verdict = { ...core, revision: (last?.revision ?? 0) + 1 };
    tx.insert(parityVerdicts)
      .values({ asOf: core.as_of, revision: verdict.revision, verdict: JSON.stringify(verdict), oracle: JSON.stringify(oracle), oracleUrl: filing.oracleUrl === null ? null : sourceAddress(filing.oracleUrl), actor: filing.actor, filedAt: at })
      .run();
    if (filing.ranAt !== null && filing.oracleUrl !== null) {
      recordFiledRun(tx, { ranAt: filing.ranAt, asOf: core.as_of, revision: verdict.revision, oracleUrl: filing.oracleUrl, actor: filing.actor }, at);
    }
    if (verdict.match) return { verdict, notice: null };
    const body = noticeOfMismatch(verdict, filing.oracleUrl === null ? "manual" : "daily");
    const messageId = filing.textOwner ? postTextedNotice(tx, body, at) : postNotice(tx, body, NOTICE_ACTOR, at);
    return { verdict, notice: { messageId, body, texted: filing.textOwner } };
  });
}

/**
 * record-pnl-parity: files the day's verdict of the books' P&L against the oracle's, unless
 * an asserted `local` report disagrees with the books (then it names the numbers that
 * disagree, and files nothing), or the daily run it is filed for is recorded already
 * (`recorded`: its job came again; nothing more is filed).
 */
export function recordParity(
  db: LedgerDb,
  face: Face,
  asOf: string,
  oracle: ComparableReport,
  local: SectionNumbers | null,
  filing: Filing,
  at: string,
): { disagreeing: string[]; filed: Filed | null; recorded: boolean } {
  if (filing.ranAt !== null && oracleRunAt(db, filing.ranAt)) return { disagreeing: [], filed: null, recorded: true };
  const books = rollingPnl(db, face, asOf);
  const disagreeing = local ? disagreements(books, local) : [];
  if (disagreeing.length > 0) return { disagreeing, filed: null, recorded: false };
  return { disagreeing, filed: fileVerdict(db, computeVerdict(asOf, books, oracle), oracle, filing, at), recorded: false };
}
