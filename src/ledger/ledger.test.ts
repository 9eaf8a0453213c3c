/**
 * The ledger's own guarantees, tested on the domain modules inside the tenant's object:
 * the database refuses UPDATE and DELETE; a page applied twice changes nothing; human
 * judgements follow a line to its successor.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FeedPage } from "../providers/bank/types";
import { booksSummary, listRows } from "./books/reads";
import { faceFor } from "./face";
import { applyFeedPage } from "./feed/feed-pages";
import { createCategory } from "./books/categories";
import { label, latestDecision, recordHumanJudgement } from "./books/judgements";
import { createRule } from "./rules/rulebook";
import { computeVerdict, fileVerdict } from "./reports/parity";
import { setBooksCurrency } from "./books/currency";
import { chooseSharedPrior } from "./model/shared-prior-kept";
import { notePerson } from "./books/people";
import { rollingPnl } from "./reports/pnl";
import { recordTailAnswers } from "./model/tail-asks";
import { recordPush } from "./reports/export/push-records";
import { claimRelease, draftReply } from "./messages";
import { openExport } from "./reports/export/snapshot";
import { relationCDrift } from "../../test/support/relation-c-drift";
import { APPEND_ONLY_TABLES, DERIVED_TABLES, INDEX_COPY_TABLES, MODEL_TABLES } from "./store/schema";
import { connectBank, recordSyncRun, requestSync } from "./feed/sync-requests";
import { valueOf } from "./outcome";
import { linkItem, openLedger, recordConnectionStatus, replaceToken } from "./feed/connections";
import type { TenantLedger } from "./tenant-ledger";

const AT = "2026-11-22T12:00:00.000Z";
const face = faceFor({ tier: "paid", visibleFrom: null });

/** The database's words when a statement is refused (drizzle wraps them in `cause`). */
function refusal(statement: () => unknown): string {
  try {
    statement();
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return String(cause instanceof Error ? cause.message : error);
  }
  return "(not refused)";
}

function ledger(name: string) {
  return env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(name));
}

function page(cursorBefore: string, nextCursor: string, changes: Partial<FeedPage>): FeedPage {
  return { cursorBefore, nextCursor, hasMore: false, accounts: [], added: [], modified: [], removed: [], ...changes };
}

const line = (id: string, extra: Record<string, unknown> = {}) => ({
  transaction_id: id,
  account_id: "acc",
  amount: 10,
  date: "2026-11-20",
  name: `LINE ${id}`,
  ...extra,
});

