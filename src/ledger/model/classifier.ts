/**
 * The per-tenant local classifier.
 *
 * What it knows (`Evidence`, evidence.ts, kept exactly and incrementally, the way the
 * ledger keeps it): the examples, each line key (features.ts) with how many evidence lines
 * of each category it stands for; and the tenant's lines, each key with how many lines of
 * the feed have it, labelled or not. A feature that many different keys share (a bank's own
 * words, the business's city) is weighed down by its inverse document frequency among
 * them; a feature on a single line (a code, a one-off word) is dropped. This is how the
 * model learns which words of a bank's text carry the merchant: from the tenant's own feed,
 * whatever its bank.
 *
 * What it derives (`Fit`, fit.ts, refitted from the evidence when a prediction finds a
 * person's label or a forgotten example since the last fit, the examples grown by a tenth
 * by rules' decisions, or the lines grown by a quarter): a softmax regression over the
 * TF-IDF weighted features of the example keys, and the merchants' histories (history.ts).
 *
 * A prediction is the regression's most probable category, with a confidence: the
 * calibration (calibration.ts) of what was measured of the line (the regression's
 * probability; the merchant's history overall, in the line's amount band and in its
 * account; whether there is a history; how much of the text no example has; whether it
 * is held below the band, and why), fitted on held-out folds of the tenant's own examples
 * (held-out.ts). A merchant whose lines went to
 * different categories, and that nothing on the line separates, keeps a low confidence
 * however sure the regression is; a handful of labels, however consistent, earns no more
 * than the rule of succession allows until the held-out lines show more; a line that names
 * no party the examples show (a check printed as its number alone, a transfer to an
 * account no example shows), whose money goes the way no example of its merchant's went,
 * whose merchant's lines split where nothing on the line tells which, or that names a
 * chain selling many kinds of things while its labels are few, stays below the band
 * (held-below.ts, `heldBelowBy`). Where the tenant
 * opted in to the shared merchant prior (shared-prior.ts), a merchant other businesses split
 * stays below the band while the tenant's own labels of it all agree and are few. The model
 * decides nothing until enough of its held-out lines reached the band (`bandOpens`).
 */
import { calibrate, fitCalibration, UNCALIBRATED, type Calibration, type Pair } from "./calibration";
import { atMost, CHANCE } from "./chance";
import { Evidence, type EvidenceRows, type Example } from "./evidence";
import { lineKey, type LineFacts } from "./features";
import { Fit, HELD_INPUT, INPUT, INPUTS } from "./fit";
import type { HeldBelow } from "./held-below";
import { fnv, heldOutPairs } from "./held-out";
import { sharedCap, sharedGuess, type SharedPrior } from "./shared-prior";

export type { EvidenceRows, Example } from "./evidence";

export interface Prediction {
  category: string;
  /** Calibrated: the precision observed at this evidence on held-out data (at most what the shared merchant prior allows). */
  confidence: number;
  /** Set where the shared merchant prior's category is the prediction (the tenant's labels show nothing of the merchant): a suggestion, never a decision. */
  byOthers?: true;
  /**
   * Set where the line is held below the band, so a person or a rule decides it
   * (held-below.ts, `heldBelowBy`): it names no party the examples show (a check printed as
   * its number alone, a transfer to an account no example shows), its money goes the way no
   * example of its merchant's went, its merchant's lines split where nothing on it tells
   * which, or it names a chain that sells many kinds of things whose labels are few.
   */
  heldBelow?: HeldBelow;
}

/** The default duh band: the model decides a line at this calibrated confidence or above. */
export const DEFAULT_DUH_BAND_FLOOR = 0.95;

/** A calibration fit as the ledger keeps it, with the number of examples it was fitted at. */
export interface KeptCalibration extends Calibration {
  fittedAt: number;
  /** What the fit made of its own held-out lines (`Reached`). */
  reached: Reached;
  /** The hold it was fitted under (`HOLD`): a fit made under another is refitted. */
  hold: string;
}

/**
 * The held-out lines' calibrated confidences, in millionths, those that came out right and
 * those that did not, each in falling order: what `bandOpens` counts at a floor.
 */
