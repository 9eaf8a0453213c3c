/**
 * The per-tenant local classifier.
 *
 * What it knows (`Evidence`, kept exactly and incrementally, the way the ledger keeps it):
 * - the examples: each line key (features.ts) with how many evidence lines of each
 *   category it stands for;
 * - the tenant's lines: each key with how many lines of the feed have it, labelled or not.
 *   A feature that many different keys share (a bank's own words, the business's city)
 *   is weighed down by its inverse document frequency among them; a feature on a single
 *   line (a code, a one-off word) is dropped. This is how the model learns which words of
 *   a bank's text carry the merchant: from the tenant's own feed, whatever its bank.
 *
 * What it derives (`Fit`, refitted from the evidence when a prediction finds a person's
 * label or a forgotten example since the last fit, the examples grown by a tenth by rules'
 * decisions, or the lines grown by a quarter):
 * - a softmax regression (linear.ts) over the TF-IDF weighted features of the example keys;
 * - per word of the text (and word with the amount's band, word with the account), how
 *   many examples of each category have it: the "merchant's history".
 *
 * A prediction is the regression's most probable category, with two measurements: its
 * probability, and the agreement of the merchant's history with it (the best of the
 * line's three most distinctive known words or word pairs: (lines of that category + 1)
 * / (lines + 1.1), read also within the line's amount band and account, where those tell
 * a merchant's categories apart). A merchant whose lines went to different categories,
 * and that nothing on the line separates, keeps a low agreement however sure the
 * regression is. Both go through the calibration (calibration.ts), fitted on held-out
 * folds of the tenant's own examples.
 */
import { calibrate, fitCalibration, logit, UNCALIBRATED, type Calibration, type Pair } from "./calibration";
import { featuresOfKey, isIdentity, keyParts, lineKey, type LineFacts } from "./features";
import { LINEAR_DEFAULTS, SoftmaxRegression, STEP_WORK, type Row } from "./linear";

export interface Example {
  /** The line's key (features.ts, `lineKey`). */
  key: string;
  category: string;
}

export interface Prediction {
  category: string;
  /** Calibrated: the precision observed at this evidence on held-out data. */
  confidence: number;
}

/** The default duh band: the model decides a line at this calibrated confidence or above. */
export const DEFAULT_DUH_BAND_FLOOR = 0.95;

/** The evidence as rows, the way the ledger keeps it (local-model.ts). */
export interface EvidenceRows {
  examples: { key: string; category: string; lines: number }[];
  /** The tenant's lines by key. */
  lines: { key: string; lines: number }[];
}

/** A calibration fit as the ledger keeps it, with the number of examples it was fitted at. */
export interface KeptCalibration extends Calibration {
  fittedAt: number;
}

/** The calibration's inputs (`Fit.measure`): the regression's probability, the history's agreement, whether there is a history, the line's novelty, 1. */
const RISING = [0, 1];
const FALLING = [3];
const FOLDS = 5;
/**
 * This share of the keys is held out whole (every line of the key in one fold), so the
 * calibration measures a merchant met in a form no example has, as a bank's new text is;
 * the others line by line, as the same text seen again is.
 */
const KEYS_HELD_OUT_WHOLE = 0.5;
/** The calibration is fitted on at most about this many held-out examples, so refits stay cheap. */
export const CALIBRATION_SAMPLE = 3_000;
/** Below this many examples the calibration is refitted at every change. */
const SMALL = 100;
/** Rules' decisions may grow the examples by this factor before the fit is refitted for them alone. */
const RULES_GROWTH = 1.1;
/** The lines may grow by this factor before the fit is refitted for them alone. */
const LINES_GROWTH = 1.25;
/** The merchant's history: this many of the line's most distinctive known words are read. */
const HISTORY_WORDS = 3;
/** The merchant's history: a category's agreement is (lines + 1) / (all lines + 1 + this). */
const HISTORY_DOUBT = 0.1;

