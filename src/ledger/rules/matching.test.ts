/** The rulebook's pure parts: match checks, matchers and the compiled rulebook. */
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { patternCase, textsFor } from "../../../test/fixtures/patterns";
import { matchedPart } from "./pattern";
import { compileRulebook, matcherOf } from "./matching";
import { decisionOrder, matchProblem, standingProblem, type Rule } from "./rule";
import { MAX_MATCHED_LENGTH } from "./pattern";

const line = (description: string, amountCents = -100) => ({ aId: 1, description, amountCents });

describe("matchProblem", () => {
  it("accepts what RE2 compiles and refuses malformed, unsupported or oversized patterns", () => {
    expect(matchProblem("description_regex", "^(SQ \\*)?blue bottle")).toBeNull();
    expect(matchProblem("description_regex", "GUSTO.*PAYROLL")).toBeNull();
    expect(matchProblem("description_regex", "(x+x+)+y")).toBeNull();
    expect(matchProblem("description_regex", "(?<x>a+)+$")).toBeNull();
    expect(matchProblem("description_regex", " ")).toBeNull();
    expect(matchProblem("description_regex", "[unclosed")).toMatch(/never closed/);
    expect(matchProblem("description_regex", "fee(?=s)")).toMatch(/lookahead/);
    expect(matchProblem("description_regex", "")).toMatch(/^the pattern is empty/);
    expect(matchProblem("description_regex", "x".repeat(200))).toBeNull();
    expect(matchProblem("description_regex", "x".repeat(201))).toMatch(/at most 200/);
    expect(matchProblem("amount_sign", "in")).toBeNull();
    expect(matchProblem("amount_sign", "IN")).toMatch(/"in"/);
    expect(matchProblem("description_exact", "   ")).toBe("the match value is empty");
    expect(matchProblem("description_exact", "(?=x")).toBeNull();
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

describe("a stored pattern RE2 cannot read", () => {
  it("decides nothing and says why, where a pattern the earlier JavaScript syntax took is kept", () => {
    const lookahead = { match_kind: "description_regex" as const, match_value: "STRIPE(?! FEE)" };
    expect(matcherOf(lookahead)(line("STRIPE PAYOUT"))).toBe(false);
    expect(standingProblem(lookahead)).toMatch(/negative lookahead/);
    expect(standingProblem({ match_kind: "description_regex", match_value: "STRIPE" })).toBeNull();
    expect(standingProblem({ match_kind: "description_exact", match_value: "(?!" })).toBeNull();
  });
});

/** The rule that decides a line by the definition: the first in decision order that plain re2js (or the kind's own test) matches. */
function decidedByDefinition(rules: Rule[], candidate: { aId: number; description: string; amountCents: number }): Rule | undefined {
  return decisionOrder(rules).find((rule) => {
    if (rule.match_kind !== "description_regex") return matcherOf(rule)(candidate);
    try {
      return RE2JS.compile(rule.match_value, RE2JS.CASE_INSENSITIVE).test(matchedPart(candidate.description));
    } catch {
      return false; // RE2 cannot read it: it decides nothing
    }
  });
}

describe("compileRulebook", () => {
  const ruleOf = (fields: Partial<Rule>) =>
    fc.record({
      rule_key: fc.constantFrom("a", "b", "c", "d", "e", "f"),
      revision: fc.constant(1),
      category: fc.constantFrom("Sales", "Meals", "Fees"),
      priority: fc.integer({ min: 1, max: 4 }),
      retired: fc.boolean(),
      born_from_a_id: fc.constant(null),
      actor: fc.constant("human:t"),
      created_at: fc.constant("2026-11-22T00:00:00.000Z"),
      pattern_problem: fc.constant(null),
    }).map((r) => ({ ...r, match_kind: "description_regex" as Rule["match_kind"], match_value: "", ...fields }) as Rule);

  it("picks the rule a plain walk of the decision order would pick, for any rulebook and line", () => {
    // Literal patterns take a substring search on the folded text; the rest, and text whose
    // case folding differs (the Kelvin sign folds with "k", "ſ" with "s"), the regex.
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
      pattern_problem: fc.constant(null),
    });
    const usable = rule.map((r) =>
      r.match_kind === "amount_sign" ? { ...r, match_value: r.match_value.length % 2 ? "in" : "out" } : r.match_kind === "description_regex" ? { ...r, match_value: r.match_value.trim().split(" ")[0] || "fee" } : r,
    );
    fc.assert(
      fc.property(fc.array(usable, { maxLength: 12 }), text, fc.integer({ min: -500, max: 500 }), (rules, description, amountCents) => {
        const candidate = { aId: 1, description, amountCents };
        expect(compileRulebook(rules)(candidate)).toBe(decidedByDefinition(rules, candidate));
      }),
      { seed: 20261122, numRuns: 2000 },
    );
  });

  it("agrees with plain re2js for generated patterns of every kind, unreadable ones deciding nothing", () => {
    // Several generated patterns with texts built beside them, a sign rule and an exact rule
    // among them; each rulebook decides many lines, so its automaton and prefilters are reused.
    const book = fc.array(patternCase, { minLength: 1, maxLength: 8 }).chain((cases) =>
      fc.tuple(
        fc.tuple(...cases.map((c) => ruleOf({ match_value: c.pattern }))),
        ruleOf({ match_kind: "amount_sign", match_value: "in" }),
        ruleOf({ match_kind: "description_exact", match_value: cases[0]!.sample }),
        fc.array(fc.oneof(...cases.map((c) => textsFor(c.sample))), { minLength: 1, maxLength: 12 }),
      ),
    );
    let decided = 0;
    fc.assert(
      fc.property(book, fc.integer({ min: -5, max: 5 }), ([patterns, sign, exact, texts], amountCents) => {
        const rules = [...patterns, sign, exact];
        const decide = compileRulebook(rules);
        for (const description of texts) {
          const candidate = { aId: 1, description, amountCents };
          const expected = decidedByDefinition(rules, candidate);
          if (expected) decided++;
          expect(decide(candidate), `${JSON.stringify(description)} under ${rules.map((r) => r.match_value).join(" , ")}`).toBe(expected);
        }
      }),
      { seed: 20261126, numRuns: 1_500 },
    );
    expect(decided).toBeGreaterThan(3_000);
  });

  it("reads only the first 1,000 code units of a description, as the matcher does", () => {
    const rules = [{ rule_key: "tail", revision: 1, match_kind: "description_regex" as const, match_value: "needle", category: "Fees", priority: 1, retired: false, born_from_a_id: null, actor: "human:t", created_at: "", pattern_problem: null }];
    expect(compileRulebook(rules)(line("x".repeat(MAX_MATCHED_LENGTH) + "needle"))).toBeUndefined();
    expect(compileRulebook(rules)(line("x".repeat(MAX_MATCHED_LENGTH - 6) + "NEEDLE"))).toBe(rules[0]);
  });
});
