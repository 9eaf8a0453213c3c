/** The local model in the ledger: learnt from the ledger's evidence, incrementally where it can be. */
import { env, runInDurableObject } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FeedPage } from "../providers/bank/types";
import { applyFeedPage } from "./feed";
import { recordHumanJudgement } from "./judgements";
import { currentModel, readyToPredict, trainFromLedger, trainingExamples, type TrainedModel } from "./local-model";
import { featuresOf } from "./model/features";
import { appendRevision, createRule, fromInput, runRules } from "./rules";
import { connectBank } from "./sync";
import { undecidedLines } from "./undecided";

const AT = "2026-11-22T12:00:00.000Z";
const line = (id: string, name: string) => ({ transaction_id: id, account_id: "acc", amount: 10, date: "2026-11-20", name });
const page = (added: ReturnType<typeof line>[]): FeedPage => ({ cursorBefore: "", nextCursor: "1", hasMore: false, accounts: [], added, modified: [], removed: [] });

describe("the local model in the ledger", () => {
  it("adds a label on a fresh line incrementally, and forgets what a relabelled line taught it", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-incremental"));
    await runInDurableObject(stub, (ledger) => {
      const db = ledger.db;
      applyFeedPage(db, connectBank(db, "sandbox", "", AT), page([line("a", "BLUE BOTTLE #1"), line("b", "BLUE BOTTLE #2"), line("c", "SHELL OIL 9")]), AT);
      recordHumanJudgement(db, 1, "Meals", "human:x", AT);
      const first = currentModel(db, undefined);
      expect(first.model.size).toBe(1);
      expect(currentModel(db, first)).toBe(first);

      recordHumanJudgement(db, 2, "Meals", "human:x", AT);
      const grown = currentModel(db, first);
      expect(grown).toBe(first);
      expect(grown.model.size).toBe(2);
      // Incremental learning ends where a retrain from the ledger would.
      expect(grown.model.version).toBe(trainFromLedger(db).model.version);

      recordHumanJudgement(db, 1, "Office", "human:x", AT);
      const relabelled = currentModel(db, grown);
      expect(relabelled).toBe(grown);
      expect(trainingExamples(db).map((e) => e.category).sort()).toEqual(["Meals", "Office"]);
      expect(relabelled.model.size).toBe(2);
      expect(relabelled.model.version).toBe(trainFromLedger(db).model.version);

      // Put back in the queue: no longer evidence, so forgotten and not learnt again.
      recordHumanJudgement(db, 1, "uncategorised", "human:x", AT);
      expect(currentModel(db, relabelled).model.size).toBe(1);
      expect(relabelled.model.version).toBe(trainFromLedger(db).model.version);
    });
  });

  it("forgets a learnt line the bank supersedes, and learns the judgement carried to its successor", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-superseded"));
    await runInDurableObject(stub, (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      const pending = { ...line("p", "BLUE BOTTLE #9"), pending: true };
      applyFeedPage(db, connection, page([line("a", "SHELL OIL 1"), line("b", "SHELL OIL 2"), pending]), AT);
      recordHumanJudgement(db, 1, "Fuel", "human:x", AT);
      recordHumanJudgement(db, 3, "Meals", "human:x", AT);
      const trained = currentModel(db, undefined);
      expect(trained.model.size).toBe(2);

      // The pending line posts under a new description: A:3 is superseded by A:4, which carries the judgement.
      const posted = { ...line("p", "BLUE BOTTLE COFFEE #9"), pending: false };
      applyFeedPage(db, connection, { ...page([]), cursorBefore: "1", nextCursor: "2", modified: [posted] }, AT);
      recordHumanJudgement(db, 2, "Fuel", "human:x", AT);
      const kept = currentModel(db, trained);
      expect(kept).toBe(trained);
      const fromLedger = trainFromLedger(db);
      expect(kept.model.countRows()).toEqual(fromLedger.model.countRows());
      expect(trainingExamples(db).map((e) => [e.aId, e.category])).toEqual([[1, "Fuel"], [2, "Fuel"], [4, "Meals"]]);
      expect(kept.model.size).toBe(fromLedger.model.size);
      expect(kept.model.version).toBe(fromLedger.model.version);
    });
  });

  it("handles more undecided lines and more new evidence than a statement can bind variables", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-many"));
    await runInDurableObject(stub, (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page([line("seed", "SEED LINE")]), AT);
      recordHumanJudgement(db, 1, "Seed", "human:x", AT);
      const many = Array.from({ length: 150 }, (_, i) => line(`m${i}`, `VENDOR ${String.fromCharCode(65 + (i % 26))}${i}`));
      // Through the object's own step: apply, rules, then the model over every undecided line.
      ledger.applyFeedPage(connection, { ...page(many), cursorBefore: "1", nextCursor: "2" });
      expect(undecidedLines(db).length).toBeGreaterThan(100);
      const trained = currentModel(db, undefined);
      createRule(db, { rule_key: "all", match_kind: "description_regex", match_value: "^vendor", category: "Vendors" }, "human:x", AT, null);
      expect(currentModel(db, trained).model.size).toBe(151);
      expect(undecidedLines(db)).toEqual([]);
    });
  });

  it("learns afresh when nearly all the evidence is new (a run_rules over the whole book), as a retrain would", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-whole-book"));
    await runInDurableObject(stub, (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      const merchants = ["BLUE BOTTLE", "SHELL OIL", "ADOBE", "ULINE"];
      for (let from = 0; from < 8_000; from += 500) {
        const added = Array.from({ length: 500 }, (_, i) => line(`w${from + i}`, `${merchants[(from + i) % 4]} #${from + i}`));
        applyFeedPage(db, connection, { ...page(added), cursorBefore: String(from), nextCursor: String(from + 500) }, AT);
      }
      recordHumanJudgement(db, 1, "Meals", "human:x", AT);
      const before = currentModel(db, undefined);
      expect(before.model.size).toBe(1);
      for (const [key, merchant, category] of [["coffee", "^blue bottle", "Meals"], ["fuel", "^shell", "Fuel"], ["software", "^adobe", "Software"]]) {
        appendRevision(db, fromInput({ rule_key: key!, match_kind: "description_regex", match_value: merchant!, category: category! }, null), "human:x", AT);
      }
      expect(runRules(db, null, AT)).toBe(5_999);

      const after = currentModel(db, before);
      // Not the same model caught up, but one learnt afresh: with the same counts and version.
      expect(after).not.toBe(before);
      const retrained = trainFromLedger(db);
      expect(after.model.size).toBe(6_000);
      expect(after.model.version).toBe(retrained.model.version);
      expect(after.model.countRows()).toEqual(retrained.model.countRows());
      // Kept in the ledger; a day's change after it is caught up again.
      recordHumanJudgement(db, 4, "Supplies", "human:x", AT);
      const restored = currentModel(db, undefined);
      expect(currentModel(db, after)).toBe(after);
      for (const model of [after.model, restored.model]) expect(model.countRows()).toEqual(trainFromLedger(db).model.countRows());
    });
  });

  it("keeps its counts in the ledger: an object starting again restores them and catches up, as a retrain would", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-kept"));
    await runInDurableObject(stub, (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      const merchants = ["BLUE BOTTLE", "SHELL OIL", "ADOBE", "ACME INSURANCE", "STATE FARM", "JOE'S PIZZA", "OAKWOOD PROPERTIES", "ULINE"];
      const categories = ["Meals", "Fuel", "Software", "Insurance", "Insurance", "Meals", "Rent", "Supplies"];
      const lines = Array.from({ length: 160 }, (_, i) => ({
        ...line(`l${i}`, `${merchants[i % 8]} ${i % 3 === 0 ? "STORE" : "PMT"} #${i}`),
        amount: 5 + (i % 7) * 40,
        pending: i % 20 === 0,
      }));
      applyFeedPage(db, connection, page(lines), AT);
      let kept: TrainedModel | undefined;
      const holdsAsARetrainWould = () => {
        // Restored from what the last step kept, then caught up over this step's changes.
        const restored = currentModel(db, undefined);
        kept = currentModel(db, kept);
        const retrained = trainFromLedger(db);
        expect(restored.model.size).toBeGreaterThan(0);
        for (const model of [kept.model, restored.model]) {
          expect(model.version).toBe(retrained.model.version);
          expect(model.countRows()).toEqual(retrained.model.countRows());
        }
        // With no fit kept (nothing has predicted), it fits on the same newest examples as the
        // retrained model, and predicts as it does: by the merchant key, and by the words alone.
        readyToPredict(db, restored.model);
        for (const { features } of trainingExamples(db)) {
          for (const asked of [features, features.filter((f) => !f.startsWith("key:"))]) {
            expect(restored.model.predict(asked)).toEqual(retrained.model.predict(asked));
          }
        }
      };

      for (let aId = 1; aId <= 120; aId++) recordHumanJudgement(db, aId, categories[(aId - 1) % 8]!, "human:x", AT);
      holdsAsARetrainWould();
      for (let aId = 2; aId <= 40; aId += 3) recordHumanJudgement(db, aId, "Office", "human:x", AT); // relabelled
      holdsAsARetrainWould();
      createRule(db, { rule_key: "uline", match_kind: "description_regex", match_value: "^uline", category: "Supplies" }, "human:x", AT, null);
      holdsAsARetrainWould();
      // The pending lines post under new descriptions: each is superseded by its successor.
      const posted = lines.filter((l) => l.pending).map((l) => ({ ...l, name: `${l.name} POSTED`, pending: false }));
      applyFeedPage(db, connection, { ...page([]), cursorBefore: "1", nextCursor: "2", modified: posted }, AT);
      holdsAsARetrainWould();
      for (let aId = 5; aId <= 60; aId += 5) recordHumanJudgement(db, aId, "uncategorised", "human:x", AT); // back in the queue
      holdsAsARetrainWould();
    });
  });

  it("retrains when the counts it kept disagree with the ledger, and keeps the retrained counts", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-kept-wrong"));
    await runInDurableObject(stub, (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page([line("a", "BLUE BOTTLE #1"), line("b", "SHELL OIL 2")]), AT);
      recordHumanJudgement(db, 1, "Meals", "human:x", AT);
      recordHumanJudgement(db, 2, "Fuel", "human:x", AT);
      // The object's own step: its model decides a new line and keeps its calibration's fit.
      ledger.applyFeedPage(connection, { ...page([line("c", "BLUE BOTTLE #3")]), cursorBefore: "1", nextCursor: "2" });
      expect(currentModel(db, undefined).model.wantsSample).toBe(false);
      // A cache gone wrong: the kept counts lose a category's features and gain one never seen.
      db.run(sql`DELETE FROM model_cells WHERE category = 'Meals'`);
      db.run(sql`INSERT INTO model_cells (category, feature, count) VALUES ('Fuel', 'w:never', 3)`);
      recordHumanJudgement(db, 1, "Office", "human:x", AT);
      const restored = currentModel(db, undefined);
      const retrained = trainFromLedger(db);
      expect(restored.model.version).toBe(retrained.model.version);
      expect(restored.model.countRows()).toEqual(retrained.model.countRows());
      // Kept in place of the wrong counts; the old fit went with them.
      const again = currentModel(db, undefined);
      expect(again.model.countRows()).toEqual(retrained.model.countRows());
      expect(again.model.wantsSample).toBe(true);
    });
  });

  it("keeps its calibration's fit: restored, it gives the answers the running model gave", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-kept-fit"));
    await runInDurableObject(stub, (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      const merchants = ["BLUE BOTTLE", "SHELL OIL", "ADOBE", "ACME INSURANCE", "JOE'S PIZZA", "ULINE"];
      const categories = ["Meals", "Fuel", "Software", "Insurance", "Meals", "Supplies"];
      const named = (i: number) => `${merchants[i % 6]} ${i % 4 === 0 ? "STORE" : "PMT"} #${i}`;
      applyFeedPage(db, connection, page(Array.from({ length: 150 }, (_, i) => line(`l${i}`, named(i)))), AT);
      // The running model learns the later lines first, so its sample's order is not the ledger's.
      for (let aId = 80; aId <= 150; aId++) recordHumanJudgement(db, aId, categories[(aId - 1) % 6]!, "human:x", AT);
      ledger.modelVersion();
      for (let aId = 1; aId < 80; aId++) recordHumanJudgement(db, aId, aId % 9 === 0 ? "Office" : categories[(aId - 1) % 6]!, "human:x", AT);
      // The object's own step: the model (caught up, its calibration fitted) decides new lines.
      const fresh = Array.from({ length: 40 }, (_, i) => line(`n${i}`, i % 5 === 0 ? `UNHEARD OF ${i}` : named(i + 7)));
      ledger.applyFeedPage(connection, { ...page(fresh), cursorBefore: "1", nextCursor: "2" });
      const byModel = db.all<{ aId: number; category: string; confidencePpm: number; description: string }>(
        sql`SELECT d.a_id AS aId, d.category, d.confidence_ppm AS confidencePpm, a.description FROM decisions d JOIN a_lines a ON a.id = d.a_id WHERE d.engine = 'model'`,
      );
      expect(byModel.length).toBeGreaterThan(10);

      // The object starts again: the restored model answers as the running one did.
      const restored = currentModel(db, undefined);
      expect(restored.model.wantsSample).toBe(false);
      for (const decision of byModel) {
        const prediction = restored.model.predict(featuresOf({ description: decision.description, merchantName: null, amountCents: -1000, accountId: "acc" }))!;
        expect([prediction.category, Math.round(prediction.confidence * 1_000_000)], decision.description).toEqual([decision.category, decision.confidencePpm]);
      }
    });
  });
});

