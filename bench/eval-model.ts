/**
 * `npm run eval:model`: the local model measured on bank text it cannot have been fitted
 * to. Each seed is a different business (bench/bank-text/: its merchants, amounts and
 * noise drawn afresh) whose transactions are printed as thirteen banks and aggregators print
 * them. The model learns from the first N lines of the training period and is tested on the
 * 2,000 lines of the test period, in two ways:
 *
 * A. in one style: labels and test lines printed by the same bank (and again with the
 *    labels drawn at random from the training period, at 200 and 1,000 labels);
 * B. styles never trained on: labels printed in five other styles, test lines in the one
 *    held out (leave-one-style-out);
 * C. cold start: 0 and 50 labels;
 * D. A, B and C again with the shared merchant prior, pooled from other businesses
 *    (SHARED_SEEDS, default 1001-1200) that opted in, every business filing its lines by
 *    a taxonomy of its own (bench/bank-text/taxonomy.ts); and the same filed books without
 *    it at 50 and 200 labels.
 *
 * Then one line per goal, met or not, with the worst style. Figures only, never asserted.
 * SEEDS=1,2,3 (the default) chooses the businesses; DUH_BAND_FLOOR the band's floor
 * (default: the model's).
 */
import { expectedCalibrationError } from "../src/ledger/model/calibration";
import { DEFAULT_DUH_BAND_FLOOR } from "../src/ledger/model/classifier";
import { type Book, inStyle, inStyleAtRandom, leaveOneStyleOut, makeBook, type Split } from "./bank-text/book";
import { trainModel } from "./bank-text/harness-model";
import { sharedPriorOf } from "./bank-text/shared";
import { filedBook, sharedNamesOf } from "./bank-text/taxonomy";
import { SHARED_PRIOR_TENANTS, type SharedPrior } from "../src/ledger/model/shared-prior";
import { addTally, coverage, emptyTally, precision, tally, type Tally } from "./bank-text/measure";
import { STYLE_NAMES, STYLES, type StyleName } from "./bank-text/styles";

const FLOOR = Number(process.env.DUH_BAND_FLOOR ?? DEFAULT_DUH_BAND_FLOOR);
const SEEDS = (process.env.SEEDS || "1,2,3").split(",").map(Number);
if (SEEDS.some((s) => !Number.isInteger(s))) throw new Error(`SEEDS is a comma-separated list of integers, not "${process.env.SEEDS}"`);
const IN_STYLE_LABELS = [50, 200, 1_000, 3_000];
const HELD_OUT_LABELS = [50, 200, 1_000];

const GOALS = { precision: 0.98, coverageAt200: 0.5, coverageAt1000: 0.8, calibration: 0.03, inseparableInBand: 0.02 };

/** The businesses that opted in to the shared merchant prior (D): never one of the businesses measured. */
const SHARED_SEEDS = (process.env.SHARED_SEEDS || Array.from({ length: 200 }, (_, i) => 1001 + i).join(",")).split(",").map(Number);
if (SHARED_SEEDS.some((s) => !Number.isInteger(s) || SEEDS.includes(s))) throw new Error(`SHARED_SEEDS is a comma-separated list of integers none of which is in SEEDS, not "${process.env.SHARED_SEEDS}"`);

/** The prior D reads, with the measured business's categories by their shared names; null for A, B and C. */
interface Prior {
  shared: SharedPrior;
  categories: ReadonlyMap<string, string>;
}

function measure(split: Split, prior: Prior | null = null): Tally {
  const predict = trainModel(split.labels, [...split.past, ...split.test], prior?.shared ?? null, prior?.categories, FLOOR);
  return tally(split.labels, split.test, split.test.map(predict), FLOOR);
}

/** Tallies summed over seeds, by part, style and label count. */
const tallies = new Map<string, Tally>();
const keyOf = (part: string, style: StyleName | "all", labels: number) => `${part}|${style}|${labels}`;
function record(part: string, style: StyleName | "all", labels: number, t: Tally): void {
  const key = keyOf(part, style, labels);
  tallies.set(key, addTally(tallies.get(key) ?? emptyTally(), t));
}
const get = (part: string, style: StyleName | "all", labels: number) => tallies.get(keyOf(part, style, labels))!;

