/**
 * What the model derives from its evidence (evidence.ts): a softmax regression (linear.ts)
 * over the TF-IDF weighted features of the example keys, and the merchants' histories
 * (history.ts). Measuring a line gives the regression's most probable category and what
 * the calibration (calibration.ts) reads of it: the regression's probability, the
 * merchant's history overall, within the line's amount band and within its account,
 * whether the line has any history, and how much of its text no example has. Where the
 * regression hesitates between two categories (the second at least half as probable as the
 * first), the one the merchant's history agrees with better is chosen.
 *
 * A line is measured against the tenant's lines as they stand when it is measured (the
 * caller's corpus), not as they stood at the fit: a sync's page is seen before it is
 * decided, and a merchant new in it has words that no line had at the fit. Read against the
 * fit's corpus, those words would weigh nothing (a feature on no line is dropped), and the
 * line would look like the bank's words around them: known text, a known merchant.
 */
import { byText, inverseFrequency, KEY_WORK, type Corpus, type Examples } from "./evidence";
import { featuresOfKey, keyParts, nameDisagrees, withoutName } from "./features";
import { bankWidthsInSteps, cutAt, type Widths } from "./bank-width";
import { ENDINGS, sellsManyKinds, type Reading } from "./many-kinds";
import { ceilingOf, heldBelowBy, type HeldBelow } from "./held-below";
import { bankWordsInSteps } from "./bank-words";
import { Histories, historyPrior, logOdds, type MerchantHistory } from "./history";
import { logit } from "./calibration";
import { LINEAR_DEFAULTS, SoftmaxRegression, type Row } from "./linear";
import { STEP_WORK } from "./steps";

/** The calibration's inputs, by position. */
export const INPUT = {
  probability: 0,
  merchant: 1,
  band: 2,
  account: 3,
  known: 4,
  novelty: 5,
  namesNoParty: 6,
  newDirection: 7,
  newAccount: 8,
  splitHistory: 9,
  sellsManyKinds: 10,
  constant: 11,
} as const;
export const INPUTS = 12;

/** Each reason a line is held below the band is a constant of its own among the calibration's inputs. */
export const HELD_INPUT: Record<HeldBelow, number> = {
  "names-no-party": INPUT.namesNoParty,
  "new-direction": INPUT.newDirection,
  "new-account": INPUT.newAccount,
  "split-history": INPUT.splitHistory,
  "sells-many-kinds": INPUT.sellsManyKinds,
};

/** The regression hesitates when its second category is at least this share as probable as its first. */
const HESITATION = 0.5;

export interface Measurement {
  /** The most probable category's index. */
  best: number;
  /** The calibration's inputs (`INPUT`). */
  inputs: number[];
  /** What the history alone says of the line's category (`historyPrior`; 1/2 without a history): the calibration's prior, when the held-out lines are few. */
  prior: number;
  /** The merchant's history for the chosen category; null for a merchant no example shows. */
  history: MerchantHistory | null;
  /** The most the line's confidence may be: below the band where it is held there (`heldBelow`), 1 otherwise. */
  ceiling: number;
  /** Why the line is held below the band whatever the calibration says (`heldBelowBy`), or null. */
  heldBelow: HeldBelow | null;
}

/** A key's features as the regression reads them: indices into the vocabulary, and TF-IDF values. */
interface Encoded {
  idx: Int32Array;
  values: Float32Array;
  /** The share of the key's TF-IDF mass (squared) in features no example has: text the model has not learnt. */
  novelty: number;
}

export class Fit {
  private constructor(
    readonly categories: string[],
    private readonly vocabulary: Map<string, number>,
    private readonly regression: SoftmaxRegression,
    private readonly histories: Histories,
    private readonly corpus: Corpus,
    /** Where each account's bank cuts its lines' text (bank-width.ts). */
    private readonly widths: Widths,
  ) {}

  /** What `measure` found per key against the corpus of `measuredAt`: lines of the same key are measured once. */
  private readonly measured = new Map<string, Measurement>();
  private measuredAt: number | null = null;

