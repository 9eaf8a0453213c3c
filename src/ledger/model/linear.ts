/**
 * Multinomial logistic regression (softmax) over sparse weighted features, fitted by
 * AdaGrad with L2 regularisation. Each row stands for every line with the same features
 * and holds how many of them went to each class, so a row of a thousand lines costs what
 * one line costs and the fit is the one all the lines would give.
 *
 * Deterministic: rows are visited in an order drawn from a fixed seed, so the same rows
 * give the same weights, bit for bit.
 */
import { STEP_WORK, toEnd } from "./steps";

export interface Row {
  /** Feature indices, each once. */
  features: Int32Array;
  /** Their values (the row's vector, L2-normalised by the caller). */
  values: Float32Array;
  /** Lines per class. */
  counts: Float64Array;
}

export interface LinearOptions {
  /** Passes over the rows: at least this many, */
  epochs: number;
  /** and more while the rows are few, up to this many row visits in all (a handful of rows needs many passes to settle). */
  visits: number;
  /** but never more than this many. */
  maxEpochs: number;
  /** AdaGrad's step. */
  rate: number;
  /** L2 regularisation per step. */
  l2: number;
  /** A class's gradient smaller than this share of the row's lines is skipped (it would barely move the weights). */
  skip: number;
}

export const LINEAR_DEFAULTS: LinearOptions = { epochs: 6, visits: 2_000, maxEpochs: 30, rate: 0.3, l2: 1e-4, skip: 1e-3 };

export interface Scores {
  /** The most probable class. */
  best: number;
  /** Its probability. */
  probability: number;
  /** The second most probable class (`best` itself with one class), and its probability. */
  second: number;
  secondProbability: number;
}

export class SoftmaxRegression {
  /** Weights, feature-major: `weights[feature * classes + class]`. */
  private readonly weights: Float32Array;

  private constructor(
    readonly features: number,
    readonly classes: number,
    weights: Float32Array,
  ) {
    this.weights = weights;
  }

  static fit(rows: readonly Row[], features: number, classes: number, options: LinearOptions = LINEAR_DEFAULTS): SoftmaxRegression {
    return toEnd(SoftmaxRegression.fitInSteps(rows, features, classes, options));
  }

  /** `fit`, yielding after about `STEP_WORK` of work, so a caller can do other work between. */
  static *fitInSteps(rows: readonly Row[], features: number, classes: number, options: LinearOptions = LINEAR_DEFAULTS): Generator<void, SoftmaxRegression> {
    const weights = new Float32Array(features * classes);
    const squares = new Float32Array(features * classes);
    const p = new Float64Array(classes);
    const order = Array.from(rows, (_, i) => i);
    let seed = 12345;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 0) / 4294967296;
    let work = 0;
    const epochs = Math.min(options.maxEpochs, Math.max(options.epochs, Math.ceil(options.visits / Math.max(1, rows.length))));
    for (let epoch = 0; epoch < epochs; epoch++) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      for (const r of order) {
        const { features: idx, values, counts } = rows[r]!;
        work += idx.length * classes * 2;
        if (work >= STEP_WORK) {
          work = 0;
          yield;
        }
        let lines = 0;
        for (let k = 0; k < classes; k++) lines += counts[k]!;
        if (lines === 0) continue;
        softmax(weights, classes, idx, values, p);
        for (let k = 0; k < classes; k++) {
          // The gradient of the row's summed loss: every line it stands for at once.
          const g0 = lines * p[k]! - counts[k]!;
          if (Math.abs(g0) < options.skip * lines) continue;
          for (let t = 0; t < idx.length; t++) {
            const a = idx[t]! * classes + k;
            const g = g0 * values[t]! + options.l2 * weights[a]!;
            squares[a]! += g * g;
            weights[a]! -= (options.rate * g) / Math.sqrt(squares[a]! + 1e-8);
          }
        }
      }
    }
    return new SoftmaxRegression(features, classes, weights);
  }

  /** The most probable class of a vector (indices below `features`), and its probability. */
  score(idx: Int32Array, values: Float32Array): Scores {
    const p = new Float64Array(this.classes);
    softmax(this.weights, this.classes, idx, values, p);
    let best = 0;
    for (let k = 1; k < this.classes; k++) if (p[k]! > p[best]!) best = k;
    let second = best === 0 && this.classes > 1 ? 1 : 0;
    for (let k = 0; k < this.classes; k++) if (k !== best && p[k]! > p[second]!) second = k;
    return { best, probability: p[best]!, second, secondProbability: second === best ? 0 : p[second]! };
  }
}

/** Class probabilities of a vector into `p`. */
function softmax(weights: Float32Array, classes: number, idx: Int32Array, values: Float32Array, p: Float64Array): void {
  p.fill(0);
  for (let t = 0; t < idx.length; t++) {
    const base = idx[t]! * classes;
    const v = values[t]!;
    for (let k = 0; k < classes; k++) p[k]! += weights[base + k]! * v;
  }
  let max = -Infinity;
  for (let k = 0; k < classes; k++) if (p[k]! > max) max = p[k]!;
  let sum = 0;
  for (let k = 0; k < classes; k++) sum += p[k] = Math.exp(p[k]! - max);
  for (let k = 0; k < classes; k++) p[k] = p[k]! / sum;
}
