/**
 * The undecided lines, read from the queue's index or from every line, are the lines of
 * the definition: side A, in books or pending, with no decision fact at all.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { LedgerDb } from "../store/db";
import { faceFor } from "../face";
import { applyFeedPage } from "../feed/feed-pages";
import { recordHumanJudgement } from "./judgements";
import { createRule } from "../rules/rulebook";
import { connectBank } from "../feed/sync-requests";
import { recordTailAnswers } from "../model/tail-asks";
import type { TenantLedger } from "../tenant-ledger";
import { queueIsSmall, undecidedLines, undecidedRows, type UndecidedRow, type UndecidedScope } from "./undecided";

const AT = "2026-11-22T12:00:00.000Z";
const LINES = 60;

/** The definition read from relation C's derivation, not from its kept copy or its index. */
function definition(db: LedgerDb, scope: UndecidedScope): number[] {
  return db
    .all<{ id: number }>(sql`
      SELECT c.src_id AS id FROM c_rows_derived c
      WHERE c.side = 'A' AND c.state IN ('in books', 'pending')
        AND c.src_id NOT IN (SELECT a_id FROM decisions)
        ${scope.postedFrom ? sql`AND c.posted_on >= ${scope.postedFrom}` : sql``}
        ${scope.unaskedByTail ? sql`AND c.src_id NOT IN (SELECT a_id FROM tail_asks)` : sql``}
      ORDER BY c.src_id
      ${scope.limit === undefined ? sql`` : sql`LIMIT ${scope.limit}`}`)
    .map((r) => r.id);
}

/** Lines of both signs over two months, some pending, one removed and one modified by the bank. */
function feed(db: LedgerDb): void {
  const connection = connectBank(db, "sandbox", "", AT);
  const added = Array.from({ length: LINES }, (_, i) => ({
    transaction_id: `t${i}`,
    account_id: "acc",
    amount: i % 4 === 0 ? -50 : 5,
    date: `2026-${i % 2 ? "10" : "11"}-${String(1 + (i % 28)).padStart(2, "0")}`,
    name: `SHOP ${i}`,
    pending: i % 10 === 4,
  }));
  applyFeedPage(db, connection, { cursorBefore: "0", nextCursor: "1", hasMore: false, accounts: [], added, modified: [], removed: [] }, AT);
  const modified = [{ ...added[9]!, amount: 6 }];
  applyFeedPage(db, connection, { cursorBefore: "1", nextCursor: "2", hasMore: false, accounts: [], added: [], modified, removed: [{ transaction_id: "t5" }] }, AT);
}

/**
 * `undecidedRows` (relation C's kept rows alone) names the definition's lines, whole, in
 * ranges of the line ids and among chosen lines, each with its text, its amount and what
 * its figures are keyed by as the derivation has them.
 */
function expectTextsOfTheDefinition(db: LedgerDb): void {
  const all = definition(db, {});
  const inRange = (after: number, upTo: number) => all.filter((id) => id > after && id <= upTo);
  expect(undecidedRows(db).map((l) => l.aId)).toEqual(all);
  expect(undecidedRows(db, { postedFrom: "2026-11-01" }).map((l) => l.aId)).toEqual(definition(db, { postedFrom: "2026-11-01" }));
  expect(undecidedRows(db, { newerThan: 10, upTo: 40 }).map((l) => l.aId)).toEqual(inRange(10, 40));
  expect(undecidedRows(db, { among: [1, 2, 3, 7, 8, 61] }).map((l) => l.aId)).toEqual(all.filter((id) => [1, 2, 3, 7, 8, 61].includes(id)));
  const derived = new Map(
    db
      .all<UndecidedRow>(sql`SELECT src_id AS aId, description, amount_cents AS amountCents, account_id AS accountId, state,
        posted_on AS postedOn, currency FROM c_rows_derived WHERE side = 'A'`)
      .map((row) => [row.aId, row]),
  );
  for (const row of undecidedRows(db)) expect(row).toEqual(derived.get(row.aId));
}

const scopes: UndecidedScope[] = [{}, { postedFrom: "2026-11-01" }, { unaskedByTail: true }, { unaskedByTail: true, limit: 3 }];

describe("undecidedLines and undecidedRows", () => {
  it("reads the definition's lines from the queue when the rules decided most of the books", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("undecided-small-queue"));
    await runInDurableObject(stub, (ledger: TenantLedger) => {
      const db = ledger.db;
      feed(db);
      createRule(db, { rule_key: "out", match_kind: "amount_sign", match_value: "out", category: "Supplies" }, "human:t", AT, null);
      // A person puts two decided lines back in the queue: queued, yet not undecided.
      recordHumanJudgement(db, 2, "uncategorised", "human:t", AT);
      recordHumanJudgement(db, 3, "uncategorised", "human:t", AT);
      recordTailAnswers(db, [{ aId: 1, answer: null }], "tail-test", AT);

      expect(queueIsSmall(db)).toBe(true);
      for (const scope of scopes) expect(undecidedLines(db, scope).map((l) => l.aId), JSON.stringify(scope)).toEqual(definition(db, scope));
      expect(definition(db, {}).length).toBeGreaterThan(3);
      expect(undecidedLines(db).map((l) => l.aId)).not.toContain(2);
      expectTextsOfTheDefinition(db);
    });
  });

  it("reads every line when most of the books are queued, with the same answer", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("undecided-large-queue"));
    await runInDurableObject(stub, (ledger: TenantLedger) => {
      const db = ledger.db;
      feed(db);
      recordHumanJudgement(db, 2, "Meals", "human:t", AT);
      recordTailAnswers(db, [{ aId: 1, answer: null }], "tail-test", AT);

      expect(queueIsSmall(db)).toBe(false);
      for (const scope of scopes) expect(undecidedLines(db, scope).map((l) => l.aId), JSON.stringify(scope)).toEqual(definition(db, scope));
      expectTextsOfTheDefinition(db);
    });
  });
});
