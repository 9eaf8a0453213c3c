/** Which of the tenants sharing a phone a text names: by a handle or name as a word of its own, never two. */
import { describe, expect, it } from "vitest";
import { routeText } from "./routing";

const ACME = { id: "acme", names: ["acme", "Acme Supplies"] };
const BAKERY = { id: "acme-bakery", names: ["acme-bakery", "The Bakery"] };

describe("routing a text among the tenants of one phone", () => {
  it("goes to the only tenant of a phone whatever the text says", () => {
    expect(routeText("anything", [BAKERY])).toEqual({ kind: "tenant", id: "acme-bakery" });
  });

  it("reads a handle as a word: not inside a longer handle, in any case, at the edges too", () => {
    expect(routeText("acme-bakery: lunch receipt", [ACME, BAKERY])).toEqual({ kind: "tenant", id: "acme-bakery" });
    expect(routeText("For ACME, the lunch", [ACME, BAKERY])).toEqual({ kind: "tenant", id: "acme" });
    expect(routeText("lunch for acme", [ACME, BAKERY])).toEqual({ kind: "tenant", id: "acme" });
    expect(routeText("acmes lunch", [ACME, BAKERY]).kind).toBe("ask");
  });

  it("reads another name the same way, spaces folded", () => {
    expect(routeText("is the   bakery's rent paid? -- the  bakery", [ACME, BAKERY])).toEqual({ kind: "tenant", id: "acme-bakery" });
    expect(routeText("acme supplies: new invoice", [ACME, BAKERY])).toEqual({ kind: "tenant", id: "acme" });
  });

  it("asks, naming every handle in order, when the text names none or several", () => {
    const none = routeText("whose receipt is this?", [BAKERY, ACME]);
    expect(none).toEqual({
      kind: "ask",
      question:
        "This number is enrolled with 2 businesses: acme, acme-bakery. Which business is this message for? " +
        'Send it again with the business\'s name in it, e.g. "acme: ..." Nothing was filed.',
    });
    const both = routeText("acme and acme-bakery both owe", [ACME, BAKERY]);
    expect(both.kind === "ask" && both.question).toContain("This message names more than one business; which one is it for?");
  });
});