export interface Reached {
  right: number[];
  wrong: number[];
}

const NOTHING_REACHED: Reached = { right: [], wrong: [] };

/**
 * How many of the tenant's held-out lines must reach the duh band's floor before the model
 * decides anything (`bandOpens`). Below it the calibration's confidence at the floor is its
 * curve drawn on past the lines it measured, not a measurement: a tenant with 50 labels has
 * none to 12 there (in the evaluation), and its first decisions would stand on two labels
 * of a merchant that happened to agree. Twenty lines are the fewest in which the floor's
 * miss rate, one in twenty, is a whole line. At 200 labels a tenant has some 20 to 130.
 */
export const BAND_OPENS_AT = 20;

/**
 * Confidence may only rise with the regression's probability and the history's agreement,
 * and only fall with novelty and with a line's being held below the band: a held line is
 * never surer than an open one that measured the same.
 */
export const RISING = [INPUT.probability, INPUT.merchant, INPUT.band, INPUT.account];
export const FALLING = [INPUT.novelty, ...Object.values(HELD_INPUT)];
/** The history's inputs, whose weights the ridge holds hardest. */
const HISTORY_INPUTS: readonly number[] = [INPUT.merchant, INPUT.band, INPUT.account, INPUT.known];
/**
 * How strongly each input's weight is held at 0 while the held-out lines are few: the
 * history's, at `FEW_HELD_OUT` held-out lines or fewer, as strongly as a few held-out
 * lines; the probability's, novelty's and the constant's, barely. The band's opening on the
 * tenant's own held-out lines (`BAND_OPENS_AT`), more than this hold, keeps a few agreeing
 * labels from deciding lines; held harder (10, with a prior of 30 lines), confidence at 50
 * labels fell short of what the lines earn; held at 1 (a prior of 3), a tenant whose
 * held-out lines were all right was as sure of a merchant it never saw
 * (docs/model-evaluation.md, "A lighter hold once the band opens on held-out lines").
 */
const HISTORY_RIDGE = 3;
const OTHER_RIDGE = 0.1;
/**
 * The prior's weight in held-out lines (calibration.ts) at `FEW_HELD_OUT` held-out lines
 * or fewer: what the history alone says of a line, counted as this many lines, where the
 * held-out lines say little (at 30 it outweighed what 50 held-out lines show).
 */
const PRIOR_LINES = 10;
/**
 * Beyond this many held-out lines, the prior and the history's ridge shrink in proportion
 * (four times the lines, a quarter of each): the more of the tenant's own lines the fit
 * has, the less it leans on what stands in for them.
 */