/** Adds `by` to a count, dropping the entry at zero so a forgotten example leaves no trace. */
function bump<K>(counts: Map<K, number>, key: K, by: number): number {
  const next = (counts.get(key) ?? 0) + by;
  if (next === 0) counts.delete(key);
  else counts.set(key, next);
  return next;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What the model knows, exactly: examples and lines by key, with what changed since `takeChanges`. */
class Evidence {
  /** key -> category -> lines */
  readonly examples = new Map<string, Map<string, number>>();
  /** key -> lines of the feed */
  readonly lines = new Map<string, number>();
  size = 0;
  private readonly changedExamples = new Map<string, Set<string>>();
  private readonly changedLines = new Set<string>();
  /** Features -> how many keys of `lines` have them; built when first needed. */
  private frequencies: Map<string, number> | null = null;

  learn({ key, category }: Example, by: number): void {
    let perCategory = this.examples.get(key);
    if (!perCategory) this.examples.set(key, (perCategory = new Map()));
    bump(perCategory, category, by);
    if (perCategory.size === 0) this.examples.delete(key);
    this.size += by;
    let changed = this.changedExamples.get(key);
    if (!changed) this.changedExamples.set(key, (changed = new Set()));
    changed.add(category);
  }

  holds({ key, category }: Example): boolean {
    return (this.examples.get(key)?.get(category) ?? 0) > 0;
  }

  /** Moves whenever the lines change: a corpus built across yields is installed only if it did not. */
  linesMoved = 0;

  see(key: string, by: number): void {
    const before = this.lines.get(key) ?? 0;
    const after = bump(this.lines, key, by);
    this.changedLines.add(key);
    this.linesMoved++;
    if (this.frequencies && (before === 0) !== (after === 0)) {
      for (const feature of featuresOfKey(key)) bump(this.frequencies, feature, after === 0 ? -1 : 1);
    }
  }

  /** The examples, copied: what is learnt after changes nothing in the copy. */
  copyOfExamples(): Map<string, Map<string, number>> {
    const copy = new Map<string, Map<string, number>>();
    for (const [key, perCategory] of this.examples) copy.set(key, new Map(perCategory));
    return copy;
  }

  /**
   * The tenant's lines as a fit reads them, copied: lines seen after it change nothing the
   * fit measures. The features' frequencies are counted in steps the first time (every
   * line key's features: a few hundred milliseconds at 100,000 lines), from a copy of the
   * lines taken first; kept for the next time only if no line was seen meanwhile.
   */
  *corpusInSteps(): Generator<void, Corpus> {
    if (this.frequencies) return { frequencies: new Map(this.frequencies), lines: new Map(this.lines) };
    const lines = new Map(this.lines);
    const moved = this.linesMoved;
    const frequencies = new Map<string, number>();
    let work = 0;
    for (const key of lines.keys()) {
      for (const feature of featuresOfKey(key)) bump(frequencies, feature, 1);
      if ((work += KEY_WORK) >= STEP_WORK) {
        work = 0;
        yield;
      }
    }
    if (this.linesMoved === moved) this.frequencies = new Map(frequencies);
    return { frequencies, lines };
  }

  rows(): EvidenceRows {
    const examples: EvidenceRows["examples"] = [];
    for (const [key, perCategory] of this.examples) for (const [category, lines] of perCategory) examples.push({ key, category, lines });
    return inKeyOrder({ examples, lines: [...this.lines].map(([key, lines]) => ({ key, lines })) });
  }

  takeChanges(): EvidenceRows {
    const rows: EvidenceRows = { examples: [], lines: [] };
    for (const [key, categories] of this.changedExamples) {
      for (const category of categories) rows.examples.push({ key, category, lines: this.examples.get(key)?.get(category) ?? 0 });
    }
    for (const key of this.changedLines) rows.lines.push({ key, lines: this.lines.get(key) ?? 0 });
    this.changedExamples.clear();
    this.changedLines.clear();
    return inKeyOrder(rows);
  }
}

function inKeyOrder(rows: EvidenceRows): EvidenceRows {
  rows.examples.sort((a, b) => byText(a.key, b.key) || byText(a.category, b.category));
  rows.lines.sort((a, b) => byText(a.key, b.key));
  return rows;
}

/** The tenant's lines as a fit reads them: how many line keys have each feature, and how many lines each key stands for. */
interface Corpus {
  frequencies: Map<string, number>;
  lines: Map<string, number>;
}

/** A key's features as the regression reads them: indices into the vocabulary, and TF-IDF values. */
interface Encoded {
  idx: Int32Array;
  values: Float32Array;
  /** The share of the key's TF-IDF mass (squared) in features no example has: text the model has not learnt. */
  novelty: number;
}

/** What the model derives from examples: the regression, and the merchants' histories. */
class Fit {
  private constructor(
    readonly categories: string[],
    private readonly vocabulary: Map<string, number>,
    private readonly regression: SoftmaxRegression,
    /** Identity features (and words with band, words with account) -> lines per category. */
    private readonly history: Map<string, Float64Array>,
    private readonly corpus: Corpus,
  ) {}

  /** What `measure` found per key: lines of the same key are measured once. */
  private readonly measured = new Map<string, { best: number; inputs: number[] }>();

  /**
   * Fits examples (key -> category -> lines), weighing features by their frequency among the
   * corpus's line keys; yields between parts of the work (every 1,000 keys read, and as the
   * regression's fit does).
   */
  static *inSteps(examples: Iterable<[string, Map<string, number>]>, corpus: Corpus): Generator<void, Fit | null> {
    const byKey = [...examples].sort((a, b) => byText(a[0], b[0]));
    const categories = [...new Set(byKey.flatMap(([, perCategory]) => [...perCategory.keys()]))].sort(byText);
    if (categories.length < 2) return null; // one category leaves nothing to choose
    const vocabulary = new Map<string, number>();
    const history = new Map<string, Float64Array>();
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
      for (const feature of features) {
        if (!isIdentity(feature) && !feature.includes("@")) continue;
        let perClass = history.get(feature);
        if (!perClass) history.set(feature, (perClass = new Float64Array(categories.length)));
        for (let k = 0; k < counts.length; k++) perClass[k]! += counts[k]!;
      }
      const encoded = encode(features, key, corpus, vocabulary, true);
      rows.push({ features: encoded.idx, values: encoded.values, counts });
    }
    const regression = yield* SoftmaxRegression.fitInSteps(rows, vocabulary.size, categories.length, LINEAR_DEFAULTS);
    return new Fit(categories, vocabulary, regression, history, corpus);
  }

  /** The most probable category's index, with the calibration's inputs. */
  measure(key: string): { best: number; inputs: number[] } {
    let found = this.measured.get(key);
    if (!found) this.measured.set(key, (found = this.measureAfresh(key)));
    return found;
  }

  private measureAfresh(key: string): { best: number; inputs: number[] } {
    const features = featuresOfKey(key);
    const { idx, values, novelty } = encode(features, key, this.corpus, this.vocabulary, false);
    const { best, probability } = this.regression.score(idx, values);
    const agreement = this.agreement(key, features, best);
    // No history (a merchant no example shows) is an input of its own, not a degree of agreement.
    return { best, inputs: [logit(probability), agreement === null ? 0 : logit(agreement), agreement === null ? 0 : 1, novelty, 1] };
  }

  /** How well the merchant's history agrees with category `k` (see the file's comment); null where it has none. */
  private agreement(key: string, features: string[], k: number): number | null {
    const known = features
      .filter((f) => isIdentity(f) && this.history.has(f))
      .map((f) => ({ f, idf: inverseFrequency(this.corpus.frequencies.get(f) ?? 0, this.corpus.lines.size) }))
      .sort((a, b) => b.idf - a.idf || byText(a.f, b.f))
      .slice(0, HISTORY_WORDS);
    if (known.length === 0) return null;
    const { signBand, account } = keyParts(key);
    let best = 0;
    for (const { f } of known) {
      // A word is read also within the line's band and account; a pair of words, within those of each word.
      const words = f.startsWith("w:") ? [f.slice(2)] : f.slice(2).split("_");
      const views = [f, ...words.flatMap((word) => [`w:${word}@${signBand}`, `w:${word}@@${account}`])];
      for (const view of views) {
        const perClass = this.history.get(view);
        if (!perClass) continue;
        let lines = 0;
        for (const n of perClass) lines += n;
        best = Math.max(best, (perClass[k]! + 1) / (lines + 1 + HISTORY_DOUBT));
      }
    }
    return Math.min(1, best);
  }
}

