/**
 * Calibration: maps the classifier's raw score to the precision observed at that score
 * on held-out data, so that "0.97" means right about 97 times in 100.
 *
 * Isotonic regression (pool-adjacent-violators) over held-out (score, correct) pairs,
 * each pooled block smoothed towards 0.5 by one imaginary hit and one miss, so that a
 * handful of lucky guesses can never claim certainty.
 */

export interface Calibration {
  /** Block upper bounds of raw score, ascending, with each block's calibrated precision. */
  bounds: number[];
  values: number[];
}

export const UNCALIBRATED: Calibration = { bounds: [1], values: [0.5] };

export function fitCalibration(pairs: { score: number; correct: boolean }[]): Calibration {
  if (pairs.length === 0) return UNCALIBRATED;
  const sorted = [...pairs].sort((a, b) => a.score - b.score);
  const blocks: { hits: number; n: number; upper: number }[] = [];
  for (const p of sorted) {
    blocks.push({ hits: p.correct ? 1 : 0, n: 1, upper: p.score });
    // Pool until precision strictly rises from block to block: equal blocks pool too, so
    // the smoothing below weighs all the evidence at a level, not one example at a time.
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1]!;
      const prev = blocks[blocks.length - 2]!;
      if (prev.hits / prev.n < last.hits / last.n) break;
      blocks.splice(blocks.length - 2, 2, { hits: prev.hits + last.hits, n: prev.n + last.n, upper: last.upper });
    }
  }
  const values = blocks.map((b) => (b.hits + 1) / (b.n + 2));
  // Smoothing can break monotonicity between pooled blocks; restore it.
  for (let i = 1; i < values.length; i++) values[i] = Math.max(values[i]!, values[i - 1]!);
  return { bounds: blocks.map((b) => b.upper), values };
}

export function calibrate(calibration: Calibration, score: number): number {
  const { bounds, values } = calibration;
  for (let i = 0; i < bounds.length; i++) if (score <= bounds[i]!) return values[i]!;
  return values[values.length - 1]!;
}

/** Expected calibration error over 10 equal-width bins of confidence. */
export function expectedCalibrationError(predictions: { confidence: number; correct: boolean }[]): number {
  if (predictions.length === 0) return 0;
  let error = 0;
  for (let bin = 0; bin < 10; bin++) {
    const inBin = predictions.filter((p) => Math.min(9, Math.floor(p.confidence * 10)) === bin);
    if (inBin.length === 0) continue;
    const confidence = inBin.reduce((s, p) => s + p.confidence, 0) / inBin.length;
    const accuracy = inBin.filter((p) => p.correct).length / inBin.length;
    error += (inBin.length / predictions.length) * Math.abs(confidence - accuracy);
  }
  return error;
}