const pct = (x: number) => (Number.isNaN(x) ? "-" : `${(100 * x).toFixed(1)}%`);
const num = (n: number) => n.toLocaleString("en-US");

console.log(`local model evaluation: ${STYLE_NAMES.length} bank text styles, seeds ${SEEDS.join(",")}, duh band floor ${FLOOR}`);
console.log("each seed is a business: 3,000 training-period lines (labels are the first N, in time order), then 2,000 test lines,");
console.log("about a tenth of them from merchants new in the test period");

const began = performance.now();
let started = began;
const books: Book[] = SEEDS.map((seed) => makeBook(seed));
for (const book of books) {
  const { business } = book;
  const test = book.txns.filter((t) => t.period === "test");
  const fresh = test.filter((t) => t.merchant.isNew).length / test.length;
  const ambiguous = business.merchants.filter((m) => m.ambiguity !== "none").map((m) => `${m.name} (${m.uses.map((u) => u.category).join("/")}: ${m.ambiguity})`);
  console.log(`  seed ${business.seed}: ${business.legalName}, ${business.merchants.length} merchants, ${pct(fresh)} of test lines from new merchants; ambiguous: ${ambiguous.join(", ")}`);
}
console.log("styles:");
for (const style of STYLE_NAMES) console.log(`  ${style.padEnd(20)} ${STYLES[style].modelledOn}${STYLES[style].width ? `, cut at ${STYLES[style].width} characters` : ""}`);
console.log(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);

console.log(`
columns (shares are of test lines; "in the band" = confidence >= ${FLOOR}):
  prec     precision inside the band
  cover    share of all test lines in the band
  explain  share in the band of the lines the labels could explain: merchant among the labels', named by the text, not inseparable
  unseen   share in the band of lines whose merchant no label shows, (precision there)
  insep    share in the band of ambiguous merchants that nothing on the line tells apart (they belong below the band)
  sep      share in the band of ambiguous merchants that the amount or the account tells apart, (precision there)
  checks   share in the band of checks (the text names nobody)
  ECE      expected calibration error over every test line (10 bins)`);

const HEADER = `${"style".padEnd(20)} ${"labels".padStart(6)} ${"prec".padStart(7)} ${"cover".padStart(7)} ${"explain".padStart(7)} ${"unseen".padStart(7)} ${"(prec)".padStart(7)} ${"insep".padStart(7)} ${"sep".padStart(7)} ${"(prec)".padStart(7)} ${"checks".padStart(7)} ${"ECE".padStart(6)}`;
function row(label: string, labels: number, t: Tally): string {
  const cells = [
    precision(t.all),
    coverage(t.all),
    coverage(t.explainable),
    coverage(t.unseen),
    precision(t.unseen),
    coverage(t.inseparable),
    coverage(t.separable),
    precision(t.separable),
    coverage(t.checks),
  ].map((x) => pct(x).padStart(7));
  return `${label.padEnd(20)} ${String(labels).padStart(6)} ${cells.join(" ")} ${expectedCalibrationError(t.predictions).toFixed(3).padStart(6)}`;
}

/** Tallies per business (seed), style and label count in one style, by part: the independent evaluation reports each business alone. */
const byBusiness = new Map<string, { seed: number; style: StyleName; labels: number; tally: Tally }[]>();

/** The prior for a business of D: null without `shared`. */
const priorFor = (book: Book, shared: SharedPrior | null): Prior | null => (shared ? { shared, categories: sharedNamesOf(book.business.seed) } : null);

/** Measures A (in one style) into `part`; `split` chooses the labels (the first lines, or `inStyleAtRandom`). */
function inOneStyle(part: string, shared: SharedPrior | null, of: readonly Book[] = books, labelCounts = IN_STYLE_LABELS, split = inStyle): void {
  const businesses: { seed: number; style: StyleName; labels: number; tally: Tally }[] = [];
  for (const book of of) {
    for (const style of STYLE_NAMES) {
      for (const labels of labelCounts) {
        const t = measure(split(book, style, labels), priorFor(book, shared));
        record(part, style, labels, t);
        record(part, "all", labels, t);
        businesses.push({ seed: book.business.seed, style, labels, tally: t });
      }
    }
  }
  byBusiness.set(part, businesses);
}

