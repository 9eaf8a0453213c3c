/**
 * A rule tried before it is saved says what saving it does: the lines create_rule then
 * decides are exactly the lines the dry run counted, each by the rule the dry run named.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { faceFor } from "../face";
import { applyFeedPage } from "../feed/feed-pages";
import { connectBank } from "../feed/sync-requests";
import { recordHumanJudgement } from "../books/judgements";
import { queueIsSmall } from "../books/undecided";
import type { LedgerDb } from "../store/db";
import type { TenantLedger } from "../tenant-ledger";
import { dryRunRule } from "./dry-run";
import { proposeRule } from "./proposal";
import type { RuleInput } from "./rule";
import { createRule, createRules } from "./rulebook";

const AT = "2026-11-22T12:00:00.000Z";
const NAMES = ["SQ *BLUE BOTTLE 1234", "BLUE-BOTTLE COFFEE", "GITHUB INC", "STRIPE TRANSFER", "FLOUR MILL CO", "AMZN MKTP US*2K4"];

function feed(db: LedgerDb): void {
  const connection = connectBank(db, "sandbox", "", AT);
  const added = Array.from({ length: 48 }, (_, i) => ({
    transaction_id: `t${i}`,
    account_id: "acc",
    amount: NAMES[i % NAMES.length] === "STRIPE TRANSFER" ? -400 : 5 + i,
    date: `2026-11-${String(1 + (i % 28)).padStart(2, "0")}`,
    name: NAMES[i % NAMES.length]!,
  }));
  applyFeedPage(db, connection, { cursorBefore: "0", nextCursor: "1", hasMore: false, accounts: [], added, modified: [], removed: [] }, AT);
}

/** Each line's rule decision after `since` (op seq), as rule key per line. */
function ruleDecisionsSince(db: LedgerDb, since: number): Map<number, string> {
  const rows = db.all<{ aId: number; ruleKey: string }>(sql`SELECT a_id AS aId, rule_key AS ruleKey FROM decisions WHERE seq > ${since} AND engine = 'rule'`);
  return new Map(rows.map((r) => [r.aId, r.ruleKey]));
}

const CASES: [string, RuleInput][] = [
  ["a pattern", { rule_key: "coffee", match_kind: "description_regex", match_value: "BLUE\\W+BOTTLE", category: "Meals" }],
  ["a sign", { rule_key: "money-in", match_kind: "amount_sign", match_value: "in", category: "Sales" }],
  // Before every standing rule: its lines are counted in SQL.
  ["a sign that decides first", { rule_key: "money-out", match_kind: "amount_sign", match_value: "out", category: "Costs", priority: 1 }],
  ["an exact description", { rule_key: "github", match_kind: "description_exact", match_value: "github  inc", category: "Software" }],
  ["a pattern another rule takes first", { rule_key: "mill", match_kind: "description_regex", match_value: "MILL|BLUE", category: "Ingredients" }],
  ["a revision of a standing key", { rule_key: "first", match_kind: "description_regex", match_value: "AMZN", category: "Supplies" }],
  ["a pattern matching nothing", { rule_key: "none", match_kind: "description_regex", match_value: "NOTHING HERE", category: "Meals" }],
];

describe("dryRunRule", () => {
  for (const [name, input] of CASES) {
    it(`counts what create_rule then decides: ${name}`, async () => {
      const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(`dry-run-${input.rule_key}`));
      await runInDurableObject(stub, (ledger: TenantLedger) => {
        const db = ledger.db;
        const face = faceFor({ tier: "paid", visibleFrom: null });
        feed(db);
        // A rule that decides first but has decided nothing yet, and a person's judgement.
        createRules(db, [{ rule_key: "first", match_kind: "description_regex", match_value: "BLUE BOTTLE", category: "Coffee", priority: 10 }], "human:t", AT);
        recordHumanJudgement(db, 1, "Meals", "human:t", AT);
        const run = dryRunRule(db, face, input);
        const before = db.get<{ seq: number }>(sql`SELECT coalesce(max(seq), 0) AS seq FROM decisions`).seq;
        const { decided } = createRule(db, input, "human:t", AT, face);
        const made = ruleDecisionsSince(db, before);
        expect(decided).toBe(run.matches);
        expect(made.size).toBe(run.matches);
        expect([...made.values()].filter((key) => key === input.rule_key).length).toBe(run.decided_by_it);
        for (const other of run.decided_by_others) expect([...made.values()].filter((key) => key === other.rule_key).length).toBe(other.lines);
        expect(run.sample.map((r) => r.src_id)).toEqual([...made.keys()].sort((a, b) => a - b).slice(0, run.sample.length));
        expect(made.has(1)).toBe(false);
      });
    });
  }
});

