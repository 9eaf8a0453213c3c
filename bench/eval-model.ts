/**
 * `npm run eval:model`: trains the local model on 50, 200 and 1,000 labelled lines and
 * measures it on 3,000 held-out lines from the same business: precision inside the duh
 * band, coverage (share decided locally) and expected calibration error. Figures only.
 * DUH_BAND_FLOOR sets the floor (default: the model's); SEED the data set.
 */
import { expectedCalibrationError } from "../src/ledger/model/calibration";
import { DEFAULT_DUH_BAND_FLOOR, LocalModel } from "../src/ledger/model/classifier";
import { featuresOf } from "../src/ledger/model/features";
import { generateLines } from "./generator";

const floor = Number(process.env.DUH_BAND_FLOOR ?? DEFAULT_DUH_BAND_FLOOR);
const seed = Number(process.env.SEED ?? 42);
const lines = generateLines(4_000, seed);
// The first lines, in time order, are the labelled past; the last 3,000 the held-out future.
const heldOut = lines.slice(1_000);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

console.log(`local model evaluation: seed ${seed}, duh band floor ${floor}, ${heldOut.length} held-out lines`);
console.log("labels  precision-in-band  coverage  calibration-error(ECE)  train-ms");
for (const labels of [50, 200, 1_000]) {
  const started = performance.now();
  const model = LocalModel.train(lines.slice(0, labels).map((l) => ({ features: featuresOf(l), category: l.category })));
  const trainMs = performance.now() - started;
  const predictions = heldOut.map((l) => {
    const p = model.predict(featuresOf(l));
    return { confidence: p?.confidence ?? 0, correct: p?.category === l.category };
  });
  const inBand = predictions.filter((p) => p.confidence >= floor);
  const precision = inBand.length === 0 ? NaN : inBand.filter((p) => p.correct).length / inBand.length;
  console.log(
    `${String(labels).padStart(6)}  ${pct(precision).padStart(17)}  ${pct(inBand.length / heldOut.length).padStart(8)}  ${expectedCalibrationError(predictions).toFixed(3).padStart(22)}  ${trainMs.toFixed(0).padStart(8)}`,
  );
}
console.log("goal: precision >= 98% inside the band with >= 70% coverage after 200 labels");
