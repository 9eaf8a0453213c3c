/**
 * run_rules over more lines than one statement or one slice takes (decisions go in
 * statements of 1,000 and slices of 2,000; new lines in runs of up to 500): every
 * matching line is decided once, in line order, and the ledger's invariants hold; what
 * other calls write between slices is respected, and they are answered meanwhile.
 */
import { settle } from "../../errors";
import { env, runInDurableObject } from "cloudflare:test";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { faceFor } from "../face";
import { applyFeedPage } from "../feed/feed-pages";
import { brokenInvariants } from "../../../test/support/invariants";
import type { LedgerDb } from "../store/db";
import { recordHumanJudgement } from "../books/judgements";
import { listRulesResponse } from "../../endpoints/rules/schema";
import { appendRevision, createRule, retireRule } from "./rulebook";
import { fromInput } from "./rule";
import { runRules } from "./run-rules";
import { decisions } from "../store/schema";
import { connectBank } from "../feed/sync-requests";
import type { TenantLedger } from "../tenant-ledger";
import { valueOf } from "../outcome";

const AT = "2026-11-22T12:00:00.000Z";
const LINES = 4_321;

/** LINES lines, every third "COFFEE" and the rest "RENT", none decided. */
function bookOfCoffeeAndRent(db: LedgerDb): void {
  const connection = connectBank(db, "sandbox", "", AT);
  for (let from = 0; from < LINES; from += 500) {
    const added = Array.from({ length: Math.min(500, LINES - from) }, (_, i) => ({
      transaction_id: `t${from + i}`,
      account_id: "acc",
      amount: 5,
      date: "2026-11-20",
      name: (from + i) % 3 === 0 ? "COFFEE" : "RENT",
    }));
    applyFeedPage(db, connection, { cursorBefore: String(from), nextCursor: String(from + 500), hasMore: false, accounts: [], added, modified: [], removed: [] }, AT);
  }
}

/** A revision appended without deciding anything, as create_rules does. */
function ruleWithoutRun(db: LedgerDb, rule_key: string, match_value: string, category: string): void {
  appendRevision(db, fromInput({ rule_key, match_kind: "description_exact", match_value, category }, null), "human:t", AT);
}

describe("runRules across chunks", () => {
  it("decides every matching line once, in line order, whatever the chunk boundaries", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("run-rules-chunks"));
    await runInDurableObject(stub, async (ledger: TenantLedger) => {
      const db = ledger.db;
      bookOfCoffeeAndRent(db);
      ruleWithoutRun(db, "coffee", "COFFEE", "Meals");

      const matching = Math.ceil(LINES / 3);
      expect(await runRules(db, faceFor({ tier: "paid", visibleFrom: null }), AT)).toBe(matching);
      expect(await runRules(db, null, AT)).toBe(0);
      const decided = db.select({ aId: decisions.aId, category: decisions.category }).from(decisions).orderBy(asc(decisions.seq)).all();
      expect(decided).toHaveLength(matching);
      expect(decided.map((d) => d.aId)).toEqual(Array.from({ length: matching }, (_, i) => 3 * i + 1));
      expect(new Set(decided.map((d) => d.category))).toEqual(new Set(["Meals"]));
      expect(brokenInvariants(db)).toEqual([]);
    });
  });

  // With slices of 1,000 the writes land after the first slice (lines 1-1,000) is decided;
  // with slices of 500 the book is read in ranges of 2,500 and they land between the two
  // reads, before anything is decided (the rent lines of the first range read already).
  it.each([
    ["between two slices", 1_000, 1_000],
    ["while it reads the book in ranges (most of the book queued)", 500, 0],
  ])("decides by the ledger as it stands: a judgement, a removal and a retired rule written %s are respected", async (_, linesPerSlice, decidedBefore) => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(`run-rules-writes-${linesPerSlice}`));
    await runInDurableObject(stub, async (ledger: TenantLedger) => {
      const db = ledger.db;
      bookOfCoffeeAndRent(db);
      ruleWithoutRun(db, "coffee", "COFFEE", "Meals");
      ruleWithoutRun(db, "rent", "RENT", "Rent");
      let pauses = 0;
      const anotherCall = async () => {
        if (pauses++ !== 0) return;
        // A person judges a later coffee line, the rent rule is retired, the bank removes a later coffee line.
        recordHumanJudgement(db, 4_000, "Office", "human:t", AT);
        retireRule(db, "rent", "human:t", AT);
        applyFeedPage(db, 1, { cursorBefore: "x", nextCursor: "y", hasMore: false, accounts: [], added: [], modified: [], removed: [{ transaction_id: "t3003" }] }, AT);
      };
      const decided = await runRules(db, null, AT, anotherCall, linesPerSlice);

      const byRule = db.select({ aId: decisions.aId, ruleKey: decisions.ruleKey }).from(decisions).where(eq(decisions.engine, "rule")).all();
      expect(decided).toBe(byRule.length);
      // Before the writes: every line, by both rules.
      expect(byRule.filter((d) => d.aId <= decidedBefore)).toHaveLength(decidedBefore);
      // After them: coffee lines only, less the judged one and the removed one.
      const later = byRule.filter((d) => d.aId > decidedBefore);
      expect(new Set(later.map((d) => d.ruleKey))).toEqual(new Set(["coffee"]));
      expect(later.map((d) => d.aId)).toEqual(
        Array.from({ length: LINES }, (_, i) => i + 1).filter((aId) => aId > decidedBefore && (aId - 1) % 3 === 0 && aId !== 4_000 && aId !== 3_004),
      );
      expect(db.select({ engine: decisions.engine }).from(decisions).where(eq(decisions.aId, 4_000)).all()).toEqual([{ engine: "human" }]);
      expect(brokenInvariants(db)).toEqual([]);
    });
  });

  it("respects a judgement made between slices where the queue's index named the lines (the queue small)", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("run-rules-small-queue"));
    await runInDurableObject(stub, async (ledger: TenantLedger) => {
      const db = ledger.db;
      bookOfCoffeeAndRent(db);
      ruleWithoutRun(db, "rent", "RENT", "Rent");
      expect(await runRules(db, null, AT)).toBe(LINES - Math.ceil(LINES / 3));
      // A third of the book queued: the candidates come from the queue's index, read once.
      ruleWithoutRun(db, "coffee", "COFFEE", "Meals");
      let pauses = 0;
      const judged = async () => {
        if (pauses++ === 0) recordHumanJudgement(db, 4_000, "Office", "human:t", AT);
      };
      expect(await runRules(db, null, AT, judged, 500)).toBe(Math.ceil(LINES / 3) - 1);
      expect(pauses).toBe(2);
      expect(db.select({ engine: decisions.engine }).from(decisions).where(eq(decisions.aId, 4_000)).all()).toEqual([{ engine: "human" }]);
      expect(brokenInvariants(db)).toEqual([]);
    });
  });

  it("answers other calls between its slices", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("run-rules-answers"));
    await runInDurableObject(stub, (ledger: TenantLedger) => {
      bookOfCoffeeAndRent(ledger.db);
      ruleWithoutRun(ledger.db, "coffee", "COFFEE", "Meals");
    });
    const happened: string[] = [];
    const running = runInDurableObject(stub, async (ledger: TenantLedger) => {
      happened.push("began");
      await runRules(ledger.db, null, AT, () => scheduler.wait(0), 100);
      happened.push("ran");
    });
    // Sent while the object decides: answered between two slices, not after the last.
    const read = stub.summary(faceFor({ tier: "paid", visibleFrom: null })).then(() => happened.push("read"));
    await Promise.all([running, read]);
    expect(happened).toEqual(["began", "read", "ran"]);
  });
});