describe("the append-only ledger", () => {
  it("refuses UPDATE and DELETE on every ledger table", async () => {
    await runInDurableObject(ledger("append-only"), (instance: TenantLedger) => {
      const db = instance.db;
      // One row in every ledger table, through the domain code.
      const connection = connectBank(db, "sandbox", "", AT);
      openLedger(db, "append-only", AT);
      const item = valueOf(linkItem(db, { provider: "aggregator", itemId: "item-1", institution: "Harbor", accessToken: "v1.k.iv.ct" }, "paid", "human:append-only", AT));
      recordConnectionStatus(db, item.connection.id, "login_required", "ITEM_LOGIN_REQUIRED", "service:test", AT);
      replaceToken(db, item.connection.id, "v1.k2.iv.ct", AT);
      applyFeedPage(db, connection, page("", "1", { added: [line("x")], accounts: [{ account_id: "acc", name: "Acc" }] }), AT);
      applyFeedPage(db, connection, page("1", "2", { added: [line("x")], modified: [line("x", { amount: 11 })] }), AT);
      recordHumanJudgement(db, 1, "Rent", "human:append-only", AT);
      createRule(db, { rule_key: "r", match_kind: "amount_sign", match_value: "out", category: "Fees" }, "human:append-only", AT, null);
      label(db, face, "A", 1, { category: "Rent", reason: "lease" }, "human:append-only", AT);
      createCategory(db, { name: "Rent", header: "expense" }, "human:append-only", AT);
      setBooksCurrency(db, "CAD", "human:append-only", AT);
      recordTailAnswers(db, [{ aId: 1, answer: null }], "fake-model", AT);
      const books = rollingPnl(db, face, "2026-11-20");
      fileVerdict(db, computeVerdict("2026-11-20", books, books), books, { actor: "cron:daily-parity", oracleUrl: "https://oracle.example/pnl.json", ranAt: AT, textOwner: false }, AT);
      const request = requestSync(db, "human:append-only", new Date(AT));
      if (request.state !== "recorded") throw new Error("expected a recorded request");
      recordSyncRun(db, { requestId: request.requestId, attempt: 1, startedAt: AT, finishedAt: AT, pages: 2, added: 1, modified: 1, removed: 0, duplicates: 1, status: "ok", final: true, error: null });
      const op = openExport(db, face, { destinationId: 1, destinations: "known", actor: "human:append-only", at: AT });
      recordPush(db, { exportId: op.id, attempt: 1, status: "pushed", rows: 1, final: true, error: null, at: AT });
      const reply = draftReply(db, "Thanks, noted.", "human:append-only", AT);
      claimRelease(db, reply, "human:append-only", AT);
      notePerson(db, { id: "p0123456789abcdef", name: "Dana Reyes", email: "dana@books.example" }, AT);
      chooseSharedPrior(db, true, "human:append-only", AT);
      const rowsIn = (table: string) => db.get<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM ${table}`)).n;
      for (const table of APPEND_ONLY_TABLES) expect(rowsIn(table), table).toBeGreaterThan(0);

      for (const table of APPEND_ONLY_TABLES) {
        // rowid exists on every table, so the only thing that can refuse these is the trigger.
        expect(refusal(() => db.run(sql.raw(`UPDATE ${table} SET rowid = rowid`))), table).toContain(
          `append-only ledger: UPDATE on ${table} is refused`,
        );
        expect(refusal(() => db.run(sql.raw(`DELETE FROM ${table}`))), table).toContain(`append-only ledger: DELETE on ${table} is refused`);
      }
      // The refusal is the database's: every row survives both attempts.
      expect(booksSummary(db, face)).toMatchObject({ lines: 3, archived: 1, superseded: 1 });
      expect(relationCDrift(db)).toEqual({ rows: 0, totals: 0, floorTotals: 0, months: 0, days: 0, words: 0 });
      // Relation C as kept is derived, so it changes, but no line ever leaves it.
      expect(refusal(() => db.run(sql.raw("DELETE FROM c_rows")))).toContain("relation C: a line never leaves it");
    });
  });
});

describe("the lists of append-only, derived, model and index-copy tables", () => {
  it("name every table of the ledger between them", async () => {
    await runInDurableObject(ledger("table-list"), (instance: TenantLedger) => {
      const tables = instance.db
        .all<{ name: string }>(
          sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != '__drizzle_migrations'
            AND name NOT IN (SELECT v.name || '_' || shadow.value FROM sqlite_master v, json_each('["data","idx","content","docsize","config"]') shadow WHERE v.sql LIKE 'CREATE VIRTUAL TABLE%')`,
        )
        .map((t) => t.name);
      expect(tables.sort()).toEqual([...APPEND_ONLY_TABLES, ...DERIVED_TABLES, ...MODEL_TABLES, ...INDEX_COPY_TABLES].sort());
    });
  });
});

