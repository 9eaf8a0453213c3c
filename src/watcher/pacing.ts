/**
 * How a sync shares the tenant's object and the runtime with everyone else
 * (docs/decisions.md, "A sync shares the object"). Two rules:
 *
 * - Pages land in transactions sized to take about `TRANSACTION_BUDGET_MS` of the object:
 *   while one runs, the object (and, locally, every tenant: one thread serves them all)
 *   answers nothing else, so a read waits for at most about one transaction.
 * - Between pages the watcher hands the runtime a moment to read its sockets
 *   (`yieldToRuntime`), without which, locally, no request is even read until the sync ends.
 */

/** The object's time one transaction of pages aims at. */
export const TRANSACTION_BUDGET_MS = 50;
/** Lines in the first transaction, before any has been timed (about 20 ms at 100,000 lines on a slow day). */
export const FIRST_TRANSACTION_LINES = 500;
/** Never fewer: a commit costs its own time, and a page's lines land whole anyway. */
export const MIN_TRANSACTION_LINES = 100;
/**
 * Never more, however fast the object runs. A commit writes every index page its lines
 * touched, so fewer, larger transactions make a sync cheaper (most of all for lines
 * delivered in no date order, which touch a different page each: docs/performance.md).
 */
export const MAX_TRANSACTION_LINES = 4_000;

/**
 * The lines the next transaction should hold, from how long the last one took: as many as
 * fit in the budget at the last one's pace, moving at most twice up or half down a step, so
 * one slow or fast reading (a stall of the machine, a clock that moved by a millisecond)
 * does not swing the size from one bound to the other.
 */
export function nextTransactionLines(lastLines: number, lastMs: number): number {
  const atPace = (lastLines * TRANSACTION_BUDGET_MS) / Math.max(lastMs, 1);
  const stepped = Math.min(lastLines * 2, Math.max(lastLines / 2, atPace));
  return Math.round(Math.min(MAX_TRANSACTION_LINES, Math.max(MIN_TRANSACTION_LINES, stepped)));
}

/**
 * Lets the runtime read what waits outside: new requests, the next request on an open
 * connection. workerd's event loop reads its sockets only once it has nothing else to run,
 * and locally everything a sync waits on (the sandbox bank's D1, the tenant's object) answers
 * in the same process, so a sync always has a next step: without this, every request to
 * every tenant waits until the sync ends, and one sent on a connection idle for over 5 s
 * meanwhile is lost (README, "The local runtime and long work"). A timer, even of zero ms,
 * fires only after the loop has looked at its sockets. On the platform the bank is a real
 * network call and this costs a timer.
 */
export function yieldToRuntime(): Promise<unknown> {
  return scheduler.wait(0);
}
