/**
 * The per-tenant local classifier: multinomial naive Bayes over the line's features,
 * with an exact merchant-key vote that decides when the key's history is consistent.
 * Its confidence is calibrated on held-out folds of its own training set (calibration.ts).
 *
 * Training is incremental (`add`, `addAll`, and `forget` to take an example back); the
 * calibration is refitted when a prediction finds the training set grown by a quarter
 * since the last fit, or changed at all while it is small. The counts come out as rows
 * (`takeChanges`) and go back in (`restore`): that is how the ledger keeps them.
 */
import { calibrate, fitCalibration, UNCALIBRATED, type Calibration } from "./calibration";

export interface Example {
  features: string[];
  category: string;
}

export interface Prediction {
  category: string;
  /** Calibrated: the precision observed at this score on held-out data. */
  confidence: number;
}

/** The default duh band: the model decides a line at this calibrated confidence or above. */
export const DEFAULT_DUH_BAND_FLOOR = 0.95;

const FOLDS = 5;
/** The calibration is fitted on at most this many recent examples, so refits stay cheap. */
export const CALIBRATION_SAMPLE = 3_000;
const SMALL = 100;

/** The two kinds of evidence: a merchant seen before (key vote), or only its words (naive Bayes). */
type Path = "key" | "words";
interface Scored {
  category: string;
  score: number;
  path: Path;
}

/**
 * The counts as rows, the way the ledger keeps them (local-model.ts): examples per
 * category, and how often each feature was seen under each category.
 */
export interface CountRows {
  categories: { category: string; examples: number }[];
  cells: { category: string; feature: string; count: number }[];
}

/** A calibration fit as the ledger keeps it: one per kind of evidence, and the training set's size it was fitted at. */
export interface KeptCalibration extends Record<Path, Calibration> {
  fittedAt: number;
}

class Counts {
  readonly docs = new Map<string, number>();
  readonly tokenTotals = new Map<string, number>();
  readonly tokens = new Map<string, Map<string, number>>();
  readonly keyVotes = new Map<string, Map<string, number>>();
  /** Every feature seen, with how many times: forgetting its last use takes it out of the vocabulary. */
  readonly vocabulary = new Map<string, number>();
  size = 0;
  /** The counts changed (category -> features) since `takeChanges`, once `tracking`: the model's own counts, not a fold's. */
  private changed: Map<string, Set<string>> | null = null;

  /** Starts noting which counts change, for `takeChanges`. */
  tracking(): this {
    this.changed = new Map();
    return this;
  }

  /** Counts as a model trained on the examples `rows` describe would hold them. */
  static fromRows(rows: CountRows): Counts {
    const counts = new Counts();
    for (const { category, examples } of rows.categories) {
      counts.docs.set(category, examples);
      counts.size += examples;
    }
    for (const { category, feature, count } of rows.cells) counts.countFeature(category, feature, count);
    return counts;
  }

  /** Every count, as rows in key order (category, feature). */
  rows(): CountRows {
    return inKeyOrder({
      categories: [...this.docs].map(([category, examples]) => ({ category, examples })),
      cells: [...this.tokens].flatMap(([category, perCategory]) => [...perCategory].map(([feature, count]) => ({ category, feature, count }))),
    });
  }

  /** The counts changed since the last call, as rows; a count of 0 is a row to drop. */
  takeChanges(): CountRows {
    if (!this.changed) throw new Error("these counts do not track their changes");
    const rows: CountRows = { categories: [], cells: [] };
    for (const [category, features] of this.changed) {
      rows.categories.push({ category, examples: this.docs.get(category) ?? 0 });
      const perCategory = this.tokens.get(category);
      for (const feature of features) rows.cells.push({ category, feature, count: perCategory?.get(feature) ?? 0 });
    }
    this.changed.clear();
    return inKeyOrder(rows);
  }

  add(example: Example): void {
    this.count(example, 1);
  }

  /** Takes back an example `add` counted: the counts are then those of a model that never saw it. */
  remove(example: Example): void {
    this.count(example, -1);
  }

  /** Whether the counts hold this example: its category, and each of its features under it as often. */
  holds({ features, category }: Example): boolean {
    const perCategory = this.tokens.get(category);
    if (!this.docs.get(category) || !perCategory) return false;
    const uses = new Map<string, number>();
    for (const f of features) bump(uses, f, 1);
    return [...uses].every(([f, n]) => (perCategory.get(f) ?? 0) >= n);
  }

  private count({ features, category }: Example, by: 1 | -1): void {
    this.size += by;
    bump(this.docs, category, by);
    this.changed?.set(category, this.changed.get(category) ?? new Set());
    for (const f of features) this.countFeature(category, f, by);
  }