describe("a stored pattern RE2 cannot read", () => {
  // Accepted when patterns were JavaScript; RE2 has no lookahead. Only a revision appended
  // past the validation (the module's own insert path) can hold one now.
  const LOOKAHEAD = "COFFEE(?! BEANS)";

  it("decides nothing, says why in list_rules, and stops no run, sync or new rule", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("run-rules-unreadable"));
    await runInDurableObject(stub, async (ledger: TenantLedger) => {
      const db = ledger.db;
      bookOfCoffeeAndRent(db);
      // It decides first, were it readable: every coffee line would be its.
      appendRevision(db, fromInput({ rule_key: "coffee-js", match_kind: "description_regex", match_value: LOOKAHEAD, category: "Meals", priority: 1 }, null), "human:t", AT);
      ruleWithoutRun(db, "rent", "RENT", "Rent");

      // run_rules: the rent rule decides, the unreadable one nothing.
      expect(settle(await ledger.runRules(faceFor({ tier: "paid", visibleFrom: null })))).toBe(LINES - Math.ceil(LINES / 3));
      // create_rule of another rule decides what it matches, by the rulebook with the unreadable rule in it.
      const coffee = createRule(db, { rule_key: "coffee", match_kind: "description_regex", match_value: "^COFFEE$", category: "Drinks", priority: 50 }, "human:t", AT, null);
      expect(coffee.decided).toBe(Math.ceil(LINES / 3));
      // A sync page: its new lines are decided by the rules that can read them.
      const page = { cursorBefore: "z", nextCursor: "z1", hasMore: false, accounts: [], modified: [], removed: [] };
      const added = ["COFFEE", "RENT", "COFFEE BEANS"].map((name, i) => ({ transaction_id: `n${i}`, account_id: "acc", amount: 5, date: "2026-11-21", name }));
      expect(valueOf(await ledger.applyFeedPage(1, { ...page, added })).decidedByRules).toBe(2);

      const byRule = db.select({ ruleKey: decisions.ruleKey }).from(decisions).where(eq(decisions.engine, "rule")).all();
      expect(new Set(byRule.map((d) => d.ruleKey))).toEqual(new Set(["rent", "coffee"]));
      expect(brokenInvariants(db)).toEqual([]);

      // list_rules shows it live, with the reason it decides nothing; the others have none.
      const listed = listRulesResponse.parse({ rules: valueOf(ledger.listRules()) }).rules;
      expect(listed.find((r) => r.rule_key === "coffee-js")).toMatchObject({ retired: false, match_value: LOOKAHEAD, pattern_problem: expect.stringMatching(/negative lookahead/) });
      expect(listed.filter((r) => r.pattern_problem !== null).map((r) => r.rule_key)).toEqual(["coffee-js"]);

      // A revision in RE2 syntax under the same key replaces it, and it decides again.
      const revised = createRule(db, { rule_key: "coffee-js", match_kind: "description_regex", match_value: "^COFFEE BEANS$", category: "Meals", priority: 1 }, "human:t", AT, null);
      expect(revised).toMatchObject({ rule: { revision: 2, pattern_problem: null }, decided: 1 });
    });
  });
});