/** A line key's features read, weighed or measured, in the work units of `STEP_WORK` (measured: about 40 microseconds). */
const KEY_WORK = 8_000;

const inverseFrequency = (frequency: number, keys: number) => Math.log((keys + 1) / (frequency + 1));

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

/** FNV-1a over a text, one step per UTF-16 unit. */
function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h;
}

/** An example's hash, summed into the version so the version names a set, whatever the order. */
function exampleHash({ key, category }: Example): number {
  return fnv(Math.imul(fnv(2166136261, category), 16777619), key) >>> 0;
}

export class LocalModel {
  private readonly evidence = new Evidence();
  private hash = 0;
  /** The fit, and the evidence it was fitted on: its examples' number and hash, the line keys it weighed features among. */
  private fit: { model: Fit | null; size: number; hash: number; keys: number } | null = null;
  private calibration: Calibration = UNCALIBRATED;
  private calibratedAt = 0;
  private refitted = false;
  /** Persons' labels learnt and examples forgotten, counted: the fit must have learnt every one of them before the next decision. */
  private personChanges = 0;
  /** `personChanges` when the standing fit's evidence was copied. */
  private personChangesFitted = 0;

  /** A model learnt from these examples and these lines' keys. */
  static train(examples: readonly Example[], lineKeys: readonly string[] = examples.map((e) => e.key)): LocalModel {
    const model = new LocalModel();
    model.seeLines(lineKeys);
    model.addAll(examples);
    return model;
  }