  /** A feature seen `by` more times under a category (fewer when negative), in every count that follows from it. */
  private countFeature(category: string, feature: string, by: number): void {
    let perCategory = this.tokens.get(category);
    if (!perCategory) this.tokens.set(category, (perCategory = new Map()));
    bump(perCategory, feature, by);
    if (perCategory.size === 0) this.tokens.delete(category);
    bump(this.vocabulary, feature, by);
    bump(this.tokenTotals, category, by);
    if (feature.startsWith("key:")) {
      let votes = this.keyVotes.get(feature);
      if (!votes) this.keyVotes.set(feature, (votes = new Map()));
      bump(votes, category, by);
      if (votes.size === 0) this.keyVotes.delete(feature);
    }
    this.changed?.get(category)?.add(feature);
  }

  /** The best category, its raw score in 0..1 (not yet calibrated) and which evidence gave it. */
  score(features: string[]): Scored | null {
    if (this.size === 0) return null;
    const key = features.find((f) => f.startsWith("key:"));
    const votes = key ? this.keyVotes.get(key) : undefined;
    if (votes) {
      const total = [...votes.values()].reduce((a, b) => a + b, 0);
      const [category, count] = [...votes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
      // Laplace: one consistent vote scores 2/3, ten score 11/12; a split key scores lower.
      return { category, score: (count + 1) / (total + 2), path: "key" };
    }
    return this.naiveBayes(features);
  }

  private naiveBayes(features: string[]): Scored {
    const v = this.vocabulary.size + 1;
    const logs: [string, number][] = [];
    for (const [category, docs] of this.docs) {
      const tokens = this.tokens.get(category)!;
      const total = this.tokenTotals.get(category)!;
      let log = Math.log(docs / this.size);
      for (const f of features) log += Math.log(((tokens.get(f) ?? 0) + 1) / (total + v));
      logs.push([category, log]);
    }
    const top = Math.max(...logs.map(([, l]) => l));
    const weights = logs.map(([c, l]) => [c, Math.exp(l - top)] as const);
    const sum = weights.reduce((s, [, w]) => s + w, 0);
    const [category, weight] = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    // Unseen merchants never score above 0.9 raw: the key vote is the stronger evidence.
    return { category, score: Math.min(0.9, weight / sum), path: "words" };
  }
}

/** Rows sorted by their keys: written in the order of the table's key, and comparable. */
function inKeyOrder(rows: CountRows): CountRows {
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  rows.categories.sort((a, b) => byText(a.category, b.category));
  rows.cells.sort((a, b) => byText(a.category, b.category) || byText(a.feature, b.feature));
  return rows;
}

/** Adds `by` to a count, dropping the entry at zero so a forgotten example leaves no trace. */
function bump<K>(counts: Map<K, number>, key: K, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next === 0) counts.delete(key);
  else counts.set(key, next);
}

/** An example's hash, summed into the version so the version names a set, whatever the order. */
function exampleHash(example: Example): number {
  // FNV-1a over `category \0 feature \1 feature ...`, one step per code point (its first
  // UTF-16 unit), without building that string: training hashes every example.
  let h = Math.imul(fnv(2166136261, example.category) ^ 0 /* the \0 */, 16777619);
  example.features.forEach((feature, i) => (h = fnv(i === 0 ? h : Math.imul(h ^ 1, 16777619), feature)));
  return h >>> 0;
}

function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    h = Math.imul(h ^ unit, 16777619);
    if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) i++; // a surrogate pair is one code point
    }
  }
  return h;
}

export class LocalModel {
  private readonly counts: Counts;
  /**
   * The newest examples learnt, as many as the calibration samples. Only these are kept
   * whole: every example's features would be 64 MB at 100,000 lines, half of a Durable
   * Object's memory, where the counts are about 2 MB.
   */
  private recent: Example[] = [];
  /** A restored model's sample is read from the ledger only when a refit needs it (`wantsSample`). */
  private sampleMissing = false;
  /** One calibration per kind of evidence: their raw scores mean different things. */
  private calibration: Record<Path, Calibration> = { key: UNCALIBRATED, words: UNCALIBRATED };
  private calibratedAt = 0;
  /** Whether the calibration was refitted since `takeNewCalibration`. */
  private refitted = false;
  /** A sum of per-example hashes: the version names the set of examples, whatever their order. */
  private hash: number;

  constructor(counts = new Counts().tracking(), hash = 0) {
    this.counts = counts;
    this.hash = hash >>> 0;
  }

  static train(examples: Example[]): LocalModel {
    const model = new LocalModel();
    model.addAll(examples);
    return model;
  }

  /**
   * The model whose counts, examples' hash and last calibration fit were kept (`takeChanges`,
   * `examplesHash`, `takeNewCalibration`): the same counts and version as the model they
   * were taken from, and with its fit the same predictions. Its calibration sample is read
   * only when a refit needs it (`wantsSample`, `resample`).
   */
  static restore(rows: CountRows, hash: number, calibration: KeptCalibration | null): LocalModel {
    const model = new LocalModel(Counts.fromRows(rows).tracking(), hash);
    model.sampleMissing = true;
    if (calibration) {
      model.calibration = { key: calibration.key, words: calibration.words };
      model.calibratedAt = calibration.fittedAt;
    }
    return model;
  }

