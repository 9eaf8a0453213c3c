/**
 * A run-rules slice keeps relation C's figures itself, grouped (`appendDecisionsOfRows`):
 * the figures equal their definition afterwards, whatever the slice's lines share, and the
 * batch mark is never left behind. Any history of pages, judgements and runs is
 * relation-c.test.ts's property; these are the cases a slice's grouping must get right.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FeedPage } from "../../providers/bank/types";
import { relationCDrift } from "../../../test/support/relation-c-drift";
import { faceFor } from "../face";
import { applyFeedPage } from "../feed/feed-pages";
import { connectBank } from "../feed/sync-requests";
import { createRules } from "../rules/rulebook";
import { runRules } from "../rules/run-rules";
import type { LedgerDb } from "../store/db";
import type { TenantLedger } from "../tenant-ledger";
import { recordHumanJudgement } from "./judgements";
import { appendDecisionsOfRows, appendMachineDecisions, type MachineDecision } from "./machine-decisions";
import { booksSummary } from "./reads";

const NOW = new Date("2026-11-22T12:00:00.000Z");
const AT = NOW.toISOString();
const NO_DRIFT = { rows: 0, totals: 0, floorTotals: 0, months: 0, days: 0, words: 0 };

/** Lines in two accounts and three currencies on either side of a paid floor, some pending, some arriving twice (side-B twins). */
function feed(db: LedgerDb): void {
  const connection = connectBank(db, "sandbox", "", AT);
  const added: FeedPage["added"] = Array.from({ length: 24 }, (_, i) => ({
    transaction_id: `t${i}`,
    account_id: i % 2 ? "checking" : "card",
    amount: i % 3 ? 12.5 : -40,
    date: `2026-11-${String(10 + (i % 8)).padStart(2, "0")}`,
    name: ["COFFEE", "RENT", "STRIPE PAYOUT", "HARDWARE"][i % 4]!,
    pending: i % 7 === 3,
    iso_currency_code: [undefined, "USD", "EUR"][i % 3],
  }));
  const twice = added.filter((_, i) => i % 5 === 0);
  applyFeedPage(db, connection, { cursorBefore: "", nextCursor: "1", hasMore: false, accounts: [], added: [...added, ...twice], modified: [], removed: [] }, AT);
}

const markHeld = (db: LedgerDb) => db.get<{ n: number }>(sql`SELECT count(*) AS n FROM c_figures_by_batch`).n;

describe("a run-rules slice's figures", () => {
  it("equal their definition after slices of lines sharing days, categories, accounts and currencies, twins and a paid floor among them", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("machine-decisions-grouped"));
    await runInDurableObject(stub, async (instance: TenantLedger) => {
      const db = instance.db;
      feed(db);
      // A read on a paid floor's face makes the ledger keep the figures before it.
      booksSummary(db, faceFor({ tier: "paid", visibleFrom: "2026-11-14" }, NOW));
      recordHumanJudgement(db, 2, "Rent", "human:test", AT);
      createRules(
        db,
        [
          { rule_key: "coffee", match_kind: "description_exact", match_value: "COFFEE", category: "Meals" },
          { rule_key: "payouts", match_kind: "description_regex", match_value: "PAYOUT", category: "Sales" },
          { rule_key: "money-out", match_kind: "amount_sign", match_value: "out", category: "Supplies" },
        ],
        "human:test",
        AT,
      );
      const before = db.get<{ n: number }>(sql`SELECT count(*) AS n FROM decisions`).n;
      // Slices of five lines: several transactions, each grouping what its lines share.
      const decided = await runRules(db, null, AT, () => Promise.resolve(), 5);
      expect(decided).toBeGreaterThan(10);
      expect(db.get<{ n: number }>(sql`SELECT count(*) AS n FROM decisions`).n).toBe(before + decided);
      expect(relationCDrift(db)).toEqual(NO_DRIFT);
      expect(markHeld(db)).toBe(0);
      // The per-row triggers keep the figures again once the slice is done.
      recordHumanJudgement(db, 1, "Travel", "human:test", AT);
      expect(relationCDrift(db)).toEqual(NO_DRIFT);
    });
  });

  it("refuses a decision of a line whose undecided row it was not given, and writes nothing", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("machine-decisions-refused"));
    await runInDurableObject(stub, (instance: TenantLedger) => {
      const db = instance.db;
      feed(db);
      const decision = { engine: "rule" as const, aId: 1, category: "Meals", ruleKey: "coffee", ruleRevision: 1 };
      expect(() => db.transaction((tx) => appendDecisionsOfRows(tx, [decision], [], AT))).toThrow(/A:1/);
      expect(db.get<{ n: number }>(sql`SELECT count(*) AS n FROM decisions`).n).toBe(0);
      expect(markHeld(db)).toBe(0);
      expect(relationCDrift(db)).toEqual(NO_DRIFT);
    });
  });
});

describe("appending machine decisions", () => {
  it("appends rules' and the model's decisions in the order given, each with its own engine's fields", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("machine-decisions-mixed"));
    await runInDurableObject(stub, (instance: TenantLedger) => {
      const db = instance.db;
      feed(db);
      const rule = (aId: number): MachineDecision => ({ engine: "rule", aId, category: "Meals", ruleKey: `r${aId}`, ruleRevision: aId });
      const model = (aId: number): MachineDecision => ({ engine: "model", aId, category: "Sales", modelVersion: `v${aId}`, confidencePpm: 990_000 + aId, bandFloorPpm: 950_000 });
      // More than one statement's thousand of one engine, then runs of each in turn.
      const decided = [...Array.from({ length: 1_003 }, (_, i) => rule(1 + (i % 3))), model(4), model(5), rule(6), model(7)];
      appendMachineDecisions(db, decided, AT);
      const rows = db.all<Record<string, unknown>>(sql`
        SELECT a_id, category, engine, rule_key, rule_revision, model_version, confidence_ppm, band_floor_ppm, actor, decided_at FROM decisions ORDER BY seq`);
      expect(rows).toHaveLength(decided.length);
      expect(rows.slice(-5)).toEqual([
        { a_id: 1, category: "Meals", engine: "rule", rule_key: "r1", rule_revision: 1, model_version: null, confidence_ppm: null, band_floor_ppm: null, actor: null, decided_at: AT },
        { a_id: 4, category: "Sales", engine: "model", rule_key: null, rule_revision: null, model_version: "v4", confidence_ppm: 990_004, band_floor_ppm: 950_000, actor: null, decided_at: AT },
        { a_id: 5, category: "Sales", engine: "model", rule_key: null, rule_revision: null, model_version: "v5", confidence_ppm: 990_005, band_floor_ppm: 950_000, actor: null, decided_at: AT },
        { a_id: 6, category: "Meals", engine: "rule", rule_key: "r6", rule_revision: 6, model_version: null, confidence_ppm: null, band_floor_ppm: null, actor: null, decided_at: AT },
        { a_id: 7, category: "Sales", engine: "model", rule_key: null, rule_revision: null, model_version: "v7", confidence_ppm: 990_007, band_floor_ppm: 950_000, actor: null, decided_at: AT },
      ]);
      expect(rows.map((r) => r.a_id)).toEqual(decided.map((d) => d.aId));
      expect(relationCDrift(db)).toEqual(NO_DRIFT);
    });
  });
});
