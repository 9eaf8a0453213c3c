/**
 * A new rule's candidates from the trigram index: the words it asks for are in every line
 * it matches, so create_rule, reading only the candidates, leaves no matching line undecided.
 */
import { env, runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { faceFor } from "./face";
import { applyFeedPage } from "./feed";
import { brokenInvariants } from "./invariants";
import { requiredText, wordsQueryOf } from "./rule-words";
import { createRule, matcherOf, type RuleInput } from "./rules";
import { connectBank } from "./sync";
import type { TenantLedger } from "./tenant-ledger";
import { undecidedLines } from "./undecided";

const AT = "2026-11-22T12:00:00.000Z";

/** ASCII case folding only: what the trigram index and a pattern's ASCII letters agree on. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

describe("requiredText", () => {
  it("reads the longest run of plain characters every match must contain", () => {
    expect(requiredText("STARBUCKS")).toBe("starbucks");
    expect(requiredText("^(SQ \\*)?BLUE BOTTLE")).toBe("blue bottle");
    expect(requiredText("ZOOM\\.US")).toBe("zoom.us");
    expect(requiredText("\\bPG&E\\b")).toBe("pg&e");
    expect(requiredText("UBER (EATS|TRIP) ORDER")).toBe(" order");
    expect(requiredText("COFFEES?")).toBe("coffee");
    expect(requiredText("AB{2}CDEF")).toBe("cdef");
    expect(requiredText("[)|(]ACME")).toBe("acme");
    expect(requiredText("CAF\u00c9")).toBe("caf");
  });

  it("names nothing where a match may hold no such run", () => {
    for (const pattern of ["acme|fuel", "ab", "a.b.c", "\\d+", "(coffee)", "[coffee]", "\u00e9t\u00e9", "x*y*z*", "\\u0041BC", "\\x41BC", "\\101BC", "\\1ab", "\\cJAB"]) {
      expect(requiredText(pattern), pattern).toBeNull();
    }
  });

  it("is contained, ASCII case folded, in every text the pattern matches", () => {
    // Each piece of a pattern with texts it may match, so random patterns often match their texts.
    const pieces: Record<string, string[]> = {
      stripe: ["stripe", "STRIPE"], PAY: ["pay", "PAY"], out: ["OUT"], k: ["k", "\u212a"], itchen: ["ITCHEN"], "\u00e9": ["\u00e9", "\u00c9"], " ": [" "],
      "^": [""], $: [""], ".": ["x", "."], "\\.": ["."], "\\*": ["*"], "\\d": ["7"], "\\b": ["", " "], "(a|b)": ["a", "B"], "(?:x)": ["X"],
      "[ab]": ["a"], "[^)]": ["y"], "?": ["", "a"], "+": ["", "yy"], "*": [""], "{2}": ["", "aa"], "{1,}": [""], "{": ["{"], "}": ["}"], "|": [""],
      "\\1": [""], "\\101": ["A", "101"], "\\u0041": ["A", "u0041"], "\\x41": ["a"], "\\cJ": ["\n"], "\\k<a>": ["k<a>"], "\\p{L}": ["p{L}"], "[\\]]": ["]"],
    };
    const piece = fc.tuple(fc.constantFrom(...Object.keys(pieces)), fc.nat());
    let informative = 0;
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), fc.constantFrom("", "SQ *", "x"), (parts, prefix) => {
        const pattern = parts.map(([p]) => p).join("");
        let compiled: RegExp;
        try {
          compiled = new RegExp(pattern, "i");
        } catch {
          return;
        }
        const text = prefix + parts.map(([p, n]) => pieces[p]![n % pieces[p]!.length]).join("");
        const required = requiredText(pattern);
        if (required === null || !compiled.test(text)) return;
        informative++;
        expect(asciiLower(text).includes(required), `${pattern} on ${text}`).toBe(true);
      }),
      { seed: 20261123, numRuns: 10_000 },
    );
    expect(informative).toBeGreaterThan(1_000);
  });
});

describe("wordsQueryOf", () => {
  it("asks for each word of an exact description, and nothing for a sign", () => {
    expect(wordsQueryOf({ match_kind: "description_exact", match_value: " Stripe  PAYOUT 42" })).toBe('"stripe" AND "payout"');
    expect(wordsQueryOf({ match_kind: "description_exact", match_value: 'SAY "HI" LTD' })).toBe('"say" AND """hi""" AND "ltd"');
    expect(wordsQueryOf({ match_kind: "description_exact", match_value: "kitchen" })).toBeNull();
    expect(wordsQueryOf({ match_kind: "description_regex", match_value: "ZOOM\\.US" })).toBe('"zoom.us"');
    expect(wordsQueryOf({ match_kind: "amount_sign", match_value: "in" })).toBeNull();
  });
});

describe("createRule from the trigram index's candidates", () => {
  const descriptions = [
    "STRIPE PAYOUT",
    "stripe  payout",
    "Stripe\u00a0Payout",
    "\tSTRIPE PAYOUT ",
    "STRIPE PAYOUT FEE",
    "\u212aITCHEN SUPPLY",
    "kitchen supply",
    "CAF\u00c9 LUNA",
    "caf\u00e9 luna",
    "PG&E 1234",
    "SQ *BLUE BOTTLE",
    "blue bottle coffee",
    'SAY "HI" LTD',
    "x".repeat(1200) + " needle",
    "needle " + "x".repeat(1200),
    "ZOOM.US 888",
    "ZOOMXUS",
  ];
  const rules: Omit<RuleInput, "rule_key" | "category">[] = [
    { match_kind: "description_exact", match_value: "stripe payout" },
    { match_kind: "description_exact", match_value: "KITCHEN SUPPLY" },
    { match_kind: "description_exact", match_value: "caf\u00c9 luna" },
    { match_kind: "description_exact", match_value: 'say "hi" ltd' },
    { match_kind: "description_regex", match_value: "needle" },
    { match_kind: "description_regex", match_value: "^(SQ \\*)?BLUE BOTTLE" },
    { match_kind: "description_regex", match_value: "ZOOM\\.US" },
    { match_kind: "description_regex", match_value: "zoom.us" },
    { match_kind: "description_regex", match_value: "\\bPG&E\\b" },
    { match_kind: "description_regex", match_value: "itchen" },
    { match_kind: "description_regex", match_value: "Stripe" },
    { match_kind: "amount_sign", match_value: "in" },
  ];

  it("leaves no undecided line the new rule matches, whatever its case, spaces or script", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("rule-words"));
    await runInDurableObject(stub, (ledger: TenantLedger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      const added = descriptions.flatMap((name, i) => [1, -1].map((sign) => ({ transaction_id: `t${i}${sign}`, account_id: "acc", amount: sign * 5, date: "2026-11-20", name })));
      applyFeedPage(db, connection, { cursorBefore: "0", nextCursor: "1", hasMore: false, accounts: [], added, modified: [], removed: [] }, AT);

      const face = faceFor({ tier: "paid", visibleFrom: null });
      const decidedBy = rules.map((input, i) => {
        const rule = { ...input, rule_key: `r${i}`, category: "Fees" };
        const matching = undecidedLines(db).filter(matcherOf(rule)).length;
        const { decided } = createRule(db, rule, "human:t", AT, face);
        expect(decided, rule.match_value).toBe(matching);
        expect(undecidedLines(db).filter(matcherOf(rule)), rule.match_value).toEqual([]);
        return decided;
      });
      // stripe payout x4 x2 signs; the Kelvin sign and plain "kitchen"; both cafés; the quoted name; the needle within reach...
      expect(decidedBy.slice(0, 5)).toEqual([8, 4, 4, 2, 2]);
      expect(brokenInvariants(db)).toEqual([]);
    });
  });

  it("decides only the candidates on the tenant's face: none before its paid floor", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("rule-words-floor"));
    await runInDurableObject(stub, (ledger: TenantLedger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      const added = ["2026-10-30", "2026-11-01", "2026-11-02"].map((date, i) => ({ transaction_id: `f${i}`, account_id: "acc", amount: 5, date, name: "BLUE BOTTLE COFFEE" }));
      applyFeedPage(db, connection, { cursorBefore: "0", nextCursor: "1", hasMore: false, accounts: [], added, modified: [], removed: [] }, AT);
      const floored = faceFor({ tier: "paid", visibleFrom: "2026-11-01" });
      const rule = { rule_key: "coffee", match_kind: "description_regex" as const, match_value: "BLUE BOTTLE", category: "Meals" };
      expect(createRule(db, rule, "human:t", AT, floored).decided).toBe(2);
      expect(undecidedLines(db).map((l) => l.aId)).toEqual([1]);
    });
  });
});
