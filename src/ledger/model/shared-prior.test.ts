/** The shared merchant prior: what a tenant contributes, what is pooled, and how far it holds a line's confidence. */
import { describe, expect, it } from "vitest";
import { LocalModel } from "./classifier";
import { Evidence, type Examples } from "./evidence";
import { lineKey, type LineFacts } from "./features";
import type { MerchantHistory } from "./history";
import {
  contribution,
  othersConfidence,
  pool,
  SHARED_PRIOR_LINES,
  SHARED_PRIOR_TENANTS,
  sharedCap,
  sharedCategoryName,
  sharedGuess,
  type SharedMerchant,
  type SharedPrior,
} from "./shared-prior";

const facts = (description: string, amountCents = -2_000, accountId = "checking"): LineFacts => ({ description, merchantName: null, amountCents, accountId });

/** Examples of labelled lines, as a tenant's evidence keeps them. */
function examplesOf(labelled: [string, string][]): Examples {
  const evidence = new Evidence();
  labelled.forEach(([description, category], i) => evidence.learn({ key: lineKey(facts(description, -1_000 - 37 * i)), category }, 1));
  return evidence.examples;
}
const times = (n: number, description: string, category: string): [string, string][] => Array.from({ length: n }, () => [description, category]);

/** A pooled word that nobody files under one category, or that `categoryTenants` file under `category`. */
const merchant = (tenants: number, agreement: number, category: string | null = null, categoryTenants = 0, namingTenants = categoryTenants): SharedMerchant => ({
  tenants,
  agreement,
  category,
  categoryTenants,
  namingTenants,
});

const history = (agree: number, lines: number, name: string | null): MerchantHistory => ({ merchant: { agree, lines }, band: { agree, lines }, account: { agree, lines }, direction: { agree, lines }, name, whole: null, chosenAmong: 1, ofManyKinds: false });

