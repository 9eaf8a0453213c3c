/** The rulebook's pure parts: match checks, matchers and the compiled rulebook. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRulebook, decisionOrder, literalOf, matcherOf, matchProblem, MAX_MATCHED_LENGTH } from "./rules";

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

  it("takes a pattern without repetition or alternation with no proof, however long", () => {
    // The proof refuses 60 repeated letters (too many ways it cannot rule out) and is bounded
    // in time; a pattern that matches one way needs neither.
    expect(matchProblem("description_regex", "A".repeat(200))).toBeNull();
    expect(matchProblem("description_regex", "^CHECK #\\d\\d\\d\\d$")).toBeNull();
    expect(matchProblem("description_regex", "(?:SQ \\*)BLUE\\? BOTTLE")).toBeNull();
    // Alternation and repetition still go to the proof.
    expect(matchProblem("description_regex", "(a|a)".repeat(30) + "b")).toMatch(/simplify|backtrack/);
    expect(matchProblem("description_regex", "\\(?" + "a".repeat(60))).toMatch(/simplify|backtrack/);
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

describe("literalOf", () => {
  it("reads a pattern of plain ASCII characters, escaped punctuation included, as its lowercased text", () => {
    expect(literalOf("STARBUCKS")).toBe("starbucks");
    expect(literalOf("ZOOM\\.US")).toBe("zoom.us");
    expect(literalOf("PG\\&E #12")).toBe("pg&e #12");
  });

  it("refuses anything with a meaning beyond its characters, or beyond ASCII", () => {
    for (const pattern of ["^stripe", "fee$", "zoom.us", "a|b", "(rent)", "[ab]", "x+", "x*", "x?", "x{2}", "\\d", "\\bfee", "\\1", "café", "\\"]) {
      expect(literalOf(pattern), pattern).toBeNull();
    }
  });
});

describe("compileRulebook", () => {
  it("picks the rule a plain walk of the decision order would pick, for any rulebook and line", () => {
    // Literal patterns take a substring search on ASCII text; the rest, and non-ASCII text
    // (where case folding differs: the Kelvin sign lowercases to "k", "ſ" uppercases to "S"), the regex.
    const words = ["stripe", "payout", "sysco", "coffee", "fee", "#12", "rent", "café", "CAFÉ", "\u212aey", "key", "ſtripe", "Tab\tx"];
    const syntax = ["^stripe", "fee$", "c.ffee", "\\#12", "a\\.b", "(rent)", "caf[eé]", "\\d+", "x\\-y", "x-y", "a.b"];
    const text = fc.array(fc.constantFrom(...words, ...syntax, " ", "  ", "STRIPE", "Coffee"), { maxLength: 5 }).map((parts) => parts.join(" "));
    const rule = fc.record({
      rule_key: fc.constantFrom("a", "b", "c", "d", "e", "f"),
      revision: fc.constant(1),
      match_kind: fc.constantFrom("description_exact" as const, "description_regex" as const, "amount_sign" as const),
      match_value: text,
      category: fc.constantFrom("Sales", "Meals", "Fees"),
      priority: fc.integer({ min: 1, max: 4 }),
      retired: fc.boolean(),
      born_from_a_id: fc.constant(null),
      actor: fc.constant("human:t"),
      created_at: fc.constant("2026-11-22T00:00:00.000Z"),
    });
    const usable = rule.map((r) =>
      r.match_kind === "amount_sign" ? { ...r, match_value: r.match_value.length % 2 ? "in" : "out" } : r.match_kind === "description_regex" ? { ...r, match_value: r.match_value.trim().split(" ")[0] || "fee" } : r,
    );
    fc.assert(
      fc.property(fc.array(usable, { maxLength: 12 }), text, fc.integer({ min: -500, max: 500 }), (rules, description, amountCents) => {
        const candidate = { aId: 1, description, amountCents };
        const walked = decisionOrder(rules).find((r) => matcherOf(r)(candidate));
        expect(compileRulebook(rules)(candidate)).toBe(walked);
      }),
      { seed: 20261122, numRuns: 2000 },
    );
  });
});