  /**
   * The model whose evidence, examples' hash and last calibration fit were kept
   * (`takeChanges`, `examplesHash`, `takeNewCalibration`): the same evidence and version
   * as the model they were taken from, and with its fit the same predictions.
   */
  static restore(rows: EvidenceRows, hash: number, calibration: KeptCalibration | null): LocalModel {
    const model = new LocalModel();
    for (const { key, lines } of rows.lines) model.evidence.see(key, lines);
    for (const { key, category, lines } of rows.examples) model.evidence.learn({ key, category }, lines);
    model.evidence.takeChanges();
    model.hash = hash >>> 0;
    if (calibration) {
      model.calibration = { weights: calibration.weights };
      model.calibratedAt = calibration.fittedAt;
    }
    return model;
  }

  /** Every row of the evidence, in key order: two models with the same evidence give the same rows. */
  rows(): EvidenceRows {
    return this.evidence.rows();
  }

  /** The evidence changed since the last call (or since learning began), as rows to keep; 0 lines is a row to drop. */
  takeChanges(): EvidenceRows {
    return this.evidence.takeChanges();
  }

  /** The sum of the examples' hashes that the version names. */
  get examplesHash(): number {
    return this.hash;
  }

  /** The calibration's fit if it was refitted since the last call, to keep; otherwise null. */
  takeNewCalibration(): KeptCalibration | null {
    if (!this.refitted) return null;
    this.refitted = false;
    return { weights: this.calibration.weights, fittedAt: this.calibratedAt };
  }

  /** Examples learnt. */
  get size(): number {
    return this.evidence.size;
  }

  /** Line keys seen. */
  get lineKeys(): number {
    return this.evidence.lines.size;
  }

  /**
   * Names what the next `predict` predicts from: its examples (their number and hash) and
   * the number of line keys its fit weighed features among. The same ledger gives the same
   * version.
   */
  get version(): string {
    return versionOf(this.fitIsStale() ? { size: this.size, keys: this.evidence.lines.size, hash: this.hash } : this.fit!);
  }

