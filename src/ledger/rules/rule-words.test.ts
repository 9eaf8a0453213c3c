/**
 * A new rule's candidates from the trigram index: the words it asks for are in every line
 * it matches, so create_rule, reading only the candidates, leaves no matching line undecided.
 */
import { env, runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { faceFor } from "../face";
import { applyFeedPage } from "../feed/feed-pages";
import { brokenInvariants } from "../../../test/support/invariants";
import { patternCase, textsFor } from "../../../test/fixtures/patterns";
import { wordsQueryOf } from "./rule-words";
import { matchedPart } from "./pattern";
import { createRule } from "./rulebook";
import { matcherOf } from "./matching";
import { type RuleInput } from "./rule";
import { connectBank } from "../feed/sync-requests";
import type { TenantLedger } from "../tenant-ledger";
import { undecidedLines } from "../books/undecided";

const AT = "2026-11-22T12:00:00.000Z";

describe("wordsQueryOf", () => {
  it("asks for each word of an exact description, and nothing for a sign", () => {
    expect(wordsQueryOf({ match_kind: "description_exact", match_value: " Stripe  PAYOUT 42" })).toBe('"stripe" AND "payout"');
    expect(wordsQueryOf({ match_kind: "description_exact", match_value: 'SAY "HI" LTD' })).toBe('"say" AND """hi""" AND "ltd"');
    expect(wordsQueryOf({ match_kind: "description_exact", match_value: "kitchen" })).toBeNull();
    expect(wordsQueryOf({ match_kind: "description_regex", match_value: "ZOOM\\.US" })).toBe('"zoom.us"');
    expect(wordsQueryOf({ match_kind: "amount_sign", match_value: "in" })).toBeNull();
  });

  it("asks a pattern for the pieces every match holds, from RE2's parse", () => {
    const query = (match_value: string) => wordsQueryOf({ match_kind: "description_regex", match_value });
    expect(query("STARBUCKS")).toBe('"starbucks"');
    expect(query("^(SQ \\*)?BLUE BOTTLE")).toBe('"blue bottle"');
    expect(query("GUSTO.*PAYROLL")).toBe('("gusto" AND "payroll")');
    expect(query("OKAFOR PLASTICS +(DES:)?BILL PAY")).toBe('("okafor plastics" AND "bill pay")');
    expect(query("(UBER|LYFT) (TRIP|RIDE)")).toBe('(("uber" OR "lyft") AND ("trip" OR "ride"))');
    expect(query('SAY "HI"')).toBe('"say ""hi"""');
    expect(query("CAF\u00c9 LUNA")).toBe('("caf" AND " luna")');
    // No piece of three characters, an alternative without one, a part that may vanish: no query.
    for (const pattern of ["ab", "a.b.c", "\\d+", "acme|fu", "(?:coffee)?", "(?i)coffee", "[coffee]", "\u00e9t\u00e9", "x*y*z*", "(?=x", "\\1abc"]) {
      expect(query(pattern), pattern).toBeNull();
    }
  });
});

describe("wordsQueryOf on the trigram index", () => {
  it("names every line a generated pattern matches, by plain re2js, whatever its case, script or folding", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("rule-words-generated"));
    await runInDurableObject(stub, (ledger: TenantLedger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      // Patterns and lines from the same generator: the lines are texts the patterns were built to match.
      const cases = fc.sample(patternCase, { seed: 20261127, numRuns: 1_000 });
      const names = cases.flatMap((c, i) => fc.sample(textsFor(c.sample), { seed: i, numRuns: 2 })).filter((name) => name.trim() !== "");
      const added = names.map((name, i) => ({ transaction_id: `g${i}`, account_id: "acc", amount: 5, date: "2026-11-20", name }));
      applyFeedPage(db, connection, { cursorBefore: "0", nextCursor: "1", hasMore: false, accounts: [], added, modified: [], removed: [] }, AT);
      const lines = undecidedLines(db);
      expect(lines.length).toBe(added.length);

      let queried = 0;
      let matched = 0;
      for (const { pattern } of cases) {
        let regex: RE2JS;
        try {
          regex = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
        } catch {
          continue;
        }
        const words = wordsQueryOf({ match_kind: "description_regex", match_value: pattern });
        if (words === null) continue;
        queried++;
        const named = new Set(undecidedLines(db, { words }).map((l) => l.aId));
        const matching = lines.filter((l) => regex.test(matchedPart(l.description)));
        matched += matching.length;
        for (const line of matching) expect(named.has(line.aId), `${pattern} (${words}) on ${JSON.stringify(line.description)}`).toBe(true);
      }
      // The check bites: many patterns have a query, and their matches are many.
      expect(queried).toBeGreaterThan(100);
      expect(matched).toBeGreaterThan(1_000);
    });
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
