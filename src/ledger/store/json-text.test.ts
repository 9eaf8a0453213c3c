/** toJson writes what JSON.stringify writes for plain data, with each fragment's text in its place. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonFragment, toJson } from "./json-text";

describe("toJson", () => {
  it("equals JSON.stringify for any plain JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(toJson(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it("leaves out undefined members and writes undefined array items as null, as JSON.stringify does", () => {
    const value = { a: undefined, b: [1, undefined, "x"], c: { d: undefined } };
    expect(toJson(value)).toBe(JSON.stringify(value));
  });

  it("splices a fragment's text as it stands, wherever it sits", () => {
    const fragment = new JsonFragment('[{"x":1},{"y":"\\u0000"}]');
    expect(toJson({ list: fragment, nested: [fragment], n: 2 })).toBe(`{"list":${fragment.text},"nested":[${fragment.text}],"n":2}`);
    expect(JSON.parse(toJson({ list: fragment }))).toEqual({ list: [{ x: 1 }, { y: "\u0000" }] });
  });
});
