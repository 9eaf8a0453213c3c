/**
 * The calibration's evidence: the tenant's own examples, held out in folds. A fit without
 * each fold measures that fold's lines, and whether it was right is what the calibration
 * (calibration.ts) maps the measurements to.
 *
 * Each example line falls in a fold by a hash of its key (half the keys, all their lines
 * together: a merchant met in a form no example has, as a bank's new text is) or of its
 * key, category and number (the other half: the same text seen again). At most about
 * `CALIBRATION_SAMPLE` lines are held out; beyond that, fewer folds (each fit then leaves
 * out a small share, and three measure a fit as well as five, at three fifths of the work).
 */
import { bump, byText, KEY_WORK, type Corpus, type Examples } from "./evidence";
import { bankWidthsInSteps } from "./bank-width";
import { bankWordsInSteps } from "./bank-words";
import { Fit } from "./fit";
import type { Pair } from "./calibration";
import { STEP_WORK } from "./steps";

/** The calibration is fitted on at most about this many held-out examples, so refits stay cheap. */
export const CALIBRATION_SAMPLE = 3_000;
/** Folds while all the examples are held out, and once they are sampled. */
const FOLDS = 5;
const SAMPLED_FOLDS = 3;
/** This share of the keys is held out whole (every line of the key in one fold). */
const KEYS_HELD_OUT_WHOLE = 0.5;
/** A held-out example line's fold drawn, in the work units of `STEP_WORK`. */
const LINE_WORK = 100;

/** FNV-1a over a text, one step per UTF-16 unit. */
export function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h;
}

/**
 * The held-out pairs of these examples, in steps: the same examples give the same pairs in
 * the same order, whatever order they were learnt in.
 */
export function* heldOutPairs(examples: Examples, corpus: Corpus): Generator<void, Pair[]> {
  let size = 0;
  for (const perCategory of examples.values()) for (const lines of perCategory.values()) size += lines;
  const share = Math.min(1, CALIBRATION_SAMPLE / Math.max(1, size));
  const folds = share < 1 ? SAMPLED_FOLDS : FOLDS;
  const heldOut: { key: string; category: string; fold: number }[] = [];
  let work = 0;
  for (const [key, perCategory] of [...examples].sort((a, b) => byText(a[0], b[0]))) {
    const whole = (fnv(2166136261, `${key}\u0001`) >>> 0) / 4294967296 < KEYS_HELD_OUT_WHOLE;
    const keyHash = fnv(2166136261, key);
    for (const [category, lines] of [...perCategory].sort((a, b) => byText(a[0], b[0]))) {
      if ((work += lines * LINE_WORK) >= STEP_WORK) {
        work = 0;
        yield;
      }
      for (let i = 0; i < lines; i++) {
        const h = whole ? (keyHash >>> 0) / 4294967296 : (fnv(keyHash, `\u0000${category}\u0000${i}`) >>> 0) / 4294967296;
        if (h < share) heldOut.push({ key, category, fold: Math.floor((h / share) * folds) });
      }
    }
  }
  // The bank's words are the tenant's lines', whichever examples a fold holds out: read once.
  const bankWords = yield* bankWordsInSteps(examples, corpus);
  const widths = yield* bankWidthsInSteps(corpus);
  const pairs: Pair[] = [];
  for (let fold = 0; fold < folds; fold++) {
    const out = heldOut.filter((e) => e.fold === fold);
    if (out.length === 0) continue;
    const rest: Examples = new Map();
    for (const [key, perCategory] of examples) rest.set(key, new Map(perCategory));
    for (const { key, category } of out) {
      const perCategory = rest.get(key)!;
      bump(perCategory, category, -1);
      if (perCategory.size === 0) rest.delete(key);
    }
    yield;
    const fit = yield* Fit.inSteps(rest, corpus, bankWords, widths);
    if (!fit) continue;
    for (const { key, category } of out) {
      if ((work += KEY_WORK) >= STEP_WORK) {
        work = 0;
        yield;
      }
      const { best, inputs, prior, ceiling } = fit.measure(key);
      pairs.push({ inputs, correct: fit.categories[best] === category, prior, ceiling });
    }
    yield;
  }
  return pairs;
}
