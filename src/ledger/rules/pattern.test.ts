/**
 * Rule patterns: RE2 accepts what it compiles and refuses the rest in words naming the
 * construct, never by throwing; the literal fast paths (a pattern that is plain text, the
 * prefilter every match satisfies) agree with plain re2js matching. Runs inside workerd,
 * where the service runs re2js.
 */
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { patternCase, textsFor } from "../../../test/fixtures/patterns";
import { foldForLiterals, matchedPart, MAX_MATCHED_LENGTH, prefilterHolds, readPattern } from "./pattern";

/** Plain re2js: what a rule pattern means, with none of the fast paths. */
function re2Matches(pattern: string, text: string): boolean {
  return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).test(matchedPart(text));
}

describe("readPattern", () => {
  it("accepts the bookkeeping patterns the backtracking proof refused, and the ones that made it throw", () => {
    for (const pattern of [
      "GUSTO.*PAYROLL",
      "OKAFOR PLASTICS +(DES:)?BILL PAY",
      "(?<x>a+)+$",
      "(?P<x>a+)+$",
      "(?i:ab)+c",
      "(?s)PAYPAL.*INST XFER",
      "\\p{L}+ LTD",
      "a||b",
      "|",
      "(x+x+)+y",
      "(a|aa)+$",
      "^SQ \\*",
      "AMZN MKTP US\\*\\w+",
      "A".repeat(200),
    ]) {
      expect(readPattern(pattern).problem, pattern).toBeUndefined();
    }
    expect(re2Matches("GUSTO.*PAYROLL", "GUSTO 8312 DES:PAYROLL")).toBe(true);
    expect(re2Matches("OKAFOR PLASTICS +(DES:)?BILL PAY", "okafor plastics  des:bill pay 88")).toBe(true);
    expect(re2Matches("(?<x>a+)+$", "baaa")).toBe(true);
    expect(re2Matches("(?i:ab)+c", "xABabC")).toBe(true);
  });

  it("refuses what RE2 does not have, naming the construct", () => {
    const refusals: [string, RegExp][] = [
      ["(COFFEE)\\1", /`\\1` is a backreference/],
      ["(?<n>a)\\k<n>", /named backreference/],
      ["(?P<n>a)(?P=n)", /named backreference/],
      ["STRIPE(?= PAYOUT)", /a lookahead \(`\(\?=`\)/],
      ["STRIPE(?! FEE)", /a negative lookahead/],
      ["(?<=SQ \\*)COFFEE", /a lookbehind \(`\(\?<=`\)/],
      ["(?<!TST\\* )COFFEE", /a negative lookbehind/],
      ["a++", /possessive quantifier `\+\+`/],
      ["\\d{4}+", /possessive quantifier `\{4\}\+`/],
      ["(?>a|ab)c", /atomic group/],
      ["\\u00e9", /`\\u` escapes are JavaScript/],
      ["\\cJ", /control escapes/],
      ["\\Z", /the escape `\\Z`/],
      ["(?x) a b", /flag RE2 does not have/],
      ["(?#note)x", /comment group/],
      ["(?R)", /recursion/],
    ];
    for (const [pattern, message] of refusals) expect(readPattern(pattern).problem, pattern).toMatch(message);
  });

  it("refuses malformed patterns and RE2's limits in plain words", () => {
    const refusals: [string, RegExp][] = [
      ["(unclosed", /a group opened with `\(` is never closed/],
      ["closed)", /a `\)` closes no group/],
      ["[unclosed", /character class opened with `\[` is never closed/],
      ["*STAR", /the repetition operator `\*` follows nothing/],
      ["a**", /repeats a repetition/],
      ["a{1000}{1000}", /repeats a repetition/],
      ["a{1001}", /over RE2's limit: a count is at most 1,000/],
      ["(?:a{31}){33}", /over RE2's limit/],
      ["x{3,2}", /minimum above its maximum/],
      ["[z-a]", /runs backwards/],
      ["\\p{Klingon}", /names no Unicode class/],
      ["fee\\", /lone backslash/],
      ["(?P<x>a)(?P<x>b)", /two groups are named `x`/],
      ["(?<a-b>x)", /named group .* is malformed/],
      ["(".repeat(1001) + ")".repeat(1001), /nests .* more than 1,000 deep/],
    ];
    for (const [pattern, message] of refusals) expect(readPattern(pattern).problem, pattern).toMatch(message);
  });

  it("refuses exactly what re2js cannot compile, never by throwing, and answers the same every time", () => {
    fc.assert(
      fc.property(patternCase, ({ pattern }) => {
        let compiles = true;
        try {
          RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
        } catch {
          compiles = false;
        }
        const reading = readPattern(pattern);
        expect(reading.problem === undefined, pattern).toBe(compiles);
        if (reading.problem !== undefined) expect(reading.problem).toMatch(/^\S/);
        expect(readPattern(pattern)).toBe(reading);
      }),
      { seed: 20261124, numRuns: 3_000 },
    );
  });
});

describe("the literal fast paths", () => {
  it("fold exactly the characters RE2 equates with ASCII: ASCII case, the long s and the Kelvin sign", () => {
    // Every character outside ASCII (surrogates aside) that RE2 matches with an ASCII class, case-insensitively.
    let outside = "";
    for (let code = 0x80; code <= 0x10ffff; code++) if (code < 0xd800 || code > 0xdfff) outside += String.fromCodePoint(code);
    const found = [...RE2JS.compile("[\\x00-\\x7f]", RE2JS.CASE_INSENSITIVE).matchAll(outside)].map((m) => m[0].codePointAt(0));
    expect(found).toEqual([0x17f, 0x212a]);
    expect(foldForLiterals("\u017f\u212a")).toBe("sk");
    // Within ASCII, each character equals itself and its other case only.
    for (let a = 0; a < 128; a++) {
      const equal = RE2JS.compile(RE2JS.quote(String.fromCharCode(a)), RE2JS.CASE_INSENSITIVE);
      for (let b = 0; b < 128; b++) {
        const folded = foldForLiterals(String.fromCharCode(a)) === foldForLiterals(String.fromCharCode(b));
        expect(equal.testExact(String.fromCharCode(b)), `${a} ${b}`).toBe(folded);
      }
    }
    expect(foldForLiterals("CAF\u00c9 \u212aEY")).toBe("caf\u00c9 key");
  });

  it("read at most the first 1,000 code units, never half a surrogate pair", () => {
    const pair = "\ud83d\ude00";
    expect(matchedPart("x".repeat(MAX_MATCHED_LENGTH - 1) + pair)).toBe("x".repeat(MAX_MATCHED_LENGTH - 1));
    expect(matchedPart("x".repeat(MAX_MATCHED_LENGTH - 2) + pair + "y")).toBe("x".repeat(MAX_MATCHED_LENGTH - 2) + pair);
    expect(matchedPart("short")).toBe("short");
  });

  it("never rule out a text the pattern matches, and a plain-text pattern matches exactly where one of its folded texts is", () => {
    let matched = 0;
    let filtered = 0;
    const withTexts = patternCase.chain((c) => fc.tuple(fc.constant(c.pattern), fc.array(textsFor(c.sample), { minLength: 1, maxLength: 5 })));
    fc.assert(
      fc.property(withTexts, ([pattern, texts]) => {
        const { pattern: read } = readPattern(pattern);
        if (!read) return;
        for (const text of texts) {
          const matches = re2Matches(pattern, text);
          const folded = foldForLiterals(matchedPart(text));
          const where = `${pattern} on ${JSON.stringify(text)}`;
          if (matches) {
            matched++;
            if (read.prefilter !== null) filtered++;
            expect(read.prefilter === null || prefilterHolds(read.prefilter, (piece) => folded.includes(piece)), where).toBe(true);
          }
          if (read.texts !== null) expect(read.texts.some((t) => folded.includes(t)), where).toBe(matches);
        }
      }),
      { seed: 20261125, numRuns: 3_000 },
    );
    // The generator's texts make the check bite: many matches, many of them through a prefilter.
    expect(matched).toBeGreaterThan(2_000);
    expect(filtered).toBeGreaterThan(500);
  });

  it("find the pieces of ordinary bookkeeping patterns", () => {
    expect(readPattern("GUSTO.*PAYROLL").pattern).toMatchObject({ texts: null, prefilter: { all: ["gusto", "payroll"] } });
    expect(readPattern("ZOOM\\.US").pattern).toMatchObject({ texts: ["zoom.us"] });
    expect(readPattern("PG&E").pattern).toMatchObject({ texts: ["pg&e"] });
    // Alternatives of plain text, at the top or in one group around the whole, are plain text too.
    expect(readPattern("(UBER EATS|DOORDASH|GRUBHUB)").pattern).toMatchObject({ texts: ["uber eats", "doordash", "grubhub"] });
    expect(readPattern("STARBUCKS|(PEET'S)").pattern).toMatchObject({ texts: ["starbucks", "peet's"] });
    const texts: [string, string[] | null][] = [
      ["UBER\\|LYFT", ["uber|lyft"]],
      ["[|]UBER", ["|uber"]],
      ["(UBER|LYFT) TRIP", null],
      ["UBER|", null],
      ["\\QUBER|LYFT\\E", ["uber|lyft"]],
      ["(?i:UBER)|LYFT", null],
      ["(UBER)|(?-i:LYFT)", null],
      // Optional groups around plain text change nothing where it is looked for anywhere...
      ["(SQ \\*|TST\\* )?BLUE BOTTLE", ["blue bottle"]],
      ["TRANSFER TO( #\\d+)?", ["transfer to"]],
      ["COFFEE(S)?(?:\\s+SHOP)*|TEA", ["coffee", "tea"]],
      // ...but an anchor, a word edge or a group that must match does.
      ["^(SQ \\*)?BLUE BOTTLE", null],
      ["BLUE BOTTLE( #\\d+)?$", null],
      ["(\\b)?FEE", null],
      ["(X)+FEE", null],
      ["(X)?", null],
    ];
    for (const [pattern, expected] of texts) expect(readPattern(pattern).pattern!.texts, pattern).toEqual(expected);
    // Pieces under three characters (the space here) are left out: nearly every description holds them.
    expect(readPattern("(UBER|LYFT) (TRIP|RIDE)").pattern!.prefilter).toEqual({ all: [{ any: ["uber", "lyft"] }, { any: ["trip", "ride"] }] });
    // A character beyond ASCII splits a piece; a part the pattern makes case-sensitive is still a plain piece.
    expect(readPattern("CAF\u00c9 LUNA").pattern).toMatchObject({ texts: null, prefilter: { all: ["caf", " luna"] } });
    expect(readPattern("(?-i:ABC)").pattern).toMatchObject({ texts: null, prefilter: "abc" });
    // A part the pattern makes case-insensitive itself, a class, a repetition that may vanish: no piece.
    expect(readPattern("(?i)ABC").pattern!.prefilter).toBeNull();
    expect(readPattern("\\d{6}").pattern!.prefilter).toBeNull();
    expect(readPattern("(?:FEE)?").pattern!.prefilter).toBeNull();
  });
});
