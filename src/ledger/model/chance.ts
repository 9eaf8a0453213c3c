/**
 * Telling a run of lines from chance: how seldom a run must be to count as more than
 * chance, and the binomial tail that measures it.
 */

/** How seldom a run must be to count as more than chance: one time in twenty. */
export const CHANCE = 0.05;

/** The chance of at most `k` of `n` independent lines going another way, each with chance `p`. */
export function atMost(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (p <= 0) return 1;
  if (p >= 1) return k >= n ? 1 : 0;
  let term = Math.pow(1 - p, n);
  let sum = term;
  for (let i = 0; i < k; i++) {
    term *= ((n - i) / (i + 1)) * (p / (1 - p));
    sum += term;
  }
  return Math.min(1, sum);
}
