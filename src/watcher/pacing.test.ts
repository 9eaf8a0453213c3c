import { describe, expect, it } from "vitest";
import { MAX_TRANSACTION_LINES, MIN_TRANSACTION_LINES, nextTransactionLines, TRANSACTION_BUDGET_MS } from "./pacing";

describe("the lines of a sync's next transaction", () => {
  it("are as many as fit in the budget at the last transaction's pace", () => {
    // 1,000 lines took twice the budget: half as many next.
    expect(nextTransactionLines(1_000, TRANSACTION_BUDGET_MS * 2)).toBe(500);
    // 1,000 lines took 80% of the budget: 1,250 fit.
    expect(nextTransactionLines(1_000, TRANSACTION_BUDGET_MS * 0.8)).toBe(1_250);
    expect(nextTransactionLines(1_000, TRANSACTION_BUDGET_MS)).toBe(1_000);
  });

  it("move at most twice up or half down a step, so one odd reading does not swing them", () => {
    // A clock that did not move (0 ms) or a stall of the machine (5 s).
    expect(nextTransactionLines(500, 0)).toBe(1_000);
    expect(nextTransactionLines(1_000, 5_000)).toBe(500);
  });

  it("stay within their bounds", () => {
    expect(nextTransactionLines(3_000, 1)).toBe(MAX_TRANSACTION_LINES);
    expect(nextTransactionLines(150, 10_000)).toBe(MIN_TRANSACTION_LINES);
    // A group of one large page (pages land whole) is timed like any other.
    expect(nextTransactionLines(9_000, TRANSACTION_BUDGET_MS)).toBe(MAX_TRANSACTION_LINES);
  });
});
