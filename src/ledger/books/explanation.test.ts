/**
 * The explanation's pure parts: the citation builders on decision rows built in memory
 * (no SQL), and the sentence rendered from citations alone.
 */
import { describe, expect, it } from "vitest";
import {
  confidenceOf,
  decisionCitations,
  humanCitation,
  modelCitations,
  pocketCitation,
  renderDefect,
  renderSentence,
  ruleCitation,
  tailCitation,
  type Citation,
  type Decision,
  type Subject,
} from "./explanation";

const AT = "2026-11-20T14:03:11.000Z";

function decision(fields: Partial<Decision>): Decision {
  return {
    seq: 7,
    aId: 12,
    category: "Meals",
    engine: "human",
    actor: null,
    op: null,
    ruleKey: null,
    ruleRevision: null,
    modelVersion: null,
    confidence: null,
    bandFloorPpm: null,
    carriedFromAId: null,
    decidedAt: AT,
    recordedAt: AT,
    ...fields,
  };
}

const A12: Subject = { side: "A", src_id: 12, twin_a_id: null };
const B3: Subject = { side: "B", src_id: 3, twin_a_id: 12 };

describe("citation builders", () => {
  it("a rule decision cites the rule key and revision", () => {
    const d = decision({ engine: "rule", ruleKey: "coffee-shops", ruleRevision: 2 });
    expect(ruleCitation(d)).toEqual([{ kind: "rule", rule_key: "coffee-shops", revision: 2, category: "Meals" }]);
    expect(decisionCitations(d)).toEqual(ruleCitation(d));
  });

  it("a rule decision without its key or revision cites nothing (the evidence is missing)", () => {
    expect(ruleCitation(decision({ engine: "rule", ruleKey: "coffee-shops" }))).toEqual([]);
    expect(ruleCitation(decision({ engine: "rule", ruleRevision: 2 }))).toEqual([]);
  });

  it("a human decision cites the actor, the time, the verb and where it was carried from", () => {
    const d = decision({ engine: "human", actor: "token:acme:abcd", op: "label" });
    expect(humanCitation(d)).toEqual([{ kind: "human", actor: "token:acme:abcd", person: null, at: AT, op: "label", category: "Meals", carried_from: null }]);
    const carried = decision({ engine: "human", actor: "human:acme", carriedFromAId: 9 });
    expect(decisionCitations(carried)).toEqual([
      { kind: "human", actor: "human:acme", person: null, at: AT, op: null, category: "Meals", carried_from: { side: "A", src_id: 9 } },
    ]);
  });

  it("a human unset is a citation with no category", () => {
    const d = decision({ engine: "human", actor: "human:acme", op: "categorize", category: null });
    expect(decisionCitations(d)).toEqual([{ kind: "human", actor: "human:acme", person: null, at: AT, op: "categorize", category: null, carried_from: null }]);
  });

  it("a model decision cites its version and confidence (ppm -> 0..1), and the duh band when it reaches the floor", () => {
    const d = decision({ engine: "model", modelVersion: "local-1", confidence: 970_000 });
    expect(modelCitations(d)).toEqual([{ kind: "model", model_version: "local-1", confidence: 0.97, category: "Meals" }]);
    expect(decisionCitations(d, { duhBandFloor: 0.95 })).toEqual([
      { kind: "model", model_version: "local-1", confidence: 0.97, category: "Meals" },
      { kind: "duh_band", floor: 0.95 },
    ]);
    expect(decisionCitations(d, { duhBandFloor: 0.97 })).toContainEqual({ kind: "duh_band", floor: 0.97 });
    expect(decisionCitations(d, { duhBandFloor: 0.99 })).toEqual([{ kind: "model", model_version: "local-1", confidence: 0.97, category: "Meals" }]);
  });

  it("a model decision without a version or a usable confidence cites nothing", () => {
    expect(modelCitations(decision({ engine: "model", confidence: 970_000 }))).toEqual([]);
    expect(modelCitations(decision({ engine: "model", modelVersion: "local-1" }))).toEqual([]);
    expect(modelCitations(decision({ engine: "model", modelVersion: "local-1", confidence: 1_000_001 }))).toEqual([]);
  });

  it("converts confidence from parts per million", () => {
    expect([0, 1, 500_000, 1_000_000].map(confidenceOf)).toEqual([0, 0.000001, 0.5, 1]);
    expect([null, -1, 1_000_001, 0.5].map(confidenceOf)).toEqual([null, null, null, null]);
  });

  it("a tail decision cites the external model's version", () => {
    const d = decision({ engine: "tail", modelVersion: "tail-2026-10", confidence: 800_000 });
    expect(tailCitation(d)).toEqual([{ kind: "tail", model_version: "tail-2026-10", category: "Meals" }]);
    expect(decisionCitations(d)).toEqual(tailCitation(d));
    expect(tailCitation(decision({ engine: "tail" }))).toEqual([]);
  });

  it("a builder cites only a decision of its own engine", () => {
    const rule = decision({ engine: "rule", ruleKey: "k", ruleRevision: 1, actor: "human:acme", modelVersion: "m", confidence: 1 });
    expect(humanCitation(rule)).toEqual([]);
    expect(modelCitations(rule)).toEqual([]);
    expect(tailCitation(rule)).toEqual([]);
  });

  it("the pocket names the category under draw", () => {
    expect(pocketCitation("Owner Draw")).toEqual({ kind: "pocket", category: "Owner Draw", header: "draw" });
  });
});