  /**
   * Fits examples, weighing features by their frequency among the corpus's line keys, with
   * the bank's own words among those lines (bank-words.ts) and where each account's bank
   * cuts them (bank-width.ts; each read from them unless given: the calibration's folds
   * share one reading); yields between parts of the work (every
   * 1,000 keys read, and as the word reading and the regression's fit do). Null when the
   * examples name fewer than two categories: nothing to choose.
   */
  static *inSteps(examples: Examples, corpus: Corpus, bankWords?: ReadonlySet<string>, given?: Widths): Generator<void, Fit | null> {
    const byKey = [...examples].sort((a, b) => byText(a[0], b[0]));
    const categories = [...new Set(byKey.flatMap(([, perCategory]) => [...perCategory.keys()]))].sort(byText);
    if (categories.length < 2) return null;
    const vocabulary = new Map<string, number>();
    const histories = new Histories(categories.length, bankWords ?? (yield* bankWordsInSteps(examples, corpus)));
    const widths = given ?? (yield* bankWidthsInSteps(corpus));
    const rows: Row[] = [];
    const classOf = new Map(categories.map((c, i) => [c, i]));
    let work = 0;
    for (const [key, perCategory] of byKey) {
      const counts = new Float64Array(categories.length);
      for (const [category, lines] of perCategory) counts[classOf.get(category)!] = lines;
      if ((work += KEY_WORK) >= STEP_WORK) {
        work = 0;
        yield;
      }
      const features = featuresOfKey(key);
      const { description, name } = keyParts(key);
      const reading = readingOf(key, corpus, widths);
      // A name glued to the next field is the merchant's name still: its history counts the line as printed apart too.
      const apart = gluedApart(key, reading.isWord);
      histories.add(key, apart ? [...new Set([...features, ...featuresOfKey(apart)])] : features, counts, sellsManyKinds(description, name, reading));
      // An aggregator's name that names none of the description teaches the regression nothing: one
      // software bill the aggregator called Panera Bread made Panera's own lines software.
      const encoded = encode(nameDisagrees(key) ? featuresOfKey(withoutName(key)) : features, key, corpus, vocabulary, true);
      rows.push({ features: encoded.idx, values: encoded.values, counts });
    }
    const regression = yield* SoftmaxRegression.fitInSteps(rows, vocabulary.size, categories.length, LINEAR_DEFAULTS);
    return new Fit(categories, vocabulary, regression, histories, corpus, widths);
  }

  /** Whether a line of a key may name the merchant of one of `keys` (history.ts, `namesAny`), read against `corpus`. */
  namesAny(keys: readonly string[], corpus: Corpus = this.corpus): (key: string) => boolean {
    return this.histories.namesAny(keys, corpus);
  }

  /**
   * Measures a line's key against `current`, the tenant's lines as they stand (named by a
   * number that moves whenever they change: what was measured against other lines is
   * measured again); against the fit's own corpus without it.
   */
  measure(key: string, current?: { corpus: Corpus; at: number }): Measurement {
    const at = current?.at ?? null;
    if (at !== this.measuredAt) {
      this.measured.clear();
      this.measuredAt = at;
    }
    let found = this.measured.get(key);
    if (!found) this.measured.set(key, (found = this.measureAfresh(key, current?.corpus ?? this.corpus)));
    return found;
  }

