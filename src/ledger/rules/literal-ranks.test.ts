/** The literal automaton answers what testing each literal in turn would. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LiteralRanks } from "./literal-ranks";

describe("LiteralRanks", () => {
  it("finds the smallest rank among the literals a text contains, as a walk over them would", () => {
    // A small alphabet, so literals overlap, nest and share prefixes and suffixes.
    const text = fc.string({ unit: fc.constantFrom("a", "b", "c", " ", "é"), maxLength: 16 });
    const literal = fc.string({ unit: fc.constantFrom("a", "b", "c", " ", "é"), minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(fc.array(literal, { minLength: 1, maxLength: 8 }), fc.array(text, { maxLength: 5 }), (literals, texts) => {
        const ranks = new LiteralRanks();
        literals.forEach((l, rank) => ranks.add(l, rank));
        for (const t of texts) {
          const walked = literals.findIndex((l) => t.includes(l));
          expect(ranks.smallestIn(t)).toBe(walked === -1 ? Infinity : walked);
        }
      }),
      { seed: 20261123, numRuns: 3000 },
    );
  });

  it("marks every watched literal a text contains, and only those, while finding the smallest rank", () => {
    const unit = fc.constantFrom("a", "b", "c", " ", "é");
    const text = fc.string({ unit, maxLength: 16 });
    const literal = fc.string({ unit, minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(fc.array(literal, { maxLength: 6 }), fc.array(literal, { minLength: 1, maxLength: 6 }), fc.array(text, { maxLength: 5 }), (ranked, watched, texts) => {
        const ranks = new LiteralRanks();
        ranked.forEach((l, rank) => ranks.add(l, rank));
        const keys = watched.map((l) => ranks.watch(l));
        expect(ranks.watched).toBe(new Set(watched).size);
        const found = new Uint32Array(ranks.watched);
        texts.forEach((t, i) => {
          const walked = ranked.findIndex((l) => t.includes(l));
          expect(ranks.scan(t, found, i + 1)).toBe(walked === -1 ? Infinity : walked);
          watched.forEach((l, j) => expect(found[keys[j]!] === i + 1, `${l} in ${t}`).toBe(t.includes(l)));
        });
      }),
      { seed: 20261124, numRuns: 3000 },
    );
  });

  it("keeps the smaller rank for a literal added twice, and takes literals added after a search", () => {
    const ranks = new LiteralRanks();
    ranks.add("coffee", 5);
    ranks.add("coffee", 2);
    expect(ranks.smallestIn("blue bottle coffee")).toBe(2);
    ranks.add("bottle", 1);
    expect(ranks.smallestIn("blue bottle coffee")).toBe(1);
    expect(ranks.smallestIn("tea")).toBe(Infinity);
  });
});