describe("renderSentence", () => {
  const rule: Citation = { kind: "rule", rule_key: "coffee-shops", revision: 2, category: "Meals" };
  const human: Citation = { kind: "human", actor: "human:acme", person: null, at: AT, op: null, category: "Meals", carried_from: null };

  it("renders a rule", () => {
    expect(renderSentence(A12, [rule])).toBe("A:12 is Meals by rule coffee-shops (revision 2).");
  });

  it("renders a human judgement, its verb and where it was carried from", () => {
    expect(renderSentence(A12, [human])).toBe(`A:12 is Meals by human:acme on ${AT}.`);
    expect(renderSentence(A12, [{ ...human, op: "adjudicate" }])).toBe(`A:12 is Meals by human:acme via adjudicate on ${AT}.`);
    expect(renderSentence(A12, [{ ...human, carried_from: { side: "A", src_id: 9 } }])).toBe(`A:12 is Meals by human:acme on ${AT}, carried from A:9.`);
  });

  it("names the person a person's actor is, beside the actor", () => {
    const person = { id: "p0123456789abcdef", name: "Dana Reyes", email: "dana@books.example" };
    expect(renderSentence(A12, [{ ...human, actor: `person:${person.id}`, person, op: "label" }])).toBe(`A:12 is Meals by Dana Reyes (person:${person.id}) via label on ${AT}.`);
    const d = decision({ engine: "human", actor: `person:${person.id}`, op: "label" });
    expect(decisionCitations(d, { personOf: (actor) => (actor === `person:${person.id}` ? person : null) })).toEqual([
      { kind: "human", actor: `person:${person.id}`, person, at: AT, op: "label", category: "Meals", carried_from: null },
    ]);
  });

  it("renders a human unset as a return to the queue", () => {
    const unset: Citation = { ...human, actor: "token:acme:abcd", op: "categorize", category: null };
    expect(renderSentence(A12, [unset])).toBe(`A:12 was returned to the queue by token:acme:abcd via categorize on ${AT}.`);
  });

  it("renders the model with its confidence and the duh band", () => {
    const model: Citation = { kind: "model", model_version: "local-1", confidence: 0.97, category: "Meals" };
    expect(renderSentence(A12, [model])).toBe("A:12 is Meals by model local-1 at confidence 0.97.");
    expect(renderSentence(A12, [model, { kind: "duh_band", floor: 0.95 }])).toBe(
      "A:12 is Meals by model local-1 at confidence 0.97, within the duh band (floor 0.95).",
    );
  });

  it("renders the tail", () => {
    expect(renderSentence(A12, [{ kind: "tail", model_version: "tail-2026-10", category: "Meals" }])).toBe(
      "A:12 is Meals by the external model tail-2026-10.",
    );
  });

  it("adds the pocket to the decider", () => {
    const draw: Citation = { ...human, category: "Owner Draw" };
    expect(renderSentence(A12, [draw, pocketCitation("Owner Draw")])).toBe(
      `A:12 is Owner Draw by human:acme on ${AT}; Owner Draw is under the draw header, so the line is on the owner add-back list.`,
    );
  });

  it("names a B row as the archived twin of its A line", () => {
    expect(renderSentence(B3, [rule])).toBe("B:3, the archived twin of A:12, is Meals by rule coffee-shops (revision 2).");
  });

  it("is empty with no citations, and always exactly one sentence otherwise", () => {
    expect(renderSentence(A12, [])).toBe("");
    const all: Citation[][] = [[rule], [human], [{ kind: "duh_band", floor: 0.9 }], [pocketCitation("Draws")], [{ ...human, category: "Draws" }, pocketCitation("Draws")]];
    for (const citations of all) {
      const sentence = renderSentence(B3, citations);
      expect(sentence.startsWith("B:3, the archived twin of A:12, ")).toBe(true);
      // One full stop, at the end (the timestamps' dots are followed by digits).
      expect(sentence.endsWith(".")).toBe(true);
      expect(sentence.slice(0, -1)).not.toMatch(/\.(\s|$)/);
    }
  });

  it("is made from the citations: different evidence, different sentence; same evidence, same sentence", () => {
    expect(renderSentence(A12, [rule])).toBe(renderSentence(A12, [{ ...rule }]));
    expect(renderSentence(A12, [rule])).not.toBe(renderSentence(A12, [{ ...rule, revision: 3 }]));
  });
});

describe("renderDefect", () => {
  it("reports the gap, and where an undecided line waits", () => {
    expect(renderDefect(A12, undefined, "in books")).toBe("No rule, judgement or model has decided A:12; it waits in the exceptions queue.");
    expect(renderDefect(A12, undefined, "pending")).toBe("No rule, judgement or model has decided A:12; it waits in the exceptions queue.");
    expect(renderDefect(A12, undefined, "superseded")).toBe("No rule, judgement or model has decided A:12; it is superseded, so it is in no exceptions queue.");
    expect(renderDefect(B3, undefined, "in books")).toBe(
      "No rule, judgement or model has decided A:12, of which B:3 is the archived twin; it waits in the exceptions queue.",
    );
  });

  it("reports a decision whose evidence is missing", () => {
    expect(renderDefect(A12, decision({ engine: "rule", seq: 41 }), "in books")).toBe(
      "The latest decision on A:12 (op 41, engine rule) records no evidence that can be cited.",
    );
  });
});

describe("the duh band's floor", () => {
  it("is the one stored on the decision, which wins over the one passed in", () => {
    const d = decision({ engine: "model", category: "Meals", actor: null, modelVersion: "lr1-10-40-0000abcd", confidence: 970_000, bandFloorPpm: 950_000 });
    expect(modelCitations(d, 0.99)).toEqual([
      { kind: "model", model_version: "lr1-10-40-0000abcd", confidence: 0.97, category: "Meals" },
      { kind: "duh_band", floor: 0.95 },
    ]);
  });
});
