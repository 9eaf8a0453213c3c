/**
 * `npm run eval:calibration`: how far the calibration's error is the calibration's form and
 * how far its estimate from the tenant's few held-out lines. The same measurements of the
 * test lines (fit.ts, `measure`) are calibrated four ways, and each way's expected
 * calibration error is printed for every business (seed) and style pooled, and for the
 * worst style, as `npm run eval:model` reports them:
 *   as built  on the tenant's own held-out lines (held-out.ts, with the classifier's holds);
 *   oracle    on the test lines themselves, with their truth: the best a calibration of
 *             this form over these inputs does for these lines, never available to a tenant;
 *   pooled    on every business's and style's held-out lines together, one fit for all:
 *             what weights shared across tenants would give;
 *   isotonic  as built, then an isotonic map of its confidence fitted on the same held-out
 *             lines (pool-adjacent violators, blocks of at least `ISOTONIC_BLOCK` lines).
 * Parts A (one style) and B (styles never trained on) as in the evaluation; `SEEDS=`,
 * `LABELS=`, `PARTS=` to choose.
 */
import { Evidence } from "../src/ledger/model/evidence";
import { Fit } from "../src/ledger/model/fit";
import { lineKey } from "../src/ledger/model/features";
import { heldOutPairs } from "../src/ledger/model/held-out";
import { toEnd } from "../src/ledger/model/steps";
import { calibrate, expectedCalibrationError, fitCalibration, type Calibration, type Pair } from "../src/ledger/model/calibration";
import { calibrationHolds, FALLING, RISING } from "../src/ledger/model/classifier";
import { inStyle, leaveOneStyleOut, makeBook, type BankLine } from "./bank-text/book";
import { STYLE_NAMES, type StyleName } from "./bank-text/styles";

const SEEDS = (process.env.SEEDS || "1,2,3").split(",").map(Number);
const LABELS = (process.env.LABELS || "50,200,1000").split(",").map(Number);
const PARTS = (process.env.PARTS || "A,B").split(",");
/** The fewest held-out lines an isotonic block holds: fewer, and one lucky line makes a step. */
const ISOTONIC_BLOCK = 20;
/** The oracle's ridge: barely any, since it is fitted on 2,000 lines. */
const ORACLE_RIDGE = 0.01;

const WAYS = ["as built", "oracle", "pooled", "isotonic"] as const;
type Way = (typeof WAYS)[number];
type Scored = { confidence: number; correct: boolean };

/** One business in one style: its held-out lines' pairs, and its test lines measured by the fit of all its labels. */
interface Case {
  style: StyleName;
  heldOut: Pair[];
  test: Pair[];
}

const keyOf = (line: BankLine) => lineKey({ description: line.description, merchantName: line.merchantName, amountCents: line.amountCents, accountId: line.accountId });

function caseOf(style: StyleName, labels: readonly BankLine[], lines: readonly BankLine[], test: readonly BankLine[]): Case | null {
  const evidence = new Evidence();
  for (const line of lines) evidence.see(keyOf(line), 1);
  for (const line of labels) evidence.learn({ key: keyOf(line), category: line.category }, 1);
  const corpus = toEnd(evidence.corpusInSteps());
  const examples = evidence.copyOfExamples();
  const fit = toEnd(Fit.inSteps(examples, corpus));
  if (!fit) return null;
  const measured = test.map((line): Pair => {
    const m = fit.measure(keyOf(line));
    return { inputs: m.inputs, correct: fit.categories[m.best] === line.category, prior: m.prior, ceiling: m.ceiling };
  });
  return { style, heldOut: toEnd(heldOutPairs(examples, corpus)), test: measured };
}

/** As the classifier fits it (classifier.ts, `recalibrate`). */
function asBuilt(pairs: readonly Pair[]): Calibration {
  const { ridges, priorLines } = calibrationHolds(pairs.length);
  return fitCalibration(pairs, RISING, FALLING, ridges, priorLines);
}

