/** The shared merchant prior: what a tenant contributes, what is pooled, and how far it holds a line's confidence. */
import { describe, expect, it } from "vitest";
import { LocalModel } from "./classifier";
import { Evidence, type Examples } from "./evidence";
import { lineKey, type LineFacts } from "./features";
import type { MerchantHistory } from "./history";
import { contribution, pool, SHARED_PRIOR_LINES, SHARED_PRIOR_TENANTS, sharedCap, type SharedPrior } from "./shared-prior";

const facts = (description: string, amountCents = -2_000, accountId = "checking"): LineFacts => ({ description, merchantName: null, amountCents, accountId });

/** Examples of labelled lines, as a tenant's evidence keeps them. */
function examplesOf(labelled: [string, string][]): Examples {
  const evidence = new Evidence();
  labelled.forEach(([description, category], i) => evidence.learn({ key: lineKey(facts(description, -1_000 - 37 * i)), category }, 1));
  return evidence.examples;
}
const times = (n: number, description: string, category: string): [string, string][] => Array.from({ length: n }, () => [description, category]);

const history = (agree: number, lines: number, name: string | null): MerchantHistory => ({ merchant: { agree, lines }, band: { agree, lines }, account: { agree, lines }, name });

describe("a tenant's contribution to the shared merchant prior", () => {
  it("gives, per word naming one merchant on five labelled lines or more, the share of them in its most frequent category", () => {
    const given = contribution(
      examplesOf([
        ...times(3, "COSTCO WHSE #0123 OAKLAND CA", "Inventory"),
        ...times(2, "COSTCO WHSE #0456 OAKLAND CA", "Owner draw"),
        ...times(4, "BLUE BOTTLE COFFEE OAKLAND CA", "Meals"),
      ]),
    );
    expect(given.find((c) => c.word === "costco")).toEqual({ word: "costco", agreement: 0.6 });
    // Four lines are too few to say anything of a merchant.
    expect(given.find((c) => c.word === "bottle")).toBeUndefined();
  });

  it("leaves out a word that names two merchants, and a bank's word beside every merchant", () => {
    const given = contribution(
      examplesOf([
        ...times(5, "PURCHASE MILLER DELI OAKLAND CA", "Meals"),
        ...times(3, "PURCHASE MILLER DENTAL OAKLAND CA", "Owner draw"),
        ...times(3, "PURCHASE ALDER CAFE OAKLAND CA", "Meals"),
      ]),
    );
    const words = given.map((c) => c.word);
    expect(words).not.toContain("miller");
    expect(words).not.toContain("purchase");
    // The city is beside every merchant too; the words beside one merchant's name alone are kept.
    expect(words).not.toContain("oakland");
    expect(words).toContain("deli");
  });
});

describe("the pooled prior", () => {
  it("holds only the words five tenants or more have, with the mean of their agreement and never a tenant's own figure alone", () => {
    const tenants = Array.from({ length: SHARED_PRIOR_TENANTS }, (_, i) => [
      { word: "costco", agreement: 0.4 + 0.1 * i },
      ...(i < SHARED_PRIOR_TENANTS - 1 ? [{ word: "nguyen", agreement: 1 }] : []),
    ]);
    const prior = pool(tenants);
    expect(prior.get("costco")).toEqual({ tenants: SHARED_PRIOR_TENANTS, agreement: expect.closeTo(0.6, 10) });
    expect(prior.has("nguyen")).toBe(false);
  });
});

describe("the most a line's confidence may be by the prior", () => {
  const prior: SharedPrior = new Map([["costco", { tenants: 12, agreement: 0.5 }]]);

  it("is what the tenant's agreeing labels say with the others' agreement counted as five more lines", () => {
    expect(sharedCap(history(2, 2, "costco"), prior)).toBeCloseTo((2 + SHARED_PRIOR_LINES * 0.5) / (2 + SHARED_PRIOR_LINES));
    // Many agreeing labels outweigh the others: a business whose warehouse club is all stock.
    expect(sharedCap(history(200, 200, "costco"), prior)).toBeGreaterThan(0.98);
  });

  it("holds nothing where the tenant's own labels already show the split, the prior does not know the merchant, or there is none", () => {
    expect(sharedCap(history(5, 8, "costco"), prior)).toBe(1);
    expect(sharedCap(history(2, 2, "starbucks"), prior)).toBe(1);
    expect(sharedCap(history(2, 2, null), prior)).toBe(1);
    expect(sharedCap(null, prior)).toBe(1);
    expect(sharedCap(history(2, 2, "costco"), null)).toBe(1);
  });

  it("keeps a merchant other businesses split below the band, where the tenant's few labels of it agree", () => {
    const ordinary = ["BLUE BOTTLE COFFEE", "SHELL OIL", "ADOBE CREATIVE CLOUD", "STATE FARM", "ULINE SHIP SUPPLIES", "COMCAST CABLE"];
    const categories = ["Meals", "Fuel", "Software", "Insurance", "Packaging", "Utilities"];
    const labelled = ordinary.flatMap((name, m) => Array.from({ length: 8 }, (_, i) => ({ line: facts(`${name} #${100 + i} OAKLAND CA`, -(1_000 + 37 * i)), category: categories[m]! })));
    // In two amount bands, so on two line keys.
    const costco = Array.from({ length: 16 }, (_, i) => ({ line: facts(`COSTCO WHSE #${500 + i} OAKLAND CA`, -(i % 2 ? 20_000 : 2_000) - 91 * i), category: "Inventory" }));
    const model = LocalModel.train([...labelled, ...costco].map(({ line, category }) => ({ key: lineKey(line), category })));
    const club = facts("COSTCO WHSE #599 OAKLAND CA", -20_500);
    const coffee = facts("BLUE BOTTLE COFFEE #199 OAKLAND CA", -1_200);
    const alone = [model.predict(club)!, model.predict(coffee)!];
    expect(alone[0]).toMatchObject({ category: "Inventory" });
    expect(alone[0]!.confidence).toBeGreaterThanOrEqual(0.95);

    model.useSharedPrior(prior);
    const cap = (16 + SHARED_PRIOR_LINES * 0.5) / (16 + SHARED_PRIOR_LINES);
    expect(model.predict(club)).toEqual({ category: "Inventory", confidence: cap });
    // A merchant the prior says nothing of is as it was.
    expect(model.predict(coffee)).toEqual(alone[1]);
    model.useSharedPrior(null);
    expect(model.predict(club)).toEqual(alone[0]);
  });
});
