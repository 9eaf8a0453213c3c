import { describe, expect, it } from "vitest";
import { addDays } from "../clock";
import { textProblem, wellFormed } from "./control-characters";
import { DATE_RANGE, dateRangeProblem } from "./dates";
import { integerProblem, subCentProblem } from "./numbers";

describe("text a person writes", () => {
  it("refuses every C0 control, DEL and every C1 control on one line, naming it and where it is", () => {
    const controls = [...Array.from({ length: 0x20 }, (_, i) => i), 0x7f, ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i)];
    for (const unit of controls) {
      const problem = textProblem(`Meals${String.fromCharCode(unit)}x`, "single");
      expect(problem, unit.toString(16)).toMatchObject({ code: "control_character" });
      expect(problem!.message).toContain(`U+${unit.toString(16).toUpperCase().padStart(4, "0")}`);
      expect(problem!.message).toContain("position 5");
    }
    expect(textProblem("a\u0000b", "single")!.message).toBe("contains the control character U+0000 (NUL) at position 1");
  });

  it("lets free text over several lines hold tab, line feed and carriage return, and nothing else of the controls", () => {
    expect(textProblem("Client lunch,\r\n\tnot office coffee", "multi")).toBeNull();
    expect(textProblem("tab\there", "single")).toMatchObject({ code: "control_character" });
    for (const unit of [0x00, 0x0b, 0x0c, 0x1b, 0x7f, 0x85, 0x9b]) {
      expect(textProblem(`x${String.fromCharCode(unit)}`, "multi"), unit.toString(16)).toMatchObject({ code: "control_character" });
    }
  });

  it("refuses a lone surrogate, either half, and takes every well-formed character", () => {
    expect(textProblem("a\ud800", "single")).toMatchObject({ code: "lone_surrogate", message: expect.stringContaining("U+D800 at position 1") });
    expect(textProblem("\udc00a", "multi")).toMatchObject({ code: "lone_surrogate" });
    expect(textProblem("\ud83d\ude00\ud800", "single")).toMatchObject({ code: "lone_surrogate", message: expect.stringContaining("position 2") });
    expect(textProblem("Café 😀 日本 \u00a0 \u2028 \u200f", "single")).toBeNull();
  });

  it("makes outside text storable: each lone surrogate one U+FFFD, controls and pairs untouched", () => {
    expect(wellFormed("X\ud800Y\udc00Z")).toBe("X\ufffdY\ufffdZ");
    expect(wellFormed("a\u0000\u009b😀")).toBe("a\u0000\u009b😀");
  });
});

describe("integers in a query or a path", () => {
  it("take decimal digits with an optional minus", () => {
    for (const text of ["0", "16", "-5", String(Number.MAX_SAFE_INTEGER)]) expect(integerProblem(text), text).toBeNull();
  });

  it("refuse every other spelling JavaScript's Number() would read", () => {
    for (const text of ["0x10", "1e1", " 16", "16 ", "16.0", "+16", "016", "-016", "", "0b11", "0o7", "Infinity", "NaN", "1_000", "١٦"]) {
      expect(integerProblem(text), JSON.stringify(text)).not.toBeNull();
    }
    expect(integerProblem("016")).toContain("leading zeros");
  });

  it("refuse what is beyond a safe integer, a repeated parameter and anything not text", () => {
    expect(integerProblem("9007199254740992")).toContain("at most 9007199254740991");
    expect(integerProblem("9".repeat(400))).toContain("at most");
    expect(integerProblem(["1", "2"])).toContain("more than once");
    expect(integerProblem(16)).not.toBeNull();
  });
});

describe("dollar amounts", () => {
  it("take whole cents however JSON wrote them", () => {
    for (const dollars of [0, -0, 12, 12.5, JSON.parse("12.50"), -3.07, 0.01, 1e12 - 0.01, 4242 / 100]) expect(subCentProblem(dollars), String(dollars)).toBeNull();
  });

  it("refuse a fraction of a cent, float noise included, instead of rounding it", () => {
    for (const dollars of [12.345, 0.001, 0.1 + 0.2, 59.99 + 5, 1e-7, -0.005]) {
      expect(subCentProblem(dollars), String(dollars)).toContain("fraction of a cent");
    }
  });
});

describe("dates", () => {
  it("are taken from 1900-01-01 to 9999-12-31", () => {
    expect(dateRangeProblem(DATE_RANGE.earliest)).toBeNull();
    expect(dateRangeProblem(DATE_RANGE.latest)).toBeNull();
    expect(dateRangeProblem("1899-12-31")).toContain("1900-01-01 to 9999-12-31");
    expect(dateRangeProblem("0000-01-01")).not.toBeNull();
  });

  it("keep the windows' arithmetic inside four-digit years, where year 0 would not be", () => {
    expect(addDays(DATE_RANGE.earliest, -60)).toBe("1899-11-02");
    expect(addDays("0000-01-01", -6)).not.toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