describe("a tenant's contribution to the shared merchant prior", () => {
  it("gives, per word naming one merchant on five labelled lines or more, the share of them in its most frequent category", () => {
    const { words: given } = contribution(
      examplesOf([
        ...times(3, "COSTCO WHSE #0123 OAKLAND CA", "Inventory"),
        ...times(2, "COSTCO WHSE #0456 OAKLAND CA", "Owner draw"),
        ...times(4, "BLUE BOTTLE COFFEE OAKLAND CA", "Meals"),
      ]),
    );
    // Its lines split: no category is named for it.
    expect(given.find((c) => c.word === "costco")).toEqual({ word: "costco", agreement: 0.6, category: null });
    // Four lines are too few to say anything of a merchant.
    expect(given.find((c) => c.word === "bottle")).toBeUndefined();
  });

  it("leaves out a word that names two merchants, and a bank's word beside every merchant", () => {
    const { words: given } = contribution(
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
    const tenants = Array.from({ length: SHARED_PRIOR_TENANTS }, (_, i) => ({
      words: [
        { word: "costco", agreement: 0.4 + 0.1 * i, category: null },
        ...(i < SHARED_PRIOR_TENANTS - 1 ? [{ word: "nguyen", agreement: 1, category: "contractors" }] : []),
      ],
      categories: ["contractors", "inventory"],
    }));
    const prior = pool(tenants);
    expect(prior.get("costco")).toEqual({ tenants: SHARED_PRIOR_TENANTS, agreement: expect.closeTo(0.6, 10), category: null, categoryTenants: 0, namingTenants: 0 });
    expect(prior.has("nguyen")).toBe(false);
  });
});

describe("the most a line's confidence may be by the prior", () => {
  const prior: SharedPrior = new Map([["costco", merchant(12, 0.5)]]);

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

describe("the others' category, for a merchant the tenant's labels do not show", () => {
  it("is contributed by its shared name where a tenant files nine in ten of the merchant's lines under it", () => {
    const given = contribution(
      examplesOf([
        ...times(9, "GITHUB, INC. GITHUB.COM CA", "Dues & Subscriptions"),
        ...times(1, "GITHUB, INC. GITHUB.COM CA", "Office supplies"),
        ...times(5, "STARBUCKS STORE 0123 OAKLAND CA", "Meals"),
      ]),
      ["Software", "Meals & Entertainment"],
    );
    expect(given.words.find((c) => c.word === "github")).toEqual({ word: "github", agreement: 0.9, category: "dues-and-subscriptions" });
    // Its taxonomy's names, and those its labels use.
    expect(given.categories).toEqual(["dues-and-subscriptions", "meals", "meals-and-entertainment", "office-supplies", "software"]);
    expect(sharedCategoryName("Dues and subscriptions")).toBe("dues-and-subscriptions");
    expect(sharedCategoryName("  dues &  SUBSCRIPTIONS ")).toBe("dues-and-subscriptions");
    expect(sharedCategoryName("Subscriptions")).not.toBe("dues-and-subscriptions");
  });

  it("is pooled only where five tenants or more file the word under one name, with how many of the word's tenants have that name", () => {
    const tenant = (category: string | null, categories = [category ?? "advertising"]) => ({ words: [{ word: "github", agreement: 1, category }], categories });
    const named = pool([
      ...Array.from({ length: SHARED_PRIOR_TENANTS }, () => tenant("software")),
      // One files it elsewhere though it keeps a software category; one has no such category.
      tenant("subscriptions", ["subscriptions", "software"]),
      tenant(null),
    ]);
    expect(named.get("github")).toEqual({ tenants: SHARED_PRIOR_TENANTS + 2, agreement: 1, category: "software", categoryTenants: SHARED_PRIOR_TENANTS, namingTenants: SHARED_PRIOR_TENANTS + 1 });
    // Six tenants have the word, but no five of them name its category alike.
    const split = pool([...Array.from({ length: 3 }, () => tenant("software")), ...Array.from({ length: 3 }, () => tenant("subscriptions"))]);
    expect(split.get("github")).toEqual({ tenants: 6, agreement: 1, category: null, categoryTenants: 0, namingTenants: 0 });
  });

  const prior: SharedPrior = new Map([
    // Of the 20 tenants with GitHub, 16 keep a category named software, and 15 of them file it there.
    ["github", merchant(20, 1, "software", 15, 16)],
    ["uber", merchant(30, 0.98)],
    ["eats", merchant(12, 1, "meals", 12)],
    ["shell", merchant(9, 1, "fuel", 6)],
  ]);
  const ours = new Map([
    ["software", "Software"],
    ["meals", "Meals & Entertainment"],
  ]);
  const keyOf = (description: string) => lineKey(facts(description));

  it("is the tenant's category of that name", () => {
    expect(sharedGuess(keyOf("GITHUB, INC. GITHUB.COM CA"), prior, ours)).toEqual({ category: "Software", confidence: othersConfidence(prior.get("github")!) });
    expect(sharedGuess(keyOf("DD DOORDASH EATS 0932"), prior, ours)).toEqual({ category: "Meals & Entertainment", confidence: othersConfidence(prior.get("eats")!) });
  });

  it("is as sure as the rule of succession over the tenants that keep the name", () => {
    // Of 30 businesses with the merchant, 24 keep a category named taxes, and 22 of those file it there.
    expect(othersConfidence(merchant(30, 1, "taxes", 22, 24))).toBeCloseTo(22.5 / 25, 10);
    // Businesses that file their lines of it in several categories count against it.
    expect(othersConfidence(merchant(30, 0.9, "taxes", 22, 24))).toBeCloseTo((0.9 * 22.5) / 25, 10);
    expect(othersConfidence(merchant(30, 1))).toBe(0);
  });

  it("says nothing where the others split a word of the line, the tenant has no category of the name, or no word is known", () => {
    // `UBER` is split between rides and meals: the line is the tenant's to decide.
    expect(sharedGuess(keyOf("UBER *EATS 8H2K1 HELP.UBER.COM CA"), prior, ours)).toBeNull();
    expect(sharedGuess(keyOf("SHELL OIL 57442311 OAKLAND CA"), prior, ours)).toBeNull();
    expect(sharedGuess(keyOf("BLUE BOTTLE COFFEE OAKLAND CA"), prior, ours)).toBeNull();
  });

  it("decides a new tenant's line with no label at all, and gives way to the tenant's own labels of the merchant", () => {
    const empty = new LocalModel();
    expect(empty.predict(facts("GITHUB, INC. GITHUB.COM CA"))).toBeNull();
    empty.useSharedPrior(prior, ours);
    expect(empty.predict(facts("GITHUB, INC. GITHUB.COM CA"))).toEqual({ category: "Software", confidence: othersConfidence(prior.get("github")!), byOthers: true });

    // A tenant that files GitHub under advertising: its own labels decide, the others' category is never read.
    const labelled = [
      ...Array.from({ length: 6 }, (_, i) => ({ key: lineKey(facts("GITHUB, INC. GITHUB.COM CA", -400 - 100 * i)), category: "Advertising" })),
      ...Array.from({ length: 6 }, (_, i) => ({ key: lineKey(facts(`ALDER CAFE #${10 + i} OAKLAND CA`, -900 - 50 * i)), category: "Meals & Entertainment" })),
    ];
    const model = LocalModel.train(labelled);
    model.useSharedPrior(prior, new Map([...ours, ["advertising", "Advertising"]]));
    expect(model.predict(facts("GITHUB, INC. GITHUB.COM CA", -700))).toMatchObject({ category: "Advertising" });
    expect(model.predict(facts("GITHUB, INC. GITHUB.COM CA", -700))?.byOthers).toBeUndefined();
    // A merchant its labels do not show is the others'.
    expect(model.predict(facts("DD DOORDASH EATS 0932"))).toEqual({ category: "Meals & Entertainment", confidence: othersConfidence(prior.get("eats")!), byOthers: true });
  });
});
