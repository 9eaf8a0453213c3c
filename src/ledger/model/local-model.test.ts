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
import { BY_PERSON, catchUpInSlices, currentModel, jsonArrays, learnAfreshInSlices, trainFromLedger, trainingExamples, type TrainedModel } from "./local-model";
import { FRESH_READS_UP_TO, HELD_BACK_AT_MOST, ModelKeeper } from "./model-keeper";
import { appendRevision, createRule } from "../rules/rulebook";
import { fromInput } from "../rules/rule";
import { runRules } from "../rules/run-rules";
import { connectBank } from "../feed/sync-requests";
import { undecidedLines } from "../books/undecided";
import { lineKey } from "./features";
import { DEFAULT_DUH_BAND_FLOOR } from "./classifier";

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
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page([line("seed", "SEED LINE")]), AT);
      recordHumanJudgement(db, 1, "Seed", "human:x", AT);
      const many = Array.from({ length: 150 }, (_, i) => line(`m${i}`, `VENDOR ${String.fromCharCode(65 + (i % 26))}${i}`));
      // Through the object's own step: apply, rules, then the model over every undecided line.
      await ledger.applyFeedPage(connection, { ...page(many), cursorBefore: "1", nextCursor: "2" });
      expect(undecidedLines(db).length).toBeGreaterThan(100);
      const trained = currentModel(db, undefined);
      createRule(db, { rule_key: "all", match_kind: "description_regex", match_value: "^vendor", category: "Vendors" }, "human:x", AT, null);
      expect(currentModel(db, trained).model.size).toBe(151);
      expect(undecidedLines(db)).toEqual([]);
    });
  });

  it("keeps evidence of more megabytes than one bound string may hold, and restores it", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-megabytes"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      // 1,200 lines of 2,000 characters each: 2.4 MB of line keys, over the 2 MB the object's SQLite takes in one string.
      // Each its own words (numbers the model reads alike), so each its own key.
      const word = (i: number) => Array.from(String(i).padStart(4, "0"), (d) => "ABCDEFGHIJ"[Number(d)]).join("");
      const long = (i: number) => `WIRE ${word(i)} ${"REMITTANCE DETAIL ".repeat(110)}`.slice(0, 2_000);
      for (let from = 0; from < 1_200; from += 400) {
        const added = Array.from({ length: 400 }, (_, i) => line(`big${from + i}`, long(from + i)));
        applyFeedPage(db, connection, { ...page(added), cursorBefore: String(from), nextCursor: String(from + 400) }, AT);
      }
      createRule(db, { rule_key: "wires", match_kind: "description_regex", match_value: "^wire", category: "Transfers" }, "human:x", AT, null);
      const learnt = await learnAfreshInSlices(db, async () => {});
      expect(learnt.model.size).toBe(1_200);
      const restored = currentModel(db, undefined);
      expect(restored).not.toBe(learnt);
      expect(restored.model.rows()).toEqual(learnt.model.rows());
      expect(restored.model.version).toBe(trainFromLedger(db).model.version);
    });
  });

  it("cuts JSON arrays to a length, each whole and none empty", () => {
    const items = Array.from({ length: 50 }, (_, i) => ["key ".repeat(i % 7), i]);
    const arrays = jsonArrays(items, 100);
    expect(arrays.length).toBeGreaterThan(1);
    for (const array of arrays) expect(array.length).toBeLessThanOrEqual(100);
    expect(arrays.flatMap((a) => JSON.parse(a))).toEqual(items);
    expect(jsonArrays([])).toEqual([]);
    expect(jsonArrays(["x".repeat(150)], 100)).toEqual([JSON.stringify(["x".repeat(150)])]);
  });

  /** A ledger of `lines` lines from four merchants, one of them judged, and its model kept: what a day's syncs leave. */
  /** A book of `lines` lines of four merchants in turn, nothing decided; answers its connection. */
  function bookOf(db: LedgerDb, lines: number): number {
    const connection = connectBank(db, "sandbox", "", AT);
    const merchants = ["BLUE BOTTLE", "SHELL OIL", "ADOBE", "ULINE"];
    for (let from = 0; from < lines; from += 500) {
      const added = Array.from({ length: 500 }, (_, i) => line(`w${from + i}`, `${merchants[(from + i) % 4]} #${from + i}`));
      applyFeedPage(db, connection, { ...page(added), cursorBefore: String(from), nextCursor: String(from + 500) }, AT);
    }
    return connection;
  }

  function bookWithAModel(db: LedgerDb, lines: number): TrainedModel {
    bookOf(db, lines);
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

  it("learns the book afresh in slices, as of the ledger when it began, whatever is written between slices", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-in-slices"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      bookWithAModel(db, 8_000);
      expect(await runThreeRules(db)).toBe(5_999);
      const asItBegins = trainFromLedger(db);

      let pauses = 0;
      const betweenSlices = async () => {
        // Another call's writes, before the first slice reads: a line relabelled, another put back in the queue.
        if (pauses++ === 0) {
          recordHumanJudgement(db, 7_990, "Office", "human:x", AT);
          recordHumanJudgement(db, 7_991, "uncategorised", "human:x", AT);
        }
      };
      const learnt = await learnAfreshInSlices(db, betweenSlices, 1_000);
      // Eight slices of lines, then the regression's and the calibration's fits in steps of their own.
      expect(pauses).toBeGreaterThan(12);
      // The ledger as it was when learning began: a retrain then, neither write in it.
      expect(learnt.model.version).toBe(asItBegins.model.version);
      expect(learnt.model.rows()).toEqual(asItBegins.model.rows());
      expect([learnt.throughSeq, learnt.throughEvent, learnt.throughLine]).toEqual([asItBegins.throughSeq, asItBegins.throughEvent, asItBegins.throughLine]);
      expect(learnt.model.refitDue()).toBeNull();

      // Kept with those marks and its calibration's fit; caught up from them, the model is the ledger's as it stands.
      expect(keptCalibration(db)).not.toBeNull();
      const restored = currentModel(db, undefined);
      // Its band is as the learnt model's: the held-out lines that open it are kept with the fit.
      expect(restored.model.bandOpens(DEFAULT_DUH_BAND_FLOOR)).toBe(learnt.model.bandOpens(DEFAULT_DUH_BAND_FLOOR));
      const caughtUp = currentModel(db, learnt);
      expect(caughtUp).toBe(learnt);
      for (const model of [caughtUp.model, restored.model]) {
        expect(model.version).toBe(trainFromLedger(db).model.version);
        expect(model.rows()).toEqual(trainFromLedger(db).model.rows());
      }
    });
  });

  it("catches many changes up in slices, as of the ledger when it began, as a retrain would", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-catch-up-in-slices"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const before = bookWithAModel(db, 4_000);
      expect(await runThreeRules(db)).toBe(2_999);
      const asItBegins = trainFromLedger(db);
      let pauses = 0;
      const betweenSlices = async () => {
        if (pauses++ === 1) recordHumanJudgement(db, 3_990, "Office", "human:x", AT);
      };
      const caughtUp = await catchUpInSlices(db, before, betweenSlices, 500);
      expect(caughtUp).toBe(before);
      expect(pauses).toBeGreaterThan(5);
      expect(caughtUp.model.rows()).toEqual(asItBegins.model.rows());
      expect(caughtUp.model.version).toBe(asItBegins.model.version);
      // Kept with its marks: the write made between slices is the next catch-up's.
      const restored = currentModel(db, undefined);
      expect(currentModel(db, caughtUp)).toBe(caughtUp);
      for (const model of [caughtUp.model, restored.model]) expect(model.rows()).toEqual(trainFromLedger(db).model.rows());
    });
  });

  it("decides only by a fit that has learnt every person's change, refitting in slices before the page; rules' decisions do not wait", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-keeper-person"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      bookWithAModel(db, 2_000);
      let pauses = 0;
      const keeper = new ModelKeeper(db, async () => void pauses++);
      // Restored from the ledger with no fit: one is made in slices before anything is decided.
      await keeper.ready();
      expect(pauses).toBeGreaterThan(0);
      const first = keeper.current(db).model.fittedVersion;
      expect(first).toBe(trainFromLedger(db).model.version);

      recordHumanJudgement(db, 2, "Fuel", "human:x", AT);
      pauses = 0;
      await keeper.ready();
      expect(pauses).toBeGreaterThan(0);
      const afterLabel = keeper.current(db).model;
      expect(afterLabel.fittedVersion).not.toBe(first);
      expect(afterLabel.fittedVersion).toBe(trainFromLedger(db).model.version);
      expect(afterLabel.predictAsFitted(lineKey({ description: "SHELL OIL #99999", merchantName: null, amountCents: -1_000, accountId: "acc" }))!.category).toBe("Fuel");

      // Rules' decisions are learnt, and the standing fit keeps deciding until a refit in the background.
      expect(await runThreeRules(db)).toBe(1_498);
      pauses = 0;
      await keeper.ready();
      expect(pauses).toBe(0);
      expect(keeper.current(db).model.fittedVersion).toBe(afterLabel.fittedVersion);
      expect(keeper.current(db).model.refitDue()).toBe("soon");
      await keeper.prepare();
      await keeper.describe();
      expect(pauses).toBeGreaterThan(0);
      expect(keeper.current(db).model.fittedVersion).toBe(trainFromLedger(db).model.version);
    });
  });

  it("learns a whole-book change in the background while pages decide by the standing fit; a person's change made meanwhile waits for it", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-keeper-background"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      bookWithAModel(db, 8_000);
      // Forty labels, ten of each merchant: enough held-out lines for the standing fit's band to open (classifier.ts, `bandOpens`).
      const categories = ["Meals", "Fuel", "Software", "Supplies"];
      for (let aId = 2; aId <= 40; aId++) recordHumanJudgement(db, aId, categories[(aId - 1) % 4]!, "human:x", AT);
      const keeper = new ModelKeeper(db, () => scheduler.wait(0));
      await keeper.ready();
      expect(keeper.current(db).model.bandOpens(0.5)).toBe(true);
      const standing = keeper.current(db).model.fittedVersion;
      expect(await runThreeRules(db)).toBe(6_000 - 30);
      const newestSeq = () => db.get<{ seq: number }>(sql`SELECT max(seq) AS seq FROM decisions`).seq;
      const keptSeq = () => db.get<{ seq: number }>(sql`SELECT through_seq AS seq FROM model_state`).seq;

      await keeper.prepare();
      // Learning under way: nothing a person changed waits for it, so a transaction decides at once by the standing fit.
      await keeper.ready();
      expect(keptSeq()).toBeLessThan(newestSeq());
      const decided = db.transaction((tx) => keeper.decide(tx, undecidedLines(tx), 0.5, AT));
      expect(decided).toBeGreaterThan(0);
      const byModel = db.all<{ version: string }>(sql`SELECT DISTINCT model_version AS version FROM decisions WHERE engine = 'model'`);
      expect(byModel).toEqual([{ version: standing }]);

      // A person's change made meanwhile: the next transaction waits for the learning and its refit.
      recordHumanJudgement(db, 24, "Supplies", "human:x", AT);
      await keeper.ready();
      expect(keptSeq()).toBe(newestSeq());
      expect(keeper.current(db).model.fittedVersion).toBe(trainFromLedger(db).model.version);
    });
  });

  it("a large model does not wait for a person's change: until a refit has learnt it, the lines that may name its merchant are held back", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-keeper-held-back"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const connection = bookOf(db, 8_000);
      recordHumanJudgement(db, 1, "Meals", "human:x", AT);
      expect(await runThreeRules(db)).toBe(5_999);
      // Slices run while the gate is open; shut, learning under way stands still.
      let open = true;
      let pauses = 0;
      const keeper = new ModelKeeper(db, async () => {
        pauses++;
        while (!open) await scheduler.wait(1);
      });
      await keeper.describe();
      const standing = keeper.current(db).model;
      expect(standing.size).toBeGreaterThan(FRESH_READS_UP_TO);
      const version = standing.fittedVersion;
      const newLines = (from: number) => {
        const added = ["BLUE BOTTLE", "SHELL OIL", "BLUE BOTTLE", "SHELL OIL"].map((merchant, i) => line(`n${from + i}`, `${merchant} #${90_000 + from + i}`));
        applyFeedPage(db, connection, { ...page(added), cursorBefore: `n${from}`, nextCursor: `n${from + 4}` }, AT);
      };
      const decidedByModel = () => db.all<{ description: string; version: string }>(sql`
        SELECT a.description AS description, d.model_version AS version FROM decisions d JOIN a_lines a ON a.id = d.a_id
        WHERE d.engine = 'model' ORDER BY a.id`);

      open = false;
      // A person confirms a rule's category: the evidence is the fit's, so nothing is held back.
      recordHumanJudgement(db, 9, "Meals", "human:x", AT);
      newLines(100);
      await keeper.ready();
      expect(db.transaction((tx) => keeper.decide(tx, undecidedLines(tx), 0.5, AT))).toBe(4);
      expect(decidedByModel().map((d) => d.version)).toEqual([version, version, version, version]);

      // A person relabels a coffee line: the next transaction does not wait for the refit.
      recordHumanJudgement(db, 5, "Supplies", "human:x", AT);
      newLines(0);
      await keeper.ready();
      expect(db.transaction((tx) => keeper.decide(tx, undecidedLines(tx), 0.5, AT))).toBe(2);
      // The standing fit decided the fuel lines; the coffee lines, which name the relabelled line's merchant, wait.
      expect(decidedByModel().slice(4)).toEqual([
        { description: "SHELL OIL #90001", version },
        { description: "SHELL OIL #90003", version },
      ]);
      // The refit started in the background; once it has learnt the change, their merchant's lines are decided again.
      open = true;
      await keeper.describe();
      const refitted = keeper.current(db).model.fittedVersion;
      expect(refitted).toBe(trainFromLedger(db).model.version);
      newLines(4);
      db.transaction((tx) => keeper.decide(tx, undecidedLines(tx), 0.5, AT));
      expect(
        decidedByModel()
          .slice(6)
          .filter((d) => d.description.startsWith("BLUE BOTTLE"))
          .map((d) => d.version),
      ).toEqual([refitted, refitted, refitted, refitted]);

      // More persons' changes than a fit may hold back lines for (a bulk relabel): the transaction waits for the refit.
      for (let aId = 9; aId <= 8 + 4 * (HELD_BACK_AT_MOST + 1); aId += 4) recordHumanJudgement(db, aId, "Supplies", "human:x", AT);
      pauses = 0;
      await keeper.ready();
      expect(pauses).toBeGreaterThan(0);
      expect(keeper.current(db).model.fittedVersion).toBe(trainFromLedger(db).model.version);
    });
  });

  it("a large book's first model, learnt after a run of the rules, does not make a person's change wait: nothing is decided until it stands", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-keeper-first-held-back"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      bookOf(db, 8_000);
      expect(await runThreeRules(db)).toBe(6_000);
      let open = false;
      const keeper = new ModelKeeper(db, async () => {
        while (!open) await scheduler.wait(1);
      });
      // The first page whose lines the rules leave starts the first model's learning.
      expect(db.transaction((tx) => keeper.decide(tx, undecidedLines(tx), 0.5, AT))).toBe(0);
      recordHumanJudgement(db, 4, "Supplies", "human:x", AT);
      // The first model is still being learnt: the transaction goes on, and decides nothing by the model.
      await keeper.ready();
      expect(db.transaction((tx) => keeper.decide(tx, undecidedLines(tx), 0.5, AT))).toBe(0);
      open = true;
      await keeper.describe();
      expect(keeper.current(db).model.fittedVersion).toBe(trainFromLedger(db).model.version);
      expect(db.transaction((tx) => keeper.decide(tx, undecidedLines(tx), 0.5, AT))).toBeGreaterThan(0);
    });
  });

  it("reads a person's decisions since its marks by their own index, not through the rules' many", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-by-person-index"));
    await runInDurableObject(stub, (ledger) => {
      const plan = ledger.db.all<{ detail: string }>(sql`EXPLAIN QUERY PLAN SELECT d.a_id FROM decisions d WHERE d.seq > ${0} AND ${BY_PERSON}`);
      expect(plan.map((step) => step.detail).join("; ")).toContain("decisions_by_person");
    });
  });

  it("never decides a line held below the band, whatever floor the deployment sets", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-held-below"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      const taught = Array.from({ length: 20 }, (_, i) => [line(`c${i}`, `CHECK ${1001 + i}`), line(`s${i}`, `SHELL OIL ${57000 + i}`)]).flat();
      // A check printed as its number alone, and money in from a name every example paid.
      const waiting = [line("c-next", "CHECK 2001"), line("s-next", "SHELL OIL 57999"), { ...line("s-in", "SHELL OIL 57998"), amount: -10 }];
      applyFeedPage(db, connection, page([...taught, ...waiting]), AT);
      for (let aId = 1; aId <= 40; aId++) recordHumanJudgement(db, aId, aId % 2 ? "Contractors" : "Fuel", "human:x", AT);
      const keeper = new ModelKeeper(db, () => scheduler.wait(0));
      await keeper.ready();
      const model = keeper.current(db).model;
      const held = (description: string, amount = 10) => model.predictAsFitted(lineKey({ description, merchantName: null, amountCents: -100 * amount, accountId: "acc" }))?.heldBelow;
      expect([held("CHECK 2001"), held("SHELL OIL 57999"), held("SHELL OIL 57998", -10)]).toEqual(["names-no-party", undefined, "new-direction"]);
      expect(db.transaction((tx) => keeper.decide(tx, undecidedLines(tx), 0.5, AT))).toBe(1);
      const decided = db.all<{ description: string }>(sql`SELECT a.description AS description FROM decisions d JOIN a_lines a ON a.id = d.a_id WHERE d.engine = 'model'`);
      expect(decided).toEqual([{ description: "SHELL OIL 57999" }]);
    });
  });

  it("learns nothing where no model is needed: a tenant's first model is learnt at a person's first label, in slices", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-in-slices-none"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page([line("a", "BLUE BOTTLE #1")]), AT);
      // Nothing decided by a person or a rule: nothing to learn, no slices, before a page or in it.
      let unlearnt = 0;
      const idle = new ModelKeeper(db, async () => void unlearnt++);
      await idle.ready();
      expect(db.transaction((tx) => idle.decide(tx, undecidedLines(tx), 0.5, AT))).toBe(0);
      await scheduler.wait(1);
      expect(unlearnt).toBe(0);
      expect(db.all(sql`SELECT * FROM model_state`)).toEqual([]);

      recordHumanJudgement(db, 1, "Meals", "human:x", AT);
      let pauses = 0;
      const keeper = new ModelKeeper(db, async () => void pauses++);
      await keeper.ready();
      expect(pauses).toBeGreaterThan(0);
      expect(keeper.current(db).model.fittedVersion).toBe(trainFromLedger(db).model.version);
      expect(db.all(sql`SELECT * FROM model_state`)).toHaveLength(1);
    });
  });

  it("a learning that fails is logged and not retried within the call: the page decides nothing by the model", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-in-slices-fails"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page([line("a", "BLUE BOTTLE #1"), line("b", "BLUE BOTTLE #2")]), AT);
      recordHumanJudgement(db, 1, "Meals", "human:x", AT);
      let pauses = 0;
      const keeper = new ModelKeeper(db, async () => {
        pauses++;
        throw new Error("a slice that fails");
      });
      await keeper.ready();
      expect(pauses).toBe(1);
      expect(db.transaction((tx) => keeper.decide(tx, undecidedLines(tx), 0.5, AT))).toBe(0);
    });
  });

  it("answers other calls between the slices of its learning", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-in-slices-answers"));
    await runInDurableObject(stub, async (ledger) => {
      bookWithAModel(ledger.db, 7_000);
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
      await learnAfreshInSlices(ledger.db, pause, 100);
      happened.push("learnt");
    });
    // Sent once the object has begun to learn: answered between two slices, not after the last.
    while (happened.length === 0) await scheduler.wait(1);
    const read = stub.summary(faceFor({ tier: "paid", visibleFrom: null })).then(() => happened.push("read"));
    sent = true;
    await Promise.all([learning, read]);
    expect(happened).toEqual(["began", "read", "learnt"]);
  });

  it("the object learns what a run of the rules decided once, in the background, and keeps what it learnt", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("local-model-in-slices-object"));
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      bookWithAModel(db, 7_000);
      await runThreeRules(db);
      const keptMarks = () => db.get<{ seq: number }>(sql`SELECT through_seq AS seq FROM model_state`).seq;
      await Promise.all([ledger.prepareModel(), ledger.prepareModel()]);
      expect(settle(await ledger.modelVersion())).toEqual({ version: trainFromLedger(db).model.version, examples: 5_250 });
      expect(keptMarks()).toBe(db.get<{ seq: number }>(sql`SELECT max(seq) AS seq FROM decisions`).seq);
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
    await runInDurableObject(stub, async (ledger) => {
      const db = ledger.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page([line("a", "BLUE BOTTLE #1"), line("b", "SHELL OIL 2")]), AT);
      recordHumanJudgement(db, 1, "Meals", "human:x", AT);
      recordHumanJudgement(db, 2, "Fuel", "human:x", AT);
      // The object's own step: its model decides a new line and keeps its calibration's fit.
      await ledger.applyFeedPage(connection, { ...page([line("c", "BLUE BOTTLE #3")]), cursorBefore: "1", nextCursor: "2" });
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
      // The object's own step: the model (caught up and refitted before the page, in slices) decides new lines.
      // They are printed as lines the model has seen twice or more: what the fit read of the feed is what the ledger keeps.
      const fresh = Array.from({ length: 40 }, (_, i) => line(`n${i}`, named(i + 7)));
      await ledger.applyFeedPage(connection, { ...page(fresh), cursorBefore: "1", nextCursor: "2" });
      const byModel = db.all<{ aId: number; category: string; confidencePpm: number; description: string; amountCents: number; accountId: string }>(
        sql`SELECT d.a_id AS aId, d.category, d.confidence_ppm AS confidencePpm, a.description, a.amount_cents AS amountCents, a.account_id AS accountId
          FROM decisions d JOIN a_lines a ON a.id = d.a_id WHERE d.engine = 'model'`,
      );
      expect(byModel.length).toBeGreaterThan(10);

      // The object starts again: the restored model answers as the running one did.
      expect(keptCalibration(db)).not.toBeNull();
      const restored = currentModel(db, undefined);
      // Its band is open as the running model's was: the held-out lines that opened it are kept with the fit.
      expect(restored.model.bandOpens(DEFAULT_DUH_BAND_FLOOR)).toBe(true);
      for (const decision of byModel) {
        const prediction = restored.model.predict({ description: decision.description, merchantName: null, amountCents: decision.amountCents, accountId: decision.accountId })!;
        expect([prediction.category, Math.round(prediction.confidence * 1_000_000)], decision.description).toEqual([decision.category, decision.confidencePpm]);
      }
    });
  });
});

