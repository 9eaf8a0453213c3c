/**
 * What the evaluation counts of a model's guesses on test lines: inside the duh band or
 * not, right or wrong, split by what the labels could have taught it. Counts add up across
 * seeds; the figures are ratios of the sums.
 */
import type { BankLine } from "./book";

export interface Guess {
  category: string;
  /** Calibrated: the precision the model expects at this confidence. */
  confidence: number;
  /** The shared merchant prior's category for a merchant the labels do not show: a suggestion, never in the band. */
  byOthers?: true;
  /** Set where the model's duh band is not open yet (classifier.ts, `bandOpens`): it decides nothing, whatever the confidence. */
  bandClosed?: true;
}

interface Count {
  lines: number;
  inBand: number;
  /** In the band and right. */
  right: number;
}

const none = (): Count => ({ lines: 0, inBand: 0, right: 0 });

export interface Tally {
  all: Count;
  /** Lines the labels could explain: their merchant is among the labels', its text names it, and the line can be told apart. */
  explainable: Count;
  /** Lines whose merchant no label shows (the text names it). */
  unseen: Count;
  /** Ambiguous merchants that nothing on the line tells apart: they belong below the band. */
  inseparable: Count;
  /** Of those, the business's own town's stores (business.ts `LOCAL_AMBIGUOUS`): no list of chains names them. */
  inseparableLocal: Count;
  /** Ambiguous merchants that the amount or the account tells apart. */
  separable: Count;
  /** Checks: the text names nobody. */
  checks: Count;
  /** Every line, "in the band" meaning the others' category is suggested for it (the shared merchant prior). */
  suggested: Count;
  /** Every test line's confidence (0 when the model gave none) and whether its category was right. */
  predictions: { confidence: number; correct: boolean }[];
}

export function emptyTally(): Tally {
  return { all: none(), explainable: none(), unseen: none(), inseparable: none(), inseparableLocal: none(), separable: none(), checks: none(), suggested: none(), predictions: [] };
}

/** Counts one run: `guesses[i]` is the model's guess for `test[i]`. */
export function tally(labels: readonly BankLine[], test: readonly BankLine[], guesses: readonly (Guess | null)[], floor: number): Tally {
  const known = new Set(labels.map((l) => l.merchantId));
  const t = emptyTally();
  test.forEach((line, i) => {
    const guess = guesses[i] ?? null;
    const byOthers = guess?.byOthers === true;
    // A suggestion decides nothing: for the band and the calibration, as if there were no guess.
    const confidence = byOthers ? 0 : (guess?.confidence ?? 0);
    const correct = guess?.category === line.category;
    const inBand = confidence >= floor && guess?.bandClosed !== true;
    t.suggested.lines++;
    if (byOthers) t.suggested.inBand++;
    if (byOthers && correct) t.suggested.right++;
    const count = (c: Count) => {
      c.lines++;
      if (inBand) c.inBand++;
      if (inBand && correct) c.right++;
    };
    count(t.all);
    if (!line.nameInText) count(t.checks);
    else if (!known.has(line.merchantId)) count(t.unseen);
    else if (line.ambiguity !== "inseparable") count(t.explainable);
    if (line.ambiguity === "inseparable") count(t.inseparable);
    if (line.ambiguity === "inseparable" && line.localStore) count(t.inseparableLocal);
    else if (line.ambiguity !== "none") count(t.separable);
    t.predictions.push({ confidence, correct: correct && !byOthers });
  });
  return t;
}

export function addTally(into: Tally, t: Tally): Tally {
  for (const key of ["all", "explainable", "unseen", "inseparable", "inseparableLocal", "separable", "checks", "suggested"] as const) {
    into[key].lines += t[key].lines;
    into[key].inBand += t[key].inBand;
    into[key].right += t[key].right;
  }
  into.predictions.push(...t.predictions);
  return into;
}

/** Right answers among the lines in the band; NaN when none is in it. */
export const precision = (c: Count) => (c.inBand === 0 ? NaN : c.right / c.inBand);
/** The share of lines in the band; NaN when there are none. */
export const coverage = (c: Count) => (c.lines === 0 ? NaN : c.inBand / c.lines);
