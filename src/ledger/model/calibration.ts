/**
 * Calibration: maps what the classifier measured of a line to the precision observed for
 * such lines on held-out data, so that "0.97" means right about 97 times in 100.
 *
 * Platt scaling with more than one input: P(right) = sigma(w . x), fitted by Newton's
 * method on held-out (inputs, right or wrong) pairs, with Platt's targets ((hits + 1) /
 * (hits + 2) for a hit, 1 / (misses + 2) for a miss) so that a handful of lucky guesses
 * never claims certainty, and a ridge that pulls the weights towards 0 (confidence 0.5)
 * while the pairs are few.
 *
 * A prior can stand in for the pairs that are missing: each pair may say what the evidence
 * alone would expect of it (`prior`), and `priorLines` more held-out lines are counted as
 * if they had come out so, spread over the pairs' inputs. With `priorLines` 20, fifty
 * held-out lines weigh against it as five to two; three thousand drown it. So a model that
 * has seen a few dozen labels does not claim 0.95 on what two of them agreed on.
 */

export interface Calibration {
  /** One weight per input; the last input is the constant 1. */
  weights: number[];
}

/** Before any fit: every prediction at 0.5. */
export const UNCALIBRATED: Calibration = { weights: [] };

export interface Pair {
  inputs: number[];
  correct: boolean;
  /** What the evidence alone expects of this pair, in [0, 1] (read only with `priorLines`). */
  prior?: number;
  /** The most a line so measured is given, whatever the calibration says (below the band where it is held: held-below.ts); 1 when absent. */
  ceiling?: number;
}

/** The ridge: how strongly little evidence is pulled towards 0.5. */
const RIDGE = 0.1;

/**
 * Fits the weights. Confidence never falls as a measurement named in `rising` rises, nor
 * rises as one named in `falling` does: a weight of the wrong sign is held at 0 and the
 * rest refitted. An input that never
 * varies among the pairs (no held-out line without a merchant's history, say) is held at 0
 * too: the pairs say nothing of it, so a line where it differs gets no credit for it.
 */
export function fitCalibration(
  pairs: readonly Pair[],
  rising: readonly number[] = [],
  falling: readonly number[] = [],
  ridge: number | readonly number[] = RIDGE,
  priorLines = 0,
): Calibration {
  if (pairs.length === 0) return UNCALIBRATED;
  const d = pairs[0]!.inputs.length;
  const held = new Set<number>();
  for (let j = 0; j < d - 1; j++) if (pairs.every((p) => p.inputs[j] === pairs[0]!.inputs[j])) held.add(j);
  const ridges = typeof ridge === "number" ? new Array<number>(d).fill(ridge) : ridge;
  const hits = pairs.filter((p) => p.correct).length;
  const hit = (hits + 1) / (hits + 2);
  const miss = 1 / (pairs.length - hits + 2);
  const targets: Target[] = pairs.map((p) => ({ inputs: p.inputs, target: p.correct ? hit : miss, weight: 1 }));
  if (priorLines > 0) for (const p of pairs) targets.push({ inputs: p.inputs, target: p.prior ?? 0.5, weight: priorLines / pairs.length });
  for (;;) {
    const weights = newton(targets, d, held, ridges);
    const wrong = [...rising.filter((j) => weights[j]! < 0), ...falling.filter((j) => weights[j]! > 0)].filter((j) => !held.has(j));
    if (wrong.length === 0) return { weights: [...weights] };
    for (const j of wrong) held.add(j);
  }
}

/** A weighted observation of how often lines with these inputs are right. */
interface Target {
  inputs: readonly number[];
  target: number;
  weight: number;
}

/** Weighted logistic regression of the targets by Newton's method, with the `held` weights at 0. */
function newton(targets: readonly Target[], d: number, held: ReadonlySet<number>, ridge: readonly number[]): Float64Array {
  const free = Array.from({ length: d }, (_, j) => j).filter((j) => !held.has(j));
  const w = new Float64Array(d);
  for (let iteration = 0; iteration < 50; iteration++) {
    const gradient = new Float64Array(free.length);
    const hessian = Array.from({ length: free.length }, () => new Float64Array(free.length));
    for (const { inputs, target, weight } of targets) {
      const q = sigmoid(dot(w, inputs));
      const r = q * (1 - q) * weight;
      const error = (q - target) * weight;
      free.forEach((j, a) => {
        gradient[a]! += error * inputs[j]!;
        free.forEach((k, b) => (hessian[a]![b]! += r * inputs[j]! * inputs[k]!));
      });
    }
    free.forEach((j, a) => {
      gradient[a]! += ridge[j]! * w[j]!;
      hessian[a]![a]! += ridge[j]!;
    });
    const step = solve(hessian, gradient);
    let moved = 0;
    free.forEach((j, a) => {
      w[j]! -= step[a]!;
      moved += Math.abs(step[a]!);
    });
    if (moved < 1e-9) break;
  }
  return w;
}

export function calibrate(calibration: Calibration, inputs: readonly number[]): number {
  return calibration.weights.length === 0 ? 0.5 : sigmoid(dot(calibration.weights, inputs));
}

/** A probability as log-odds, clipped away from 0 and 1. */
export function logit(p: number): number {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

function dot(w: ArrayLike<number>, x: readonly number[]): number {
  let z = 0;
  for (let j = 0; j < x.length; j++) z += w[j]! * x[j]!;
  return z;
}

/** Solves A x = b (A symmetric positive definite, small) by Gaussian elimination with pivoting. */
function solve(a: Float64Array[], b: Float64Array): Float64Array {
  const d = b.length;
  const m = a.map((row, j) => [...row, b[j]!]);
  for (let c = 0; c < d; c++) {
    let pivot = c;
    for (let r = c + 1; r < d; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    const p = m[c]![c]! || 1e-12;
    for (let r = 0; r < d; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / p;
      for (let k = c; k <= d; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return Float64Array.from({ length: d }, (_, j) => m[j]![d]! / (m[j]![j]! || 1e-12));
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