  /** Names the standing fit, which `predictAsFitted` predicts from (null before the first). */
  get fittedVersion(): string | null {
    return this.fit ? versionOf(this.fit) : null;
  }

  /** Learns the keys of lines of the feed (labelled or not). */
  seeLines(keys: readonly string[]): void {
    for (const key of keys) this.evidence.see(key, 1);
  }

  add(example: Example): void {
    this.addAll([example]);
  }

  /**
   * Learns examples. A person's label (`byPerson`, the default) changes the next decision:
   * `refitDue` is "now" until a fit has learnt it. Rules' decisions, and a person's
   * judgement carried to a line that supersedes the one judged, only add to what the model
   * already knows of such lines, so the fit waits for them until they have grown the
   * examples by a tenth (a day's sync need not refit a 100,000-line model for its rules).
   */
  addAll(examples: readonly Example[], byPerson = true): void {
    for (const example of examples) {
      this.evidence.learn(example, 1);
      this.hash = (this.hash + exampleHash(example)) >>> 0;
    }
    if (examples.length > 0 && byPerson) this.personChanges++;
  }

  /**
   * Forgets an example this model learnt: the evidence and the version are then those of a
   * model trained without it. A line relabelled or superseded is forgotten, not retrained
   * around; `byPerson` as for `addAll` (a person relabelled the line or put it back in the queue).
   */
  forget(example: Example, byPerson = true): void {
    if (!this.evidence.holds(example)) throw new Error("forget: the model never learnt this example");
    this.evidence.learn(example, -1);
    this.hash = (this.hash - exampleHash(example)) >>> 0;
    if (byPerson) this.personChanges++;
  }

  /** The prediction after refitting whatever is stale (`refitIfStale`): what a model trained on its evidence now says. */
  predict(line: LineFacts): Prediction | null {
    return this.predictKey(lineKey(line));
  }

  predictKey(key: string): Prediction | null {
    this.refitIfStale();
    return this.predictAsFitted(key);
  }

  /**
   * The standing fit's prediction, refitting nothing: what a transaction may afford. Its
   * caller makes sure a person's change is not waiting (`refitDue`), and names the fit's
   * version (`fittedVersion`) beside it.
   */
  predictAsFitted(key: string): Prediction | null {
    const fit = this.fit?.model;
    if (!fit) return null;
    const { best, inputs } = fit.measure(key);
    return { category: fit.categories[best]!, confidence: calibrate(this.calibration, inputs) };
  }

  /**
   * Whether the next decision must wait for a refit ("now": a person's label or a forgotten
   * example the fit has not learnt, or no fit at all), may be made by the standing fit while
   * one is made ("soon": the examples or lines grown, the calibration due), or neither.
   */
  refitDue(): "now" | "soon" | null {
    if (this.size > 0 && (!this.fit || (this.personChanges !== this.personChangesFitted && this.fitIsStale()))) return "now";
    return this.fitIsStale() || this.calibrationIsStale() ? "soon" : null;
  }

  /** Refits what the next prediction would: a caller may do that work ahead, at a time of its choosing. */
  refitIfStale(): void {
    for (const _ of this.refitInSteps());
  }

  /**
   * `refitIfStale` in steps of about 10 ms (docs/performance.md), yielding between them so a
   * caller can answer other calls meanwhile. Each fit reads a copy of the evidence taken
   * first, and is the fit of that copy: what is learnt meanwhile is the next fit's.
   */
  *refitInSteps(): Generator<void> {
    // A person's changes that leave the evidence as the fit's (a label undone) need no refit.
    if (this.fit && !this.fitIsStale()) this.personChangesFitted = this.personChanges;
    if (this.fitIsStale()) {
      const [size, hash, keys, personChanges] = [this.size, this.hash, this.evidence.lines.size, this.personChanges];
      const examples = this.evidence.copyOfExamples();
      const corpus = yield* this.evidence.corpusInSteps();
      yield;
      const model = yield* Fit.inSteps(examples, corpus);
      this.fit = { model, size, hash, keys };
      this.personChangesFitted = personChanges;
      yield;
    }
    if (this.calibrationIsStale()) {
      const size = this.size;
      this.calibration = yield* this.recalibrate();
      this.calibratedAt = size;
      this.refitted = true;
    }
  }

