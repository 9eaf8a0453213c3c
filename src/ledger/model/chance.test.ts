import { describe, expect, it } from "vitest";
import { atMost } from "./chance";

describe("the binomial tail", () => {
  it("is the chance of at most k of n lines going another way", () => {
    expect(atMost(0, 20, 0.05)).toBeCloseTo(0.95 ** 20, 12);
    expect(atMost(1, 20, 0.05)).toBeCloseTo(0.95 ** 20 + 20 * 0.05 * 0.95 ** 19, 12);
    expect(1 - atMost(3, 20, 0.05)).toBeCloseTo(0.016, 3);
    expect(atMost(20, 20, 0.05)).toBeCloseTo(1, 12);
  });

  it("is 0 below no lines, and certain where no line can go another way", () => {
    expect(atMost(-1, 20, 0.05)).toBe(0);
    expect(atMost(0, 20, 0)).toBe(1);
    expect(atMost(19, 20, 1)).toBe(0);
    expect(atMost(20, 20, 1)).toBe(1);
  });
});