  private measureAfresh(given: string, corpus: Corpus): Measurement {
    // A line the aggregator named as another merchant (`LOWE'S #6710` as Northern Fork Grill) is read by its own text.
    const key = this.histories.completed(nameDisagrees(given) ? withoutName(given) : given);
    const features = featuresOfKey(key);
    const { idx, values, novelty } = encode(features, key, corpus, this.vocabulary, false);
    const scores = this.regression.score(idx, values);
    let [best, probability] = [scores.best, scores.probability];
    const reading = readingOf(key, corpus, this.widths);
    let history = this.histories.read(key, features, best, corpus, reading.cut);
    // Where the regression hesitates between two categories, the merchant's own lines settle it.
    if (scores.secondProbability >= HESITATION * probability) {
      const other = this.histories.read(key, features, scores.second, corpus, reading.cut);
      if (other && (!history || logOdds(other.merchant) > logOdds(history.merchant))) [best, probability, history] = [scores.second, scores.secondProbability, other];
    }
    const inputs = new Array<number>(INPUTS).fill(0);
    inputs[INPUT.probability] = logit(probability);
    inputs[INPUT.novelty] = novelty;
    inputs[INPUT.constant] = 1;
    const heldBelow = heldBelowBy(key, history, reading);
    const ceiling = ceilingOf(heldBelow);
    // Held lines are right more or less often than their other inputs tell, each reason its own way (checks far less, a merchant
    // met on another account more): a constant per reason keeps them from pulling every other line's, and each other's, confidence.
    if (heldBelow) inputs[HELD_INPUT[heldBelow]] = 1;
    // No history (a merchant no example shows) is an input of its own, not a degree of agreement.
    if (!history) return { best, inputs, prior: 0.5, history: null, ceiling, heldBelow };
    inputs[INPUT.merchant] = logOdds(history.merchant);
    inputs[INPUT.band] = logOdds(history.band);
    inputs[INPUT.account] = logOdds(history.account);
    inputs[INPUT.known] = 1;
    // A line that names no party (a check by its number) has a history of the channel, not of a payee: it says nothing of the line.
    return { best, inputs, prior: heldBelow === "names-no-party" ? 0.5 : historyPrior(history), history, ceiling, heldBelow };
  }
}

/** The fewest letters of either part of a glued word read apart. */
const GLUED_PART = 4;

/**
 * An example key with the words that a network's fixed columns glued to the next field read
 * apart (`PEREZ BROSALBUQUERQUE NM` as `PEREZ BROS ALBUQUERQUE NM`), or null where it has
 * none: a word of letters that begins with a word of the tenant's lines (`isWord`) followed
 * by another, each of four letters or more, the first not printed apart on the line already
 * and the rest not what English adds to make another word (`ENDINGS`: `MARKETPLACE`).
 */
function gluedApart(key: string, isWord: (word: string) => boolean): string | null {
  const { description } = keyParts(key);
  const words = description.split(" ");
  let changed = false;
  const read = words.map((word) => {
    if (word.length < 2 * GLUED_PART || !/^[a-z]+$/.test(word)) return word;
    for (let at = GLUED_PART; at <= word.length - GLUED_PART; at++) {
      const [first, rest] = [word.slice(0, at), word.slice(at)];
      if (ENDINGS.has(rest) || words.includes(first) || !isWord(first) || !isWord(rest)) continue;
      changed = true;
      return `${first} ${rest}`;
    }
    return word;
  });
  return changed ? `${read.join(" ")}${key.slice(description.length)}` : null;
}

/** How a key's description is read beyond its words (many-kinds.ts): cut at its account's bank's width, glued to words of the tenant's lines (on two line keys or more). */
function readingOf(key: string, corpus: Corpus, widths: Widths): Required<Reading> {
  return { cut: cutAt(key, widths), isWord: (word) => (corpus.frequencies.get(`w:${word}`) ?? 0) >= 2 };
}

/**
 * A key's features as TF-IDF values over the features seen on at least two lines (on two
 * keys, or on this key of two lines or more: a feature on one line is a code or a one-off
 * that can tell nothing), L2-normalised over all of them (so a line with much that no
 * example shows weighs less); indices only for the vocabulary's features (`grow`: adding
 * the new ones).
 */
function encode(features: string[], key: string, corpus: Corpus, vocabulary: Map<string, number>, grow: boolean): Encoded {
  const idx: number[] = [];
  const values: number[] = [];
  const keyLines = corpus.lines.get(key) ?? 0;
  let norm = 0;
  for (const feature of features) {
    const frequency = corpus.frequencies.get(feature) ?? 0;
    if (frequency === 0 || (frequency === 1 && keyLines < 2)) continue;
    const weight = inverseFrequency(frequency, corpus.lines.size);
    norm += weight * weight;
    let i = vocabulary.get(feature);
    if (i === undefined && grow) vocabulary.set(feature, (i = vocabulary.size));
    if (i === undefined) continue;
    idx.push(i);
    values.push(weight);
  }
  let known = 0;
  for (const v of values) known += v * v;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return { idx: Int32Array.from(idx), values: Float32Array.from(values, (v) => v * scale), novelty: norm > 0 ? 1 - known / norm : 1 };
}
