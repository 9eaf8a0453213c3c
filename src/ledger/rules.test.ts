/** The rulebook's pure parts: match checks and matchers. */
import { describe, expect, it } from "vitest";
import { matcherOf, matchProblem, MAX_MATCHED_LENGTH } from "./rules";

const line = (description: string, amountCents = -100) => ({ aId: 1, description, amountCents });

describe("matchProblem", () => {
  it("accepts ordinary patterns and refuses malformed, catastrophic or oversized ones", () => {
    expect(matchProblem("description_regex", "^(SQ \\*)?blue bottle")).toBeNull();
    expect(matchProblem("description_regex", "[unclosed")).toMatch(/^the pattern is malformed/);
    expect(matchProblem("description_regex", "(x+x+)+y")).toMatch(/backtrack/);
    expect(matchProblem("description_regex", "x".repeat(201))).toMatch(/at most 200/);
    expect(matchProblem("amount_sign", "in")).toBeNull();
    expect(matchProblem("amount_sign", "IN")).toMatch(/"in"/);
    expect(matchProblem("description_exact", "   ")).toBe("the match value is empty");
  });
});

describe("matcherOf", () => {
  it("reads only the head of a very long description, so a match costs bounded work", () => {
    const tail = matcherOf({ match_kind: "description_regex", match_value: "needle" });
    expect(tail(line("needle " + "x".repeat(50_000)))).toBe(true);
    expect(tail(line("x".repeat(MAX_MATCHED_LENGTH) + "needle"))).toBe(false);
  });

  it("compares exact descriptions whole, folding case and spaces", () => {
    const exact = matcherOf({ match_kind: "description_exact", match_value: " Stripe  payout" });
    expect(exact(line("STRIPE PAYOUT "))).toBe(true);
    expect(exact(line("STRIPE PAYOUT FEE"))).toBe(false);
  });

  it("reads amount signs from the business's side", () => {
    expect(matcherOf({ match_kind: "amount_sign", match_value: "in" })(line("x", 500))).toBe(true);
    expect(matcherOf({ match_kind: "amount_sign", match_value: "out" })(line("x", 500))).toBe(false);
    expect(matcherOf({ match_kind: "amount_sign", match_value: "out" })(line("x", 0))).toBe(false);
  });
});