describe("dryRunRule over a book mostly decided", () => {
  // The queue a small part of the books (its index names the candidates), a pending line, a
  // line the bank retracted, one a person sent back to the queue (decided, so no rule takes
  // it) and a paid floor that hides the first days.
  for (const [name, input] of CASES) {
    it(`counts what create_rule then decides: ${name}`, async () => {
      const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(`dry-run-decided-${input.rule_key}`));
      await runInDurableObject(stub, (ledger: TenantLedger) => {
        const db = ledger.db;
        const face = faceFor({ tier: "paid", visibleFrom: "2026-11-03" }, new Date(AT));
        feed(db);
        const connection = db.get<{ id: number }>(sql`SELECT max(id) AS id FROM bank_connections`).id;
        const more = [
          { transaction_id: "p1", account_id: "acc", amount: 9, date: "2026-11-20", name: "BLUE BOTTLE PENDING", pending: true },
          { transaction_id: "p2", account_id: "acc", amount: -12, date: "2026-11-21", name: "GITHUB INC", pending: true },
        ];
        applyFeedPage(db, connection, { cursorBefore: "1", nextCursor: "2", hasMore: false, accounts: [], added: more, modified: [], removed: [{ transaction_id: "t5" }] }, AT);
        createRule(db, { rule_key: "stripe", match_kind: "description_exact", match_value: "STRIPE TRANSFER", category: "Sales" }, "human:t", AT, null);
        createRule(db, { rule_key: "flour", match_kind: "description_exact", match_value: "FLOUR MILL CO", category: "Stock" }, "human:t", AT, null);
        createRule(db, { rule_key: "amzn", match_kind: "description_regex", match_value: "^AMZN", category: "Supplies" }, "human:t", AT, null);
        createRule(db, { rule_key: "bb", match_kind: "description_exact", match_value: "BLUE-BOTTLE COFFEE", category: "Coffee" }, "human:t", AT, null);
        expect(queueIsSmall(db)).toBe(true);
        createRules(db, [{ rule_key: "first", match_kind: "description_regex", match_value: "BLUE BOTTLE", category: "Coffee", priority: 10 }], "human:t", AT);
        recordHumanJudgement(db, 3, "uncategorized", "human:t", AT);
        const run = dryRunRule(db, face, input);
        const before = db.get<{ seq: number }>(sql`SELECT coalesce(max(seq), 0) AS seq FROM decisions`).seq;
        const { decided } = createRule(db, input, "human:t", AT, face);
        const made = ruleDecisionsSince(db, before);
        expect(decided).toBe(run.matches);
        expect(made.size).toBe(run.matches);
        expect([...made.values()].filter((key) => key === input.rule_key).length).toBe(run.decided_by_it);
        for (const other of run.decided_by_others) expect([...made.values()].filter((key) => key === other.rule_key).length).toBe(other.lines);
        expect(run.sample.map((r) => r.src_id)).toEqual([...made.keys()].sort((a, b) => a - b).slice(0, run.sample.length));
        expect(made.has(3)).toBe(false);
      });
    });
  }
});

describe("proposeRule", () => {
  it("proposes the line's first words as a pattern that takes the line and its kin, else the exact description", () => {
    const line = (description: string) => ({ aId: 1, description, amountCents: -500 });
    expect(proposeRule(line("SQ *BLUE BOTTLE 1234"), "Meals")).toEqual({ rule_key: "sq-blue-bottle", match_kind: "description_regex", match_value: "SQ\\W+BLUE\\W+BOTTLE", category: "Meals" });
    expect(proposeRule(line("AMZN MKTP US*2K4"), "Supplies")).toMatchObject({ match_kind: "description_regex", match_value: "AMZN\\W+MKTP\\W+US" });
    expect(proposeRule(line("1234 GUSTO PAYROLL 5566 FEE"), "Payroll")).toMatchObject({ rule_key: "gusto-payroll", match_value: "GUSTO\\W+PAYROLL" });
    expect(proposeRule(line("#1234 5678"), "Meals")).toEqual({ rule_key: "1234-5678", match_kind: "description_exact", match_value: "#1234 5678", category: "Meals" });
  });
});
