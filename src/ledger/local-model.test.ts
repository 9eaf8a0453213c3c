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
  it("adds a label on a fresh line incrementally, and retrains when a learnt line is relabelled", async () => {
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
      const retrained = currentModel(db, grown);
      expect(retrained).not.toBe(grown);
      expect(trainingExamples(db).map((e) => e.category).sort()).toEqual(["Meals", "Office"]);
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