  private fitIsStale(): boolean {
    const fit = this.fit;
    if (!fit) return true;
    const changed = fit.size !== this.size || fit.hash !== this.hash;
    return (
      (changed && (this.personChanges !== this.personChangesFitted || this.size <= SMALL || this.size >= fit.size * RULES_GROWTH)) ||
      this.evidence.lines.size >= fit.keys * LINES_GROWTH
    );
  }

  private calibrationIsStale(): boolean {
    return this.size !== this.calibratedAt && (this.size <= SMALL || this.size >= this.calibratedAt * 1.25);
  }

  /**
   * Held-out folds of the examples: each example line falls in one of five folds by a hash
   * of its key (KEYS_HELD_OUT_WHOLE) or of (key, category, its number among the key's
   * lines), at most about CALIBRATION_SAMPLE of them; a fit without each fold measures that
   * fold's lines, and the calibration is fitted on what it measured and whether it was right.
   */
  private *recalibrate(): Generator<void, Calibration> {
    const examples = this.evidence.copyOfExamples();
    const corpus = yield* this.evidence.corpusInSteps();
    yield;
    const size = [...examples.values()].reduce((sum, perCategory) => sum + [...perCategory.values()].reduce((a, b) => a + b, 0), 0);
    const share = Math.min(1, CALIBRATION_SAMPLE / Math.max(1, size));
    const heldOut: { key: string; category: string; fold: number }[] = [];
    let work = 0;
    // In key order, so the same evidence gives the same pairs in the same order, whatever order it was learnt in.
    for (const [key, perCategory] of [...examples].sort((a, b) => byText(a[0], b[0]))) {
      const byKey = (fnv(2166136261, `${key}\u0001`) >>> 0) / 4294967296 < KEYS_HELD_OUT_WHOLE;
      const keyHash = fnv(2166136261, key);
      for (const [category, lines] of [...perCategory].sort((a, b) => byText(a[0], b[0]))) {
        if ((work += lines * LINE_WORK) >= STEP_WORK) {
          work = 0;
          yield;
        }
        for (let i = 0; i < lines; i++) {
          const h = byKey ? (keyHash >>> 0) / 4294967296 : (fnv(keyHash, `\u0000${category}\u0000${i}`) >>> 0) / 4294967296;
          if (h < share) heldOut.push({ key, category, fold: Math.floor((h / share) * FOLDS) });
        }
      }
    }
    const pairs: Pair[] = [];
    for (let fold = 0; fold < FOLDS; fold++) {
      const out = heldOut.filter((e) => e.fold === fold);
      if (out.length === 0) continue;
      const rest = new Map<string, Map<string, number>>();
      for (const [key, perCategory] of examples) rest.set(key, new Map(perCategory));
      for (const { key, category } of out) {
        const perCategory = rest.get(key)!;
        bump(perCategory, category, -1);
        if (perCategory.size === 0) rest.delete(key);
      }
      yield;
      const fit = yield* Fit.inSteps(rest, corpus);
      if (!fit) continue;
      for (const { key, category } of out) {
        if ((work += KEY_WORK) >= STEP_WORK) {
          work = 0;
          yield;
        }
        const { best, inputs } = fit.measure(key);
        pairs.push({ inputs, correct: fit.categories[best] === category });
      }
      yield;
    }
    return fitCalibration(pairs, RISING, FALLING);
  }
}

/** A held-out example line's fold drawn, in the work units of `STEP_WORK`. */
const LINE_WORK = 100;

const versionOf = ({ size, keys, hash }: { size: number; keys: number; hash: number }) => `lr1-${size}-${keys}-${(hash >>> 0).toString(16).padStart(8, "0")}`;