const FEW_HELD_OUT = 50;
/** The hold's name, kept with each fit: a release that changes the hold refits what an earlier one kept. */
const HOLD = `history ridge ${HISTORY_RIDGE}, prior ${PRIOR_LINES} lines, shrinking beyond ${FEW_HELD_OUT}; a constant per reason a line is held; held lines reached at their ceiling; empty views say nothing; a narrower word than the name judged by the name's lines`;
/** Below this many examples the calibration is refitted at every change. */
const SMALL = 100;
/** Rules' decisions may grow the examples by this factor before the fit is refitted for them alone. */
const RULES_GROWTH = 1.1;
/** The lines may grow by this factor before the fit is refitted for them alone. */
const LINES_GROWTH = 1.25;

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
  private reached: Reached = NOTHING_REACHED;
  private refitted = false;
  /** Persons' labels learnt and examples forgotten, counted: the fit must have learnt every one of them before the next decision. */
  private personChanges = 0;
  /** `personChanges` when the standing fit's evidence was copied. */
  private personChangesFitted = 0;
  /** The keys of persons' labels and forgotten examples since the standing fit's evidence was copied, each with `personChanges` once counted. */
  private personChanged: { key: string; change: number }[] = [];
  /** The shared merchant prior the tenant opted in to (shared-prior.ts); null without. */
  private sharedPrior: SharedPrior | null = null;
  /** The tenant's categories by their shared names (`sharedCategoryName`), which the prior's categories are read as. */
  private sharedCategories: ReadonlyMap<string, string> = new Map();

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
    // A fit of other inputs, kept without its held-out lines or made under another hold (an earlier release's), is refitted at the next prediction.
    if (calibration && calibration.weights.length === INPUTS && calibration.reached && calibration.hold === HOLD) {
      model.calibration = { weights: calibration.weights };
      model.calibratedAt = calibration.fittedAt;
      model.reached = calibration.reached;
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
    return { weights: this.calibration.weights, fittedAt: this.calibratedAt, reached: this.reached, hold: HOLD };
  }

  /**
   * Whether the model may decide lines at this duh band floor: at least `BAND_OPENS_AT` of
   * its calibration's held-out lines reached the floor, and their misses are no more than
   * chance allows of lines that miss as often as the floor says (at 0.95, one in twenty):
   * four of twenty shut it (a run that seldom, 1.6%), four of sixty-two do not (38%). A
   * held-out line is harder than the feed's (its fold may not show its merchant), so the
   * held-out lines' own miss rate measured against the floor shut tenants whose lines in the
   * band were right 99.8% of the time. Until then every line waits for a person or a rule,
   * its suggestion as sure as the calibration says.
   */
  bandOpens(floor: number): boolean {
    const atFloor = Math.round(floor * 1_000_000);
    const right = this.reached.right.filter((c) => c >= atFloor).length;
    const wrong = this.reached.wrong.filter((c) => c >= atFloor).length;
    const lines = right + wrong;
    return lines >= BAND_OPENS_AT && 1 - atMost(wrong - 1, lines, 1 - floor) >= CHANCE;
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

  /**
   * Reads what other tenants say of merchants from now on (null: no more): how far they
   * agree, and for a merchant the tenant's labels do not show, the category they file it
   * under where the tenant has one of that name (`categories`: shared name -> the tenant's).
   */
  useSharedPrior(prior: SharedPrior | null, categories: ReadonlyMap<string, string> = new Map()): void {
    this.sharedPrior = prior;
    this.sharedCategories = categories;
  }

  /** Whether a shared merchant prior is read (`useSharedPrior`). */
  get readsSharedPrior(): boolean {
    return this.sharedPrior !== null;
  }

  /** The categories the standing fit learnt from the labels (none before the first fit). */
  get labelledCategories(): readonly string[] {
    return this.fit?.model?.categories ?? [];
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
    if (examples.length > 0 && byPerson) {
      this.personChanges++;
      for (const { key } of examples) this.personChanged.push({ key, change: this.personChanges });
    }
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
    if (byPerson) this.personChanged.push({ key: example.key, change: ++this.personChanges });
  }

  /**
   * The keys of what persons changed that the standing fit has not learnt (their labels,
   * and the examples forgotten when they relabelled a line): what `holdsBack` reads.
   */
  unfittedPersonKeys(): string[] {
    // Changes that left the evidence as the fit's (a label undone, a rule's category confirmed) need no refit: nothing waits for them.
    if (this.refitDue() !== "now") return [];
    return this.personChanged.map((c) => c.key);
  }

  /**
   * Whether the standing fit must leave a line of this key alone until a refit: the line may
   * name the merchant of one of `personKeys` (a person's change the fit has not learnt).
   * False without a fit.
   */
  holdsBack(personKeys: readonly string[]): (key: string) => boolean {
    const fit = this.fit?.model;
    return fit ? fit.namesAny(personKeys, this.evidence.currentCorpus() ?? undefined) : () => false;
  }

  /** The prediction after refitting whatever is stale (`refitIfStale`): what a model trained on its evidence now says. */
  predict(line: LineFacts): Prediction | null {
    return this.predictKey(lineKey(line));
  }

  predictKey(key: string): Prediction | null {
    if (this.size > 0) this.refitIfStale();
    return this.predictAsFitted(key);
  }

  /**
   * The standing fit's prediction, refitting nothing: what a transaction may afford. Its
   * caller makes sure a person's change is not waiting (`refitDue`), and names the fit's
   * version (`fittedVersion`) beside it.
   */
  predictAsFitted(key: string): Prediction | null {
    const fit = this.fit?.model;
    // A model that learnt nothing says what the others say; one that learnt labels says
    // nothing before its first fit, so its own labels always come first.
    if (this.size === 0) return this.othersSay(key);
    if (!fit) return null;
    const corpus = this.evidence.currentCorpus();
    const { best, inputs, history, ceiling, heldBelow } = fit.measure(key, corpus ? { corpus, at: this.evidence.linesMoved } : undefined);
    const own: Prediction = { category: fit.categories[best]!, confidence: Math.min(calibrate(this.calibration, inputs), sharedCap(history, this.sharedPrior), ceiling) };
    if (heldBelow) own.heldBelow = heldBelow;
    // The others' word counts only for a merchant no label of the tenant's shows.
    const others = history === null ? this.othersSay(key) : null;
    return others && others.confidence > own.confidence ? others : own;
  }

  /** What the shared prior says of a line whose merchant the tenant's labels do not show; null without one. */
  private othersSay(key: string): Prediction | null {
    const guess = this.sharedPrior ? sharedGuess(key, this.sharedPrior, this.sharedCategories) : null;
    return guess && { ...guess, byOthers: true };
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
    if (this.fit && !this.fitIsStale()) this.fitted(this.personChanges);
    if (this.fitIsStale()) {
      const [size, hash, keys, personChanges] = [this.size, this.hash, this.evidence.lines.size, this.personChanges];
      const examples = this.evidence.copyOfExamples();
      const corpus = yield* this.evidence.corpusInSteps();
      yield;
      const model = yield* Fit.inSteps(examples, corpus);
      this.fit = { model, size, hash, keys };
      this.fitted(personChanges);
      yield;
    }
    if (this.calibrationIsStale()) {
      const size = this.size;
      ({ calibration: this.calibration, reached: this.reached } = yield* this.recalibrate());
      this.calibratedAt = size;
      this.refitted = true;
    }
  }

  /** The standing fit has learnt every person's change up to this count. */
  private fitted(personChanges: number): void {
    this.personChangesFitted = personChanges;
    this.personChanged = this.personChanged.filter((c) => c.change > personChanges);
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

  /** The calibration fitted on held-out folds of the examples (held-out.ts), and what it makes of those lines. */
  private *recalibrate(): Generator<void, { calibration: Calibration; reached: Reached }> {
    const examples = this.evidence.copyOfExamples();
    const corpus = yield* this.evidence.corpusInSteps();
    yield;
    const pairs = yield* heldOutPairs(examples, corpus);
    const { ridges, priorLines } = calibrationHolds(pairs.length);
    const calibration = fitCalibration(pairs, RISING, FALLING, ridges, priorLines);
    return { calibration, reached: reachedBy(calibration, pairs) };
  }
}

/**
 * How strongly the calibration's fit on this many held-out lines is held: each input's
 * ridge, and the prior's weight in lines (`FEW_HELD_OUT`).
 */
export function calibrationHolds(heldOut: number): { ridges: number[]; priorLines: number } {
  const shrink = Math.min(1, FEW_HELD_OUT / Math.max(1, heldOut));
  const ridges = Array.from({ length: INPUTS }, (_, j) => (HISTORY_INPUTS.includes(j) ? HISTORY_RIDGE * shrink : OTHER_RIDGE));
  return { ridges, priorLines: PRIOR_LINES * shrink };
}

/** The held-out lines' confidences by this calibration, as a prediction gives them (a held line's at most its ceiling), right and wrong apart. */
export function reachedBy(calibration: Calibration, pairs: readonly Pair[]): Reached {
  const right: number[] = [];
  const wrong: number[] = [];
  for (const pair of pairs) (pair.correct ? right : wrong).push(Math.round(Math.min(calibrate(calibration, pair.inputs), pair.ceiling ?? 1) * 1_000_000));
  const falling = (a: number, b: number) => b - a;
  return { right: right.sort(falling), wrong: wrong.sort(falling) };
}

const versionOf = ({ size, keys, hash }: { size: number; keys: number; hash: number }) => `lr2-${size}-${keys}-${(hash >>> 0).toString(16).padStart(8, "0")}`;
