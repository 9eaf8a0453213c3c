/** The local model's parts: what it reads of a line, its calibration, and the classifier. */
import { describe, expect, it } from "vitest";
import { calibrate, expectedCalibrationError, fitCalibration } from "./calibration";
import { LocalModel, type Example } from "./classifier";
import { featuresOf, merchantKey, normaliseDescription, sizeBand } from "./features";

describe("features", () => {
  it("reads descriptions as a bookkeeper would", () => {
    expect(normaliseDescription("SQ *BLUE BOTTLE COFFEE #1234 OAKLAND CA")).toBe("blue bottle coffee oakland ca");
    expect(normaliseDescription("TST* JOE'S PIZZA 0042")).toBe("joe s pizza");
    expect(normaliseDescription("DEBIT CARD PURCHASE XXXX4821 SHELL OIL 57442")).toBe("shell oil");
    expect(normaliseDescription("PAYPAL *ADOBE 11/03 REF:8841X")).toBe("adobe");
    expect(merchantKey({ description: "SQ *BLUE BOTTLE COFFEE #99", merchantName: null })).toBe("blue bottle");
    expect(merchantKey({ description: "whatever 123", merchantName: "Blue Bottle" })).toBe("blue bottle");
  });

  it("adds the amount's sign and size band, the account and the merchant", () => {
    expect(sizeBand(-50)).toBe(0);
    expect(sizeBand(-1_250)).toBe(2);
    expect(sizeBand(250_000)).toBe(4);
    expect(featuresOf({ description: "SHELL OIL #12", merchantName: "Shell", amountCents: -4_800, accountId: "acc" })).toEqual([
      "w:shell", "w:oil", "b:shell_oil", "key:shell", "m:shell", "sign:out", "band:2", "acct:acc",
    ]);
  });
});

describe("calibration", () => {
  it("maps a score to the precision observed at it, monotone and never certain on little evidence", () => {
    const pairs = [
      ...Array.from({ length: 50 }, (_, i) => ({ score: 0.3 + i * 0.001, correct: i % 2 === 0 })),
      ...Array.from({ length: 50 }, (_, i) => ({ score: 0.9 + i * 0.001, correct: i % 25 !== 0 })),
    ];
    const fit = fitCalibration(pairs);
    expect(calibrate(fit, 0.31)).toBeCloseTo(0.5, 1);
    expect(calibrate(fit, 0.95)).toBeGreaterThan(0.9);
    expect(calibrate(fit, 0.95)).toBeLessThan(1);
    expect(calibrate(fit, 0.31)).toBeLessThanOrEqual(calibrate(fit, 0.95));
    expect(calibrate(fitCalibration([{ score: 0.99, correct: true }]), 0.99)).toBeCloseTo(2 / 3);
  });

  it("measures calibration error", () => {
    expect(expectedCalibrationError([{ confidence: 0.9, correct: true }, { confidence: 0.9, correct: false }])).toBeCloseTo(0.4);
    expect(expectedCalibrationError([])).toBe(0);
  });
});

const example = (description: string, category: string): Example => ({
  features: featuresOf({ description, merchantName: null, amountCents: -1_000, accountId: "acc" }),
  category,
});

