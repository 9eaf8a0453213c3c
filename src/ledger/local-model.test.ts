/** The local model in the ledger: learnt from the ledger's evidence, incrementally where it can be. */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { FeedPage } from "../providers/bank/types";
import { applyFeedPage } from "./feed";
import { recordHumanJudgement } from "./judgements";
import { currentModel, trainFromLedger, trainingExamples } from "./local-model";
import { createRule } from "./rules";
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
      expect([...kept.lines.keys()].sort()).toEqual([...fromLedger.lines.keys()].sort());
      expect(kept.lines.has(3)).toBe(false);
      expect(kept.lines.get(4)).toBe("Meals");
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
});