describe("applying feed pages", () => {
  it("changes nothing when the same page arrives twice", async () => {
    await runInDurableObject(ledger("replay"), (instance: TenantLedger) => {
      const db = instance.db;
      const connection = connectBank(db, "sandbox", "", AT);
      const first = page("", "c1", { added: [line("a"), line("b")] });
      expect(applyFeedPage(db, connection, first, AT)).toEqual({ added: 2, modified: 0, removed: 0, duplicates: 0, replayed: false });
      expect(applyFeedPage(db, connection, first, AT)).toEqual({ added: 0, modified: 0, removed: 0, duplicates: 0, replayed: true });
      // The same id in a later page is a duplicate arrival, not a replay.
      expect(applyFeedPage(db, connection, page("c1", "c2", { added: [line("a")] }), AT)).toMatchObject({ duplicates: 1 });
      expect(booksSummary(db, face)).toMatchObject({ lines: 3, booked: 2, archived: 1 });
    });
  });

  it("decides a page's new lines in the page's transaction: a page lands with its decisions or not at all", async () => {
    await runInDurableObject(ledger("page-and-decisions"), (instance: TenantLedger) => {
      const db = instance.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page("", "c1", { added: [line("a")] }), AT);
      let offered = -1;
      const second = page("c1", "c2", { added: [line("b"), line("c")] });
      expect(() =>
        applyFeedPage(db, connection, second, AT, (tx, newerThan) => {
          offered = newerThan;
          recordHumanJudgement(tx, newerThan + 1, "Meals", "human:page", AT);
          throw new Error("the deciding failed");
        }),
      ).toThrow("the deciding failed");
      // Only the lines after the first page were offered; the failure took the page back whole.
      expect(offered).toBe(1);
      expect(booksSummary(db, face)).toMatchObject({ lines: 1 });
      expect(latestDecision(db, 2)).toBeUndefined();
      // The bank serves the page again, and this time it lands with its decision.
      applyFeedPage(db, connection, second, AT, (tx, newerThan) => recordHumanJudgement(tx, newerThan + 1, "Meals", "human:page", AT));
      expect(booksSummary(db, face)).toMatchObject({ lines: 3 });
      expect(latestDecision(db, 2)?.category).toBe("Meals");
      expect(relationCDrift(db)).toEqual({ rows: 0, totals: 0, floorTotals: 0, months: 0, days: 0, words: 0 });
    });
  });

  it("carries a human judgement to the successor of a modified line, and a later one along the chain", async () => {
    await runInDurableObject(ledger("carry"), (instance: TenantLedger) => {
      const db = instance.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page("", "1", { added: [line("m")] }), AT);
      const [original] = listRows(db, face, {}, 1, 10).rows;
      recordHumanJudgement(db, original!.src_id, "Rent", "human:carry", AT);

      applyFeedPage(db, connection, page("1", "2", { modified: [line("m", { amount: 11 })] }), AT);
      const current = listRows(db, face, { q: "LINE m" }, 1, 10).rows.find((r) => r.state === "in books")!;
      expect(current.category).toBe("Rent");
      expect(latestDecision(db, current.src_id)).toMatchObject({ engine: "human", actor: "human:carry", carriedFromAId: original!.src_id });

      // A judgement made later on the superseded line follows it to its successor.
      recordHumanJudgement(db, original!.src_id, "Utilities", "token:carry:abc", AT);
      expect(listRows(db, face, { cat: "Utilities" }, 1, 10).rows.map((r) => r.src_id).sort()).toEqual(
        [original!.src_id, current.src_id].sort(),
      );
      // Unsetting goes back to the queue.
      recordHumanJudgement(db, current.src_id, "uncategorized", "human:carry", AT);
      expect(listRows(db, face, { cat: "uncategorised" }, 1, 10).rows.map((r) => r.src_id)).toEqual([current.src_id]);
    });
  });

  it("supersedes only a held pending line, and a removal after posting changes nothing", async () => {
    await runInDurableObject(ledger("posting"), (instance: TenantLedger) => {
      const db = instance.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page("", "1", { added: [line("p", { pending: true }), line("q")] }), AT);
      const outcome = applyFeedPage(
        db,
        connection,
        page("1", "2", {
          added: [line("p2", { pending_transaction_id: "p" }), line("q2", { pending_transaction_id: "q" })],
          removed: [{ transaction_id: "p" }, { transaction_id: "unknown" }],
        }),
        AT,
      );
      expect(outcome).toMatchObject({ added: 2, removed: 0 });
      const states = Object.fromEntries(listRows(db, face, {}, 1, 10).rows.map((r) => [r.description, r.state]));
      // q was never pending: naming it does not supersede it.
      expect(states).toEqual({ "LINE p": "superseded", "LINE p2": "in books", "LINE q": "in books", "LINE q2": "in books" });
      // A modification of the pending transaction after it posted is stale: nothing changes.
      expect(applyFeedPage(db, connection, page("2", "3", { modified: [line("p", { amount: 99 })] }), AT)).toMatchObject({ added: 0, modified: 0 });
      expect(listRows(db, face, {}, 1, 10).rows).toHaveLength(4);
    });
  });
});
