/**
 * Migration 0026 on a ledger that already holds lines: relation C's rows take each line's
 * engine and the daily figures are rebuilt per engine, equal to the definition. The test
 * leaves the rows as the added column leaves them (no engine) and runs the migration's
 * statements again, but for the two that add to the schema (the column and the index),
 * which the ledger already has.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import migration from "../../../migrations/ledger/0026_relation_c_engine.sql";
import { relationCDrift } from "../../../test/support/relation-c-drift";
import { recordHumanJudgement } from "../books/judgements";
import { applyFeedPage } from "../feed/feed-pages";
import { connectBank } from "../feed/sync-requests";
import { createRule } from "../rules/rulebook";
import type { TenantLedger } from "../tenant-ledger";

const AT = "2026-11-22T12:00:00.000Z";

it("fills the engines of the lines already held and keeps the daily figures per engine", async () => {
  const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("engine-migration"));
  await runInDurableObject(stub, (ledger: TenantLedger) => {
    const db = ledger.db;
    const connection = connectBank(db, "sandbox", "", AT);
    const line = (id: string, name: string, date: string, extra: object = {}) => ({ transaction_id: id, account_id: "acc", amount: 12, date, name, ...extra });
    const added = [
      line("t1", "COFFEE", "2026-11-01"),
      line("t2", "COFFEE", "2026-11-02"),
      line("t3", "RENT", "2026-11-03"),
      line("t4", "ATM", "2026-11-04", { pending: true }),
      line("t5", "MYSTERY", "2026-11-05"),
      // A duplicate arrival: side B, the twin of t1.
      line("t1", "COFFEE", "2026-11-01"),
    ];
    applyFeedPage(db, connection, { cursorBefore: "", nextCursor: "1", hasMore: false, accounts: [], added, modified: [], removed: [{ transaction_id: "t3" }] }, AT);
    createRule(db, { rule_key: "coffee", match_kind: "description_exact", match_value: "COFFEE", category: "Meals" }, "human:t", AT, null);
    recordHumanJudgement(db, 2, "Software", "human:t", AT);
    recordHumanJudgement(db, 4, "Owner", "human:t", AT);

    const engines = () => db.all<{ side: string; engine: string | null }>(sql`SELECT side, engine FROM c_rows ORDER BY side, src_id`);
    const kept = engines();
    expect(kept).toEqual([
      { side: "A", engine: "rule" },
      { side: "A", engine: "human" },
      { side: "A", engine: null },
      { side: "A", engine: "human" },
      { side: "A", engine: null },
      { side: "B", engine: "rule" },
    ]);

    // The rows as the added column leaves them; the daily figures as they stand.
    db.run(sql`UPDATE c_rows SET engine = NULL`);
    const statements = migration
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter((s) => !/^(--[^\n]*\n)*(ALTER TABLE|CREATE INDEX)/.test(s));
    for (const statement of statements) db.run(sql.raw(statement));

    expect(engines()).toEqual(kept);
    expect(relationCDrift(db)).toEqual({ rows: 0, totals: 0, floorTotals: 0, months: 0, days: 0, words: 0 });
  });
});
