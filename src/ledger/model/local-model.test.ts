/** The local model in the ledger: learnt from the ledger's evidence, incrementally where it can be. */
import { settle } from "../../errors";
import { env, runInDurableObject } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FeedPage } from "../../providers/bank/types";
import { applyFeedPage } from "../feed/feed-pages";
import { recordHumanJudgement } from "../books/judgements";
import type { LedgerDb } from "../store/db";
import { faceFor } from "../face";
import { currentModel, learnInTurns, refitInTurns, trainFromLedger, trainingExamples, type TrainedModel } from "./local-model";
import { appendRevision, createRule } from "../rules/rulebook";
import { fromInput } from "../rules/rule";
import { runRules } from "../rules/run-rules";
import { connectBank } from "../feed/sync-requests";
import { undecidedLines } from "../books/undecided";

const AT = "2026-11-22T12:00:00.000Z";
const line = (id: string, name: string) => ({ transaction_id: id, account_id: "acc", amount: 10, date: "2026-11-20", name });
const page = (added: ReturnType<typeof line>[]): FeedPage => ({ cursorBefore: "", nextCursor: "1", hasMore: false, accounts: [], added, modified: [], removed: [] });

/** The calibration's fit the ledger keeps, or null. */
const keptCalibration = (db: LedgerDb) => db.get<{ calibration: string | null } | undefined>(sql`SELECT calibration FROM model_state`)?.calibration ?? null;

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
      expect(kept.model.rows()).toEqual(fromLedger.model.rows());
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

  /** A ledger of `lines` lines from four merchants, one of them judged, and its model kept: what a day's syncs leave. */
  function bookWithAModel(db: LedgerDb, lines: number): TrainedModel {
    const connection = connectBank(db, "sandbox", "", AT);
    const merchants = ["BLUE BOTTLE", "SHELL OIL", "ADOBE", "ULINE"];
    for (let from = 0; from < lines; from += 500) {
      const added = Array.from({ length: 500 }, (_, i) => line(`w${from + i}`, `${merchants[(from + i) % 4]} #${from + i}`));
      applyFeedPage(db, connection, { ...page(added), cursorBefore: String(from), nextCursor: String(from + 500) }, AT);
    }
    recordHumanJudgement(db, 1, "Meals", "human:x", AT);
    return currentModel(db, undefined);
  }

  /** Three rules deciding the lines of three of the four merchants, run over the whole book. */
  function runThreeRules(db: LedgerDb): Promise<number> {
    for (const [key, merchant, category] of [["coffee", "^blue bottle", "Meals"], ["fuel", "^shell", "Fuel"], ["software", "^adobe", "Software"]]) {
      appendRevision(db, fromInput({ rule_key: key!, match_kind: "description_regex", match_value: merchant!, category: category! }, null), "human:x", AT);
    }
    return runRules(db, null, AT);
  }

  it("learns afresh when nearly all the evidence is new (a run_rules over the whole book), as a retrain would", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-whole-book"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const before = bookWithAModel(db, 8_000);
      expect(before.model.size).toBe(1);
      expect(await runThreeRules(db)).toBe(5_999);

      const after = currentModel(db, before);
      // Not the same model caught up, but one learnt afresh: with the same evidence and version.
      expect(after).not.toBe(before);
      const retrained = trainFromLedger(db);
      expect(after.model.size).toBe(6_000);
      expect(after.model.version).toBe(retrained.model.version);
      expect(after.model.rows()).toEqual(retrained.model.rows());
      // Kept in the ledger; a day's change after it is caught up again.
      recordHumanJudgement(db, 4, "Supplies", "human:x", AT);
      const restored = currentModel(db, undefined);
      expect(currentModel(db, after)).toBe(after);
      for (const model of [after.model, restored.model]) expect(model.rows()).toEqual(trainFromLedger(db).model.rows());
    });
  });

  it("learns a whole-book change in turns, as of the ledger when it began, whatever is written between turns", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-in-turns"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const before = bookWithAModel(db, 8_000);
      expect(await runThreeRules(db)).toBe(5_999);
      const asItBegins = trainFromLedger(db);

      let turns = 0;
      const betweenTurns = async () => {
        // Another call's writes, before the first turn reads: a line relabelled, another put back in the queue.
        if (turns++ === 0) {
          recordHumanJudgement(db, 7_990, "Office", "human:x", AT);
          recordHumanJudgement(db, 7_991, "uncategorised", "human:x", AT);
        }
      };
      const learnt = (await learnInTurns(db, before, betweenTurns, 1_000))!;
      // A pause after the check, between the eight turns of lines, then before the fits, after the regression's and after each of the calibration's five held-out fits.
      expect(turns).toBe(15);
      expect(learnt).not.toBe(before);
      // The ledger as it was when learning began: a retrain then, neither write in it.
      expect(learnt.model.version).toBe(asItBegins.model.version);
      expect(learnt.model.rows()).toEqual(asItBegins.model.rows());
      expect([learnt.throughSeq, learnt.throughEvent, learnt.throughLine]).toEqual([asItBegins.throughSeq, asItBegins.throughEvent, asItBegins.throughLine]);

      // Kept with those marks and its calibration's fit; caught up from them, the model is the ledger's as it stands.
      expect(keptCalibration(db)).not.toBeNull();
      const restored = currentModel(db, undefined);
      const caughtUp = currentModel(db, learnt);
      expect(caughtUp).toBe(learnt);
      for (const model of [caughtUp.model, restored.model]) {
        expect(model.version).toBe(trainFromLedger(db).model.version);
        expect(model.rows()).toEqual(trainFromLedger(db).model.rows());
      }
      // A day's change is the catch-up's: nothing is learnt in turns.
      recordHumanJudgement(db, 2, "Fuel", "human:x", AT);
      expect(await learnInTurns(db, caughtUp, betweenTurns, 1_000)).toBeUndefined();
      expect(await learnInTurns(db, undefined, betweenTurns, 1_000)).toBeUndefined();
      expect(turns).toBe(15);
    });
  });

  it("catches up and refits a standing model in turns where a person's label makes a refit due", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-refit-in-turns"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const before = bookWithAModel(db, 2_000);
      before.model.refitIfStale();
      const fitted = before.model.version;
      recordHumanJudgement(db, 2, "Fuel", "human:x", AT);
      let pauses = 0;
      const after = (await refitInTurns(db, before, async () => pauses++))!;
      expect(pauses).toBeGreaterThan(0);
      // The label learnt and the regression refitted on it: the version names the new examples.
      expect(after.model.version).not.toBe(fitted);
      expect(after.model.version).toBe(trainFromLedger(db).model.version);
      expect(after.model.predict({ description: "SHELL OIL #99999", merchantName: null, amountCents: -1_000, accountId: "acc" })!.category).toBe("Fuel");
      expect(await refitInTurns(db, undefined, async () => pauses++)).toBeUndefined();
    });
  });

  it("learns in turns only where a model stands: a tenant that never needed one trains it at the first need", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-in-turns-none"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page([line("a", "BLUE BOTTLE #1")]), AT);
      recordHumanJudgement(db, 1, "Meals", "human:x", AT);
      expect(await learnInTurns(db, undefined, async () => expect.unreachable("no turns"))).toBeUndefined();
      expect(db.all(sql`SELECT * FROM model_state`)).toEqual([]);
    });
  });

  it("answers other calls between the turns of its learning", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-in-turns-answers"));
    let before: TrainedModel | undefined;
    await runInDurableObject(stub, async (ledger) => {
      before = bookWithAModel(ledger.db, 7_000);
      expect(await runThreeRules(ledger.db)).toBe(5_249);
    });
    const happened: string[] = [];
    let sent = false;
    const learning = runInDurableObject(stub, async (ledger) => {
      happened.push("began");
      // The first pause lasts until the read below is sent (however loaded the machine), the others are the object's own.
      const pause = async () => {
        while (!sent) await scheduler.wait(1);
        await scheduler.wait(0);
      };
      const learnt = await learnInTurns(ledger.db, before, pause, 100);
      happened.push(learnt ? "learnt" : "nothing learnt");
    });
    // Sent once the object has begun to learn: answered between two turns, not after the last.
    while (happened.length === 0) await scheduler.wait(1);
    const read = stub.summary(faceFor({ tier: "paid", visibleFrom: null })).then(() => happened.push("read"));
    sent = true;
    await Promise.all([learning, read]);
    expect(happened).toEqual(["began", "read", "learnt"]);
  });

  it("the object learns in turns for one caller at a time, and keeps what it learnt", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-in-turns-object"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      bookWithAModel(db, 7_000);
      await runThreeRules(db);
      const keptMarks = () => db.get<{ seq: number }>(sql`SELECT through_seq AS seq FROM model_state`).seq;
      const learning = ledger.prepareModel();
      expect(ledger.prepareModel()).toBe(learning);
      await learning;
      expect(keptMarks()).toBe(db.get<{ seq: number }>(sql`SELECT max(seq) AS seq FROM decisions`).seq);
      expect(settle(await ledger.modelVersion())).toEqual({ version: trainFromLedger(db).model.version, examples: 5_250 });
      expect(ledger.prepareModel()).not.toBe(learning);
    });
  });

  it("keeps its evidence in the ledger: an object starting again restores it and catches up, as a retrain would", async () => {
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
          expect(model.rows()).toEqual(retrained.model.rows());
        }
        // With no fit kept (nothing has predicted), it fits on the same evidence as the retrained
        // model, and predicts as it does.
        for (const { key } of trainingExamples(db)) expect(restored.model.predictKey(key)).toEqual(retrained.model.predictKey(key));
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

  it("retrains when the evidence it kept disagrees with the ledger, and keeps the retrained evidence", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-kept-wrong"));
    await runInDurableObject(stub, (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page([line("a", "BLUE BOTTLE #1"), line("b", "SHELL OIL 2")]), AT);
      recordHumanJudgement(db, 1, "Meals", "human:x", AT);
      recordHumanJudgement(db, 2, "Fuel", "human:x", AT);
      // The object's own step: its model decides a new line and keeps its calibration's fit.
      ledger.applyFeedPage(connection, { ...page([line("c", "BLUE BOTTLE #3")]), cursorBefore: "1", nextCursor: "2" });
      expect(keptCalibration(db)).not.toBeNull();
      // A cache gone wrong: the kept evidence loses a category's examples and gains one never seen.
      db.run(sql`DELETE FROM model_examples WHERE category = 'Meals'`);
      db.run(sql`INSERT INTO model_examples (key, category, lines) VALUES ('never||-2|acc', 'Fuel', 3)`);
      recordHumanJudgement(db, 1, "Office", "human:x", AT);
      const restored = currentModel(db, undefined);
      const retrained = trainFromLedger(db);
      expect(restored.model.version).toBe(retrained.model.version);
      expect(restored.model.rows()).toEqual(retrained.model.rows());
      // Kept in place of the wrong evidence; the old fit went with it.
      const again = currentModel(db, undefined);
      expect(again.model.rows()).toEqual(retrained.model.rows());
      expect(keptCalibration(db)).toBeNull();
    });
  });

  it("keeps its calibration's fit: restored, it gives the answers the running model gave", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-kept-fit"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      const merchants = ["BLUE BOTTLE", "SHELL OIL", "ADOBE", "ACME INSURANCE", "JOE'S PIZZA", "ULINE"];
      const categories = ["Meals", "Fuel", "Software", "Insurance", "Meals", "Supplies"];
      const named = (i: number) => `${merchants[i % 6]} ${i % 4 === 0 ? "STORE" : "PMT"} #${i}`;
      applyFeedPage(db, connection, page(Array.from({ length: 150 }, (_, i) => line(`l${i}`, named(i)))), AT);
      // The running model learns the later lines first, in another order than a retrain's.
      for (let aId = 80; aId <= 150; aId++) recordHumanJudgement(db, aId, categories[(aId - 1) % 6]!, "human:x", AT);
      settle(await ledger.modelVersion());
      for (let aId = 1; aId < 80; aId++) recordHumanJudgement(db, aId, aId % 9 === 0 ? "Office" : categories[(aId - 1) % 6]!, "human:x", AT);
      // The object's own step: the model (caught up, its calibration fitted) decides new lines.
      const fresh = Array.from({ length: 40 }, (_, i) => line(`n${i}`, i % 5 === 0 ? `UNHEARD OF ${i}` : named(i + 7)));
      ledger.applyFeedPage(connection, { ...page(fresh), cursorBefore: "1", nextCursor: "2" });
      const byModel = db.all<{ aId: number; category: string; confidencePpm: number; description: string; amountCents: number; accountId: string }>(
        sql`SELECT d.a_id AS aId, d.category, d.confidence_ppm AS confidencePpm, a.description, a.amount_cents AS amountCents, a.account_id AS accountId
          FROM decisions d JOIN a_lines a ON a.id = d.a_id WHERE d.engine = 'model'`,
      );
      expect(byModel.length).toBeGreaterThan(10);

      // The object starts again: the restored model answers as the running one did.
      expect(keptCalibration(db)).not.toBeNull();
      const restored = currentModel(db, undefined);
      for (const decision of byModel) {
        const prediction = restored.model.predict({ description: decision.description, merchantName: null, amountCents: decision.amountCents, accountId: decision.accountId })!;
        expect([prediction.category, Math.round(prediction.confidence * 1_000_000)], decision.description).toEqual([decision.category, decision.confidencePpm]);
      }
    });
  });
});