  /** Every count, as rows in key order: two models with the same counts give the same rows. */
  countRows(): CountRows {
    return this.counts.rows();
  }

  /** The counts changed since the last call (or since training began), as rows to keep. */
  takeChanges(): CountRows {
    return this.counts.takeChanges();
  }

  /** The sum of the examples' hashes that the version names. */
  get examplesHash(): number {
    return this.hash;
  }

  /** Whether the next prediction would refit the calibration without the sample it fits on (a restored model's). */
  get wantsSample(): boolean {
    return this.sampleMissing && this.calibrationIsStale();
  }

  /** Gives a restored model its calibration sample: the newest examples it holds, oldest first. */
  resample(newest: readonly Example[]): void {
    this.recent = newest.slice(-CALIBRATION_SAMPLE);
    this.sampleMissing = false;
  }

  /** The calibration's fit if it was refitted since the last call, to keep; otherwise null. */
  takeNewCalibration(): KeptCalibration | null {
    if (!this.refitted) return null;
    this.refitted = false;
    return { ...this.calibration, fittedAt: this.calibratedAt };
  }

  get size(): number {
    return this.counts.size;
  }

  /** Changes whenever the training set changes; the same set gives the same version. */
  get version(): string {
    return `nb1-${this.size}-${(this.hash >>> 0).toString(16).padStart(8, "0")}`;
  }

  add(example: Example): void {
    this.addAll([example]);
  }

  /** Learns a batch (a feed page's new evidence). */
  addAll(examples: readonly Example[]): void {
    for (const example of examples) this.learn(example);
    if (this.recent.length > CALIBRATION_SAMPLE) this.recent.splice(0, this.recent.length - CALIBRATION_SAMPLE);
  }

  predict(features: string[]): Prediction | null {
    // The calibration is refitted when a prediction needs it, so learning costs no refits
    // while nothing is asked (a sync whose rules decide every line).
    this.refitIfStale();
    const raw = this.counts.score(features);
    return raw ? { category: raw.category, confidence: calibrate(this.calibration[raw.path], raw.score) } : null;
  }

  /** Refits the calibration where the next prediction would: a caller may do that work ahead, at a time of its choosing. */
  refitIfStale(): void {
    if (!this.calibrationIsStale()) return;
    if (this.sampleMissing) throw new Error("a restored model refits only once given its sample (resample)");
    this.recalibrate();
  }

  private calibrationIsStale(): boolean {
    return this.size !== this.calibratedAt && (this.size <= SMALL || this.size >= this.calibratedAt * 1.25);
  }

  /**
   * Forgets an example this model learnt (the same features and category): the counts and
   * the version are then those of a model trained without it. A line relabelled or
   * superseded is forgotten, not retrained around.
   */
  forget(example: Example): void {
    if (!this.counts.holds(example)) throw new Error("forget: the model never learnt this example");
    this.counts.remove(example);
    this.hash = (this.hash - exampleHash(example)) >>> 0;
    if (this.sampleMissing) return; // the sample, read later, will not hold it
    const features = example.features.join("\u0001");
    const at = this.recent.findIndex((e) => e.category === example.category && e.features.join("\u0001") === features);
    if (at !== -1) this.recent.splice(at, 1);
  }

  private learn(example: Example): void {
    this.counts.add(example);
    if (!this.sampleMissing) this.recent.push(example); // else the sample, read later, will hold it
    this.hash = (this.hash + exampleHash(example)) >>> 0;
  }

  /**
   * Held-out (score, correct) pairs, then an isotonic fit per kind of evidence:
   * - plain folds measure the key vote on merchants seen before;
   * - folds that hold out whole merchants measure the words alone on merchants never
   *   seen, which is what an unknown line is.
   */
  private recalibrate(): void {
    const sample = this.recent;
    const pairs: Record<Path, { score: number; correct: boolean }[]> = { key: [], words: [] };
    const merchantFold = (e: Example) => {
      const key = e.features.find((f) => f.startsWith("key:")) ?? "";
      let h = 0;
      for (const ch of key) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
      return Math.abs(h) % FOLDS;
    };
    for (const foldOf of [(_: Example, i: number) => i % FOLDS, merchantFold]) {
      for (let fold = 0; fold < FOLDS; fold++) {
        const train = new Counts();
        sample.forEach((e, i) => foldOf(e, i) !== fold && train.add(e));
        sample.forEach((e, i) => {
          if (foldOf(e, i) !== fold) return;
          const guess = train.score(e.features);
          if (guess) pairs[guess.path].push({ score: guess.score, correct: guess.category === e.category });
        });
      }
    }
    this.calibration = { key: fitCalibration(pairs.key), words: fitCalibration(pairs.words) };
    this.calibratedAt = this.size;
    this.refitted = true;
  }
}