/** A line's confidence as a prediction gives it: at most its ceiling. */
const confidenceOf = (calibration: Calibration, pair: Pair) => Math.min(calibrate(calibration, pair.inputs), pair.ceiling ?? 1);

/** An isotonic map fitted on (confidence, right) points by pool-adjacent violators, read between blocks by interpolation. */
function isotonicMap(points: readonly Scored[]): (confidence: number) => number {
  const blocks: { sum: number; right: number; lines: number }[] = [];
  for (const point of [...points].sort((a, b) => a.confidence - b.confidence)) {
    blocks.push({ sum: point.confidence, right: point.correct ? 1 : 0, lines: 1 });
    for (;;) {
      const [before, last] = [blocks[blocks.length - 2], blocks[blocks.length - 1]!];
      if (!before || (before.lines >= ISOTONIC_BLOCK && before.right / before.lines < last.right / last.lines)) break;
      before.sum += last.sum;
      before.right += last.right;
      before.lines += last.lines;
      blocks.pop();
    }
  }
  const at = blocks.map((b) => b.sum / b.lines);
  const rate = blocks.map((b) => (b.right + 0.5) / (b.lines + 1));
  return (confidence) => {
    if (confidence <= at[0]!) return rate[0]!;
    for (let i = 1; i < at.length; i++) {
      if (confidence <= at[i]!) return rate[i - 1]! + ((confidence - at[i - 1]!) / (at[i]! - at[i - 1]!)) * (rate[i]! - rate[i - 1]!);
    }
    return rate[rate.length - 1]!;
  };
}

function scoredBy(way: Way, one: Case, pooled: Calibration): Scored[] {
  const score = (confidence: (pair: Pair) => number) => one.test.map((pair) => ({ confidence: confidence(pair), correct: pair.correct }));
  switch (way) {
    case "as built": {
      const own = asBuilt(one.heldOut);
      return score((pair) => confidenceOf(own, pair));
    }
    case "oracle": {
      const oracle = fitCalibration(one.test, RISING, FALLING, ORACLE_RIDGE, 0);
      return score((pair) => confidenceOf(oracle, pair));
    }
    case "pooled":
      return score((pair) => confidenceOf(pooled, pair));
    case "isotonic": {
      const own = asBuilt(one.heldOut);
      const map = isotonicMap(one.heldOut.map((pair) => ({ confidence: confidenceOf(own, pair), correct: pair.correct })));
      return score((pair) => Math.min(map(confidenceOf(own, pair)), pair.ceiling ?? 1));
    }
  }
}

const books = SEEDS.map((seed) => makeBook(seed));
console.log(`calibration error (10 bins) of the same measurements calibrated four ways; seeds ${SEEDS.join(",")}; every style pooled / worst style`);
console.log(`${"part labels".padEnd(14)}${WAYS.map((way) => way.padStart(22)).join("")}`);
for (const part of PARTS) {
  for (const labels of LABELS) {
    const cases: Case[] = [];
    for (const book of books) {
      for (const style of STYLE_NAMES) {
        const split = part === "A" ? inStyle(book, style, labels) : leaveOneStyleOut(book, style, labels);
        const one = caseOf(style, split.labels, [...split.past, ...split.test], split.test);
        if (one) cases.push(one);
      }
    }
    const pooled = asBuilt(cases.flatMap((one) => one.heldOut));
    const figures = WAYS.map((way) => {
      const byStyle = new Map<StyleName, Scored[]>();
      for (const one of cases) byStyle.set(one.style, [...(byStyle.get(one.style) ?? []), ...scoredBy(way, one, pooled)]);
      let worst: [number, string] = [0, ""];
      for (const [style, scored] of byStyle) {
        const error = expectedCalibrationError(scored);
        if (error > worst[0]) worst = [error, style];
      }
      const all = expectedCalibrationError([...byStyle.values()].flat());
      return `${all.toFixed(3)} / ${worst[0].toFixed(3)}`.padStart(22);
    });
    console.log(`${`${part} ${labels}`.padEnd(14)}${figures.join("")}`);
  }
}
