/**
 * `npm run bench`: the local model's speed and memory at a busy business's size:
 * training on 2,000 labels, then predicting 100,000 lines. Figures only, never asserted.
 */
import { LocalModel } from "../src/ledger/model/classifier";
import { featuresOf } from "../src/ledger/model/features";
import { generateLines } from "./generator";

const LINES = 100_000;
const LABELS = 2_000;
const lines = generateLines(LINES + LABELS, Number(process.env.SEED ?? 7));
const labelled = lines.slice(0, LABELS).map((l) => ({ features: featuresOf(l), category: l.category }));

globalThis.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
let started = performance.now();
const model = LocalModel.train(labelled);
const trainMs = performance.now() - started;

started = performance.now();
for (let i = 0; i < 100; i++) model.add(labelled[i]!);
const addMs = (performance.now() - started) / 100;

started = performance.now();
let decided = 0;
for (const line of lines.slice(LABELS)) if ((model.predict(featuresOf(line))?.confidence ?? 0) >= 0.95) decided++;
const predictMs = performance.now() - started;
const heapAfter = process.memoryUsage().heapUsed;

console.log(`local model benchmark (Node ${process.version}, one core)`);
console.log(`train on ${LABELS} labels: ${trainMs.toFixed(0)} ms (features, counts and 10-fold calibration)`);
console.log(`incremental add: ${addMs.toFixed(3)} ms per label (the calibration is refitted at the next prediction once the set has grown by a quarter)`);
console.log(`predict ${LINES} lines: ${predictMs.toFixed(0)} ms = ${Math.round(LINES / (predictMs / 1000)).toLocaleString("en-US")} lines/s (features included)`);
console.log(`decided locally at the default floor: ${((100 * decided) / LINES).toFixed(1)}%`);
console.log(`heap growth: ${((heapAfter - heapBefore) / 1_048_576).toFixed(1)} MiB`);