/** Measures B (styles never trained on) into `part`; the training styles drawn, by seed and held-out style. */
function neverTrainedOn(part: string, shared: SharedPrior | null, of: readonly Book[] = books, labelCounts = HELD_OUT_LABELS): Map<string, StyleName[]> {
  const trainingStyles = new Map<string, StyleName[]>();
  for (const book of of) {
    for (const style of STYLE_NAMES) {
      for (const labels of labelCounts) {
        const split = leaveOneStyleOut(book, style, labels);
        trainingStyles.set(`${book.business.seed}|${style}`, split.trainingStyles);
        const t = measure(split, priorFor(book, shared));
        record(part, style, labels, t);
        record(part, "all", labels, t);
      }
    }
  }
  return trainingStyles;
}

// A. In one style.
started = performance.now();
inOneStyle("A", null);
console.log(`\nA. In one style: labels and test lines printed by the same bank (3,000 labels and 2,000 test lines is the independent evaluation's shape)`);
console.log(HEADER);
for (const style of STYLE_NAMES) for (const labels of IN_STYLE_LABELS) console.log(row(style, labels, get("A", style, labels)));
for (const labels of IN_STYLE_LABELS) console.log(row("every style", labels, get("A", "all", labels)));
console.log(`(A took ${((performance.now() - started) / 1000).toFixed(1)} s)`);

// A again, the labels drawn at random from the training period.
started = performance.now();
const RANDOM_LABELS = [200, 1_000];
inOneStyle("A?", null, books, RANDOM_LABELS, inStyleAtRandom);
console.log(`\nA, labels drawn at random from the training period (the same draw in every style), not its first lines`);
console.log(HEADER);
for (const labels of RANDOM_LABELS) console.log(row("every style", labels, get("A?", "all", labels)));
console.log(`(took ${((performance.now() - started) / 1000).toFixed(1)} s)`);

// B. Styles never trained on.
started = performance.now();
const trainingStyles = neverTrainedOn("B", null);
console.log(`\nB. Styles never trained on: labels printed in five other styles (drawn per seed), tested on lines printed in the held-out style`);
console.log(HEADER);
for (const style of STYLE_NAMES) for (const labels of HELD_OUT_LABELS) console.log(row(style, labels, get("B", style, labels)));
for (const labels of HELD_OUT_LABELS) console.log(row("every style", labels, get("B", "all", labels)));
console.log(`the five training styles for each held-out style, seed ${SEEDS[0]}:`);
for (const style of STYLE_NAMES) console.log(`  ${style.padEnd(20)} <- ${trainingStyles.get(`${SEEDS[0]}|${style}`)!.join(", ")}`);
console.log(`(B took ${((performance.now() - started) / 1000).toFixed(1)} s)`);

// C. Cold start.
started = performance.now();
for (const book of books) for (const style of STYLE_NAMES) record("C", "all", 0, measure(inStyle(book, style, 0)));
console.log(`\nC. Cold start, every style together`);
console.log(HEADER);
console.log(row("no labels", 0, get("C", "all", 0)));
console.log(row("one style", 50, get("A", "all", 50)));
console.log(row("never trained on", 50, get("B", "all", 50)));
console.log(`(C took ${((performance.now() - started) / 1000).toFixed(1)} s)`);

// The goals, on styles never trained on (B); calibration and the ambiguous merchants in A as well.
interface Worst {
  value: number;
  where: string;
}
function worstOf(cells: { value: number; where: string }[], lowIsBad: boolean): Worst | null {
  const measured = cells.filter((c) => !Number.isNaN(c.value));
  if (measured.length === 0) return null;
  return measured.reduce((a, b) => ((lowIsBad ? b.value < a.value : b.value > a.value) ? b : a));
}
const verdict = (met: boolean) => (met ? "met    " : "NOT MET");
console.log(`\nGoals (B: styles never trained on; pooled over the seeds)`);

