/**
 * `npm run bench`: the local model's speed and memory at a busy business's size: learning
 * 100,000 labelled lines (with 200,000 lines of the feed seen), fitting, predicting 100,000
 * lines, a label's cost to the next prediction, and the evidence the ledger keeps. Lines
 * from the bank-text generator (bench/bank-text/), in each of three bank styles. Figures
 * only, never asserted.
 */
import { execFileSync } from "node:child_process";
import { LocalModel } from "../src/ledger/model/classifier";
import { lineKey } from "../src/ledger/model/features";
import { makeBook } from "./bank-text/book";
import type { StyleName } from "./bank-text/styles";

const LABELS = 100_000;
const TESTS = 100_000;
const STYLES: StyleName[] = (process.env.STYLES?.split(",") as StyleName[]) ?? ["authorized-on", "credit-union", "aggregator-named"];
const seed = Number(process.env.SEED ?? 7);

const time = <T>(work: () => T): [T, number] => {
  const started = performance.now();
  const result = work();
  return [result, performance.now() - started];
};
const ms = (x: number) => `${x.toFixed(0)} ms`;
const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`;
/**
 * The heap a model takes at this size, measured in a process of its own that
 * holds nothing else of size but the lines' keys: the model trained on `style`'s labels,
 * fitted, and asked about every test line. An upper bound: it counts garbage not yet
 * collected, and the keys.
 */
function memoryOf(style: StyleName): number {
  const keys = (() => {
    const lines = makeBook(seed, { training: LABELS, test: TESTS, newShare: 0.1 }).lines[style];
    return { all: lines.map(lineKey), categories: lines.slice(0, LABELS).map((l) => l.category) };
  })();
  const model = LocalModel.train(keys.categories.map((category, i) => ({ key: keys.all[i]!, category })), keys.all);
  model.refitIfStale();
  for (const key of keys.all.slice(LABELS)) model.predictKey(key);
  globalThis.gc?.();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

if (process.env.MODEL_BENCH_MEMORY_OF) {
  console.log(`memory: ${memoryOf(process.env.MODEL_BENCH_MEMORY_OF as StyleName)}`);
  process.exit(0);
}

console.log(`local model benchmark (Node ${process.version}, one core): ${LABELS.toLocaleString("en-US")} labels, ${TESTS.toLocaleString("en-US")} lines predicted`);
const [book, generated] = time(() => makeBook(seed, { training: LABELS, test: TESTS, newShare: 0.1 }));
console.log(`(lines generated in ${ms(generated)})`);

for (const style of STYLES) {
  const lines = book.lines[style];
  const labels = lines.slice(0, LABELS);
  const tests = lines.slice(LABELS);
  const [keys, keying] = time(() => lines.map(lineKey));
  const [model, learning] = time(() => LocalModel.train(labels.map((l, i) => ({ key: keys[i]!, category: l.category })), keys));
  const [, fitting] = time(() => model.refitIfStale());
  const [decided, predicting] = time(() => tests.filter((l) => (model.predict(l)?.confidence ?? 0) >= 0.95).length);

  // A label lands: the next prediction refits the regression (the calibration waits for a quarter's growth).
  const [, afterALabel] = time(() => {
    model.add({ key: keys[LABELS]!, category: tests[0]!.category });
    model.predict(tests[1]!);
  });

  const rows = model.rows();
  const child = execFileSync(process.execPath, ["--expose-gc", ...process.execArgv, ...process.argv.slice(1)], { env: { ...process.env, MODEL_BENCH_MEMORY_OF: style }, encoding: "utf8" });
  const heap = Number(/memory: (\d+)/.exec(child)![1]);
  const kept = rows.examples.reduce((s, r) => s + r.key.length + r.category.length + 8, 0) + rows.lines.reduce((s, r) => s + r.key.length + 8, 0);
  console.log(`\n${style}:`);
  console.log(`  keys of ${lines.length.toLocaleString("en-US")} lines: ${ms(keying)}; learning ${LABELS.toLocaleString("en-US")} labels and seeing every line: ${ms(learning)}`);
  console.log(`  fitting (the regression, then the calibration's held-out fits, three beyond 3,000 examples, and its own): ${ms(fitting)}`);
  console.log(`  training in all (keys, learning, fitting): ${ms(keying + learning + fitting)}`);
  console.log(`  predicting ${TESTS.toLocaleString("en-US")} lines: ${ms(predicting)} = ${Math.round(TESTS / (predicting / 1000)).toLocaleString("en-US")} lines/s; decided at the default floor: ${((100 * decided) / TESTS).toFixed(1)}%`);
  console.log(`  a label, then the next prediction (the regression refitted): ${ms(afterALabel)}`);
  console.log(`  evidence kept: ${rows.examples.length.toLocaleString("en-US")} example rows, ${rows.lines.length.toLocaleString("en-US")} line keys, about ${mib(kept)} of keys and counts`);
  console.log(`  a process holding the ${lines.length.toLocaleString("en-US")} keys and the model, fitted and asked: heap ${mib(heap)}`);
}
