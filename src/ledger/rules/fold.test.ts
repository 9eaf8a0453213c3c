/** Folding a description: trimmed, inner whitespace folded to one space, lowercased. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldDescription } from "./fold";

describe("foldDescription", () => {
  it("folds as trimming, folding whitespace runs to a space and lowercasing, in that order, would", () => {
    // Whitespace of every kind JavaScript knows (U+FEFF is also case-ignorable, which can
    // change how a final sigma lowercases), letters whose lowercase changes length or context.
    const unit = fc.constantFrom("a", "B", " ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\ufeff", "\u0130", "\u03a3", "\u0391", "x");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (text) => {
        expect(foldDescription(text)).toBe(text.trim().replace(/\s+/g, " ").toLowerCase());
      }),
      { seed: 20261124, numRuns: 5000 },
    );
  });

  it("leaves a description with single spaces only its case to fold", () => {
    expect(foldDescription("BLUE BOTTLE #12")).toBe("blue bottle #12");
    expect(foldDescription("  BLUE\tBOTTLE   #12 ")).toBe("blue bottle #12");
  });
});