const precisionCells = HELD_OUT_LABELS.flatMap((labels) =>
  STYLE_NAMES.map((style) => {
    const t = get("B", style, labels);
    return { value: precision(t.all), where: `${style} at ${num(labels)} labels (${num(t.all.inBand)} lines in the band)` };
  }),
);
const worstPrecision = worstOf(precisionCells, true);
const empty = precisionCells.length - precisionCells.filter((c) => !Number.isNaN(c.value)).length;
console.log(
  `  ${verdict(!worstPrecision || worstPrecision.value >= GOALS.precision)} precision >= ${pct(GOALS.precision)} in the band at every label count: worst ${worstPrecision ? `${pct(worstPrecision.value)}, ${worstPrecision.where}` : "none in the band"}${empty ? `; ${empty} of ${precisionCells.length} rows put no line in the band` : ""}`,
);
for (const [labels, goal] of [
  [200, GOALS.coverageAt200],
  [1_000, GOALS.coverageAt1000],
] as const) {
  const cells = STYLE_NAMES.map((style) => ({ value: coverage(get("B", style, labels).explainable), where: style }));
  const worst = worstOf(cells, true)!;
  console.log(
    `  ${verdict(worst.value >= goal)} coverage >= ${pct(goal)} at ${num(labels)} labels of the lines the labels could explain: worst ${pct(worst.value)} (${worst.where}); every style together ${pct(coverage(get("B", "all", labels).explainable))}, of all lines ${pct(coverage(get("B", "all", labels).all))}`,
  );
}
const everyRow = [
  ...IN_STYLE_LABELS.flatMap((labels) => STYLE_NAMES.map((style) => ({ part: "A", style, labels }))),
  ...HELD_OUT_LABELS.flatMap((labels) => STYLE_NAMES.map((style) => ({ part: "B", style, labels }))),
];
const worstEce = worstOf(
  everyRow.map(({ part, style, labels }) => ({ value: expectedCalibrationError(get(part, style, labels).predictions), where: `${part}, ${style} at ${num(labels)} labels` })),
  false,
)!;
const eceB = worstOf(
  HELD_OUT_LABELS.flatMap((labels) => STYLE_NAMES.map((style) => ({ value: expectedCalibrationError(get("B", style, labels).predictions), where: `${style} at ${num(labels)} labels` }))),
  false,
)!;
console.log(`  ${verdict(worstEce.value < GOALS.calibration)} expected calibration error < ${GOALS.calibration} in every row of A and B: worst ${worstEce.value.toFixed(3)} (${worstEce.where}); in B ${eceB.value.toFixed(3)} (${eceB.where})`);
/** Each confidence bin's lines: the mean confidence given, then the share right, and how many lines: where the calibration errs, and which way. */
function reliability(predictions: readonly { confidence: number; correct: boolean }[]): string {
  const bins: string[] = [];
  for (let bin = 0; bin < 10; bin++) {
    const inBin = predictions.filter((p) => Math.min(9, Math.floor(p.confidence * 10)) === bin);
    if (inBin.length === 0) continue;
    const confidence = inBin.reduce((sum, p) => sum + p.confidence, 0) / inBin.length;
    bins.push(`${confidence.toFixed(2)}->${(inBin.filter((p) => p.correct).length / inBin.length).toFixed(2)} (${num(inBin.length)})`);
  }
  return bins.join(", ");
}
for (const labels of HELD_OUT_LABELS) console.log(`  (reported, no goal) reliability, B pooled at ${num(labels)} labels, confidence given -> share right (lines): ${reliability(get("B", "all", labels).predictions)}`);
const worstInseparable = worstOf(
  everyRow.map(({ part, style, labels }) => {
    const t = get(part, style, labels);
    return { value: coverage(t.inseparable), where: `${part}, ${style} at ${num(labels)} labels, precision there ${pct(precision(t.inseparable))}` };
  }),
  false,
)!;
console.log(
  `  ${verdict(worstInseparable.value <= GOALS.inseparableInBand)} ambiguous merchants nothing separates stay below the band (at most ${pct(GOALS.inseparableInBand)} of their lines in it, every row of A and B): worst ${pct(worstInseparable.value)} (${worstInseparable.where})`,
);
const localInseparable = [200, 1_000].map((labels) => {
  const [a, b] = [get("A", "all", labels).inseparableLocal, get("B", "all", labels).inseparableLocal];
  return `at ${num(labels)} labels A ${pct(coverage(a))}, B ${pct(coverage(b))} (precision there ${pct(precision(a))}, ${pct(precision(b))})`;
});
console.log(`  (reported, no goal) of those, the town's own stores (no list of chains names them), pooled: ${localInseparable.join("; ")}`);
// The independent evaluation trains and tests each business in its own bank's style: A's shape.
const inStyleFigures = [200, 1_000].map((labels) => {
  const worstPrecisionA = worstOf(STYLE_NAMES.map((style) => ({ value: precision(get("A", style, labels).all), where: style })), true);
  const worstExplainA = worstOf(STYLE_NAMES.map((style) => ({ value: coverage(get("A", style, labels).explainable), where: style })), true)!;
  return `at ${num(labels)} labels precision worst ${worstPrecisionA ? `${pct(worstPrecisionA.value)} (${worstPrecisionA.where})` : "-"}, explain worst ${pct(worstExplainA.value)} (${worstExplainA.where})`;
});
console.log(`  (reported, no goal) in one style (A, the independent evaluation's shape): ${inStyleFigures.join("; ")}`);
/** Precision in the band per business in one style, at a label count: the worst, and how many are under the goal. */
function perBusinessAt(part: string, labels: number): string {
  const cells = byBusiness.get(part)!.filter((b) => b.labels === labels);
  const worst = worstOf(cells.map((b) => ({ value: precision(b.tally.all), where: `seed ${b.seed}, ${b.style}, ${num(b.tally.all.inBand)} lines in the band` })), true);
  const under = cells.filter((b) => precision(b.tally.all) < GOALS.precision).length;
  return `worst ${worst ? `${pct(worst.value)} (${worst.where})` : "-"}, ${under} of ${cells.length} under ${pct(GOALS.precision)}`;
}
console.log(`  (reported, no goal) precision in the band per business in one style (A, each seed and style alone): ${[200, 1_000].map((labels) => `at ${num(labels)} labels ${perBusinessAt("A", labels)}`).join("; ")}`);
console.log(`  (reported, no goal) the same, the labels drawn at random: ${RANDOM_LABELS.map((labels) => `at ${num(labels)} labels ${perBusinessAt("A?", labels)}`).join("; ")}`);
const separable = get("B", "all", 1_000).separable;
console.log(`  (reported, no goal) ambiguous merchants the amount or account separates, B at 1,000 labels: ${pct(coverage(separable))} in the band, precision ${pct(precision(separable))}`);

