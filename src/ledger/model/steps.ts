/**
 * The model's long work runs as generators that yield between steps, so the tenant's object
 * can answer other calls meanwhile (model-keeper.ts); a caller that can wait runs them to
 * their end.
 */

/**
 * Work between two yields, counted in weight reads and writes (a row's features times the
 * classes) and their equivalents in keys read: about 10 ms of one core (docs/performance.md).
 */
export const STEP_WORK = 500_000;

/** Runs stepped work to its end, all at once. */
export function toEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