describe("LocalModel", () => {
  const history = [
    ...Array.from({ length: 12 }, (_, i) => example(`BLUE BOTTLE COFFEE #${i}`, "Meals")),
    ...Array.from({ length: 12 }, (_, i) => example(`SHELL OIL ${1000 + i}`, "Fuel")),
    ...Array.from({ length: 12 }, (_, i) => example(`ADOBE CREATIVE ${i}`, "Software")),
    ...Array.from({ length: 12 }, (_, i) => example(`ACME INSURANCE ${i}`, "Insurance")),
  ];

  it("has nothing to say before it has learnt anything", () => {
    expect(LocalModel.train([]).predict(example("ANYTHING", "x").features)).toBeNull();
  });

  it("is sure of merchants it has seen consistently, and not of merchants it has never seen", () => {
    const model = LocalModel.train(history);
    const seen = model.predict(example("SQ *BLUE BOTTLE COFFEE #777", "?").features)!;
    expect(seen.category).toBe("Meals");
    expect(seen.confidence).toBeGreaterThan(0.95);
    const unseen = model.predict(example("ZOOM.US 888", "?").features)!;
    expect(unseen.confidence).toBeLessThan(0.5);
  });

  it("learns incrementally as labels land, with a version that follows its training set", () => {
    const model = LocalModel.train(history);
    const before = model.version;
    expect(model.predict(example("ZOOM.US 888", "?").features)!.category).not.toBe("Software");
    for (let i = 0; i < 6; i++) model.add(example(`ZOOM.US ${900 + i}`, "Software"));
    expect(model.version).not.toBe(before);
    expect(model.size).toBe(history.length + 6);
    expect(model.predict(example("ZOOM.US 999", "?").features)!.category).toBe("Software");
    // The same examples give the same version, in whatever order they were learnt.
    expect(LocalModel.train(history).version).toBe(before);
    expect(LocalModel.train([...history].reverse()).version).toBe(before);
  });

  it("names a training set by the same version from one release to the next", () => {
    // Decisions record the version; these were computed by the first release's hash.
    expect(LocalModel.train(history).version).toBe("nb1-48-9cf7588c");
    expect(LocalModel.train([example("CAF\u00c9 \ud83d\ude00 NOIR", "Meals")]).version).toBe("nb1-1-20bf5761");
  });

  it("learns a batch as it learns the same examples one by one", () => {
    const batch = Array.from({ length: 6 }, (_, i) => example(`ZOOM.US ${900 + i}`, "Software"));
    const oneByOne = LocalModel.train(history);
    for (const e of batch) oneByOne.add(e);
    const together = LocalModel.train(history);
    together.addAll(batch);
    expect(together.size).toBe(oneByOne.size);
    expect(together.version).toBe(oneByOne.version);
    expect(together.version).toBe(LocalModel.train([...batch, ...history]).version);
    expect(together.predict(example("ZOOM.US 999", "?").features)!.category).toBe("Software");
    together.addAll([]);
    expect(together.version).toBe(oneByOne.version);
  });

  it("forgets an example as if it had never learnt it", () => {
    const extra = [...Array.from({ length: 5 }, (_, i) => example(`ZOOM.US ${900 + i}`, "Software")), example("BLUE BOTTLE COFFEE #50", "Office")];
    const learnt = LocalModel.train([...history, ...extra]);
    const before = learnt.version;
    // Forgotten by value: the ledger reads a line's features again to forget them.
    const forgetting = LocalModel.train([...history, ...extra]);
    for (const e of extra) forgetting.forget({ features: [...e.features], category: e.category });
    const never = LocalModel.train(history);
    expect(forgetting.version).toBe(never.version);
    expect(forgetting.version).not.toBe(before);
    expect(forgetting.size).toBe(never.size);
    for (const probe of ["ZOOM.US 999", "BLUE BOTTLE COFFEE #9", "SHELL OIL 77", "UNHEARD OF LLC"]) {
      expect(forgetting.predict(example(probe, "?").features), probe).toEqual(never.predict(example(probe, "?").features));
    }
    expect(() => forgetting.forget(extra[0]!)).toThrow(/never learnt/);
    expect(() => forgetting.forget(example("SHELL OIL 1000", "Meals"))).toThrow(/never learnt/);
    expect(forgetting.version).toBe(never.version);
  });

  it("lowers its confidence when a merchant's history is split", () => {
    const split = [...history, ...Array.from({ length: 6 }, (_, i) => example(`BLUE BOTTLE COFFEE #${50 + i}`, "Office"))];
    const model = LocalModel.train(split);
    expect(model.predict(example("BLUE BOTTLE COFFEE #9", "?").features)!.confidence).toBeLessThan(
      LocalModel.train(history).predict(example("BLUE BOTTLE COFFEE #9", "?").features)!.confidence,
    );
  });
});