// D. The shared merchant prior: the same businesses, each opted in beside other businesses that did.
started = performance.now();
const shared = sharedPriorOf(SHARED_SEEDS);
// Every business, measured and opted in, files its lines by its own taxonomy (bench/bank-text/taxonomy.ts).
const filed = books.map(filedBook);
inOneStyle("A+", shared, filed);
neverTrainedOn("B+", shared, filed);
for (const book of filed) for (const style of STYLE_NAMES) record("C+", "all", 0, measure(inStyle(book, style, 0), priorFor(book, shared)));
// The same filed books without the prior: what it changes.
inOneStyle("A-", null, filed);
neverTrainedOn("B-", null, filed);
const named = [...shared.values()].filter((m) => m.category !== null).length;
console.log(
  `\nD. With the shared merchant prior: ${SHARED_SEEDS.length} other businesses opted in (seeds ${SHARED_SEEDS[0]}-${SHARED_SEEDS.at(-1)}, each in one style, its training period labelled), ${num(shared.size)} merchant words that ${SHARED_PRIOR_TENANTS} of them or more have, ${num(named)} of them with a category ${SHARED_PRIOR_TENANTS} or more file them under by one name; every business files its lines by its own taxonomy (names and, for some merchants, categories of its own)`,
);
console.log(HEADER);
for (const labels of IN_STYLE_LABELS) console.log(`${row("A, without", labels, get("A-", "all", labels))}\n${row("A, with", labels, get("A+", "all", labels))}`);
for (const labels of HELD_OUT_LABELS) console.log(`${row("B, without", labels, get("B-", "all", labels))}\n${row("B, with", labels, get("B+", "all", labels))}`);
console.log(row("C, no labels", 0, get("C+", "all", 0)));
console.log(`(D took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
console.log(`\nWithout the shared prior -> with it (the filed books, pooled over the seeds):`);
for (const labels of [200, 1_000]) {
  const worstExplain = (part: string) => worstOf(STYLE_NAMES.map((style) => ({ value: coverage(get(part, style, labels).explainable), where: style })), true)!;
  const [without, withIt] = [worstExplain("B-"), worstExplain("B+")];
  console.log(
    `  B, explain at ${num(labels)} labels: every style ${pct(coverage(get("B-", "all", labels).explainable))} -> ${pct(coverage(get("B+", "all", labels).explainable))}, worst ${pct(without.value)} (${without.where}) -> ${pct(withIt.value)} (${withIt.where})`,
  );
}
const worstPrecisionIn = (part: string) => worstOf(HELD_OUT_LABELS.flatMap((labels) => STYLE_NAMES.map((style) => ({ value: precision(get(part, style, labels).all), where: `${style} at ${num(labels)}` }))), true);
const [precisionWithout, precisionWith] = [worstPrecisionIn("B-"), worstPrecisionIn("B+")];
console.log(`  B, precision in the band, worst row: ${precisionWithout ? pct(precisionWithout.value) : "-"} -> ${precisionWith ? `${pct(precisionWith.value)} (${precisionWith.where})` : "-"}`);
const worstInseparableIn = (a: string, b: string) =>
  worstOf(
    everyRow.map(({ part, style, labels }) => ({ value: coverage(get(part === "A" ? a : b, style, labels).inseparable), where: `${part}, ${style} at ${num(labels)} labels` })),
    false,
  )!;
const [inseparableWithout, inseparableWith] = [worstInseparableIn("A-", "B-"), worstInseparableIn("A+", "B+")];
console.log(
  `  ambiguous merchants nothing separates in the band, worst row of A and B: ${pct(inseparableWithout.value)} -> ${pct(inseparableWith.value)} (${inseparableWith.where}); at 200 labels pooled, A ${pct(coverage(get("A-", "all", 200).inseparable))} -> ${pct(coverage(get("A+", "all", 200).inseparable))}, B ${pct(coverage(get("B-", "all", 200).inseparable))} -> ${pct(coverage(get("B+", "all", 200).inseparable))}`,
);
for (const labels of [200, 1_000]) console.log(`  precision per business in one style at ${num(labels)} labels: ${perBusinessAt("A-", labels)} -> ${perBusinessAt("A+", labels)}`);
const unseenAt = (part: string) => {
  const { unseen } = get(part, "all", 200);
  return unseen.inBand === 0 ? "none in the band" : `${pct(coverage(unseen))} in the band at ${pct(precision(unseen))}`;
};
const coldStart = (part: string, labels: number) => {
  const t = get(part, "all", labels);
  return t.all.inBand === 0 ? "none in the band" : `${pct(coverage(t.all))} in the band at ${pct(precision(t.all))}`;
};
console.log(
  `  cold start: no labels ${coldStart("C", 0)} -> ${coldStart("C+", 0)}; 50 labels in one style ${coldStart("A-", 50)} -> ${coldStart("A+", 50)}; 50 labels never trained on ${coldStart("B-", 50)} -> ${coldStart("B+", 50)}`,
);
console.log(
  `  merchants new to the tenant, at 200 labels: in one style ${unseenAt("A-")} -> ${unseenAt("A+")}; never trained on ${unseenAt("B-")} -> ${unseenAt("B+")}`,
);
const suggestedAt = (part: string, labels: number) => {
  const { suggested } = get(part, "all", labels);
  return `${pct(coverage(suggested))} of the lines, right for ${pct(precision(suggested))}`;
};
console.log(
  `  the others' category suggested (never decided) for merchants the labels do not show: no labels ${suggestedAt("C+", 0)}; 50 labels in one style ${suggestedAt("A+", 50)}, never trained on ${suggestedAt("B+", 50)}; 200 labels in one style ${suggestedAt("A+", 200)}`,
);
console.log(`\n(the whole evaluation took ${((performance.now() - began) / 1000).toFixed(1)} s)`);
