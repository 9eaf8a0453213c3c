/**
 * Exports on the domain modules inside the tenant's object: pages of any size concatenate
 * to the same file, and an export sees the books exactly as they were when it was made.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { FeedPage } from "../../../providers/bank/types";
import { faceFor } from "../../face";
import { applyFeedPage } from "../../feed/feed-pages";
import { recordHumanJudgement } from "../../books/judgements";
import { connectBank } from "../../feed/sync-requests";
import type { TenantLedger } from "../../tenant-ledger";
import { EXPORT_FILES, openExport, renderPage, spreadsheetPage, type ExportRecord } from "./snapshot";

const AT = "2026-11-22T12:00:00.000Z";
const face = faceFor({ tier: "paid", visibleFrom: null });

function page(cursorBefore: string, nextCursor: string, changes: Partial<FeedPage>): FeedPage {
  return { cursorBefore, nextCursor, hasMore: false, accounts: [], added: [], modified: [], removed: [], ...changes };
}

const line = (id: string, date: string, amount: number) => ({ transaction_id: id, account_id: "acc", amount, date, name: `LINE ${id}` });

function ledger(name: string) {
  return env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(name));
}

/** A whole file, read a page of `pageLines` at a time. */
function wholeFile(db: TenantLedger["db"], e: ExportRecord, file: (typeof EXPORT_FILES)[number], pageLines: number): { text: string; pages: number } {
  let text = "";
  let pages = 0;
  let cursor: string | null = null;
  do {
    const rendered = renderPage(db, e, file, cursor, pageLines);
    text += rendered.text;
    cursor = rendered.next;
    pages++;
  } while (cursor !== null);
  return { text, pages };
}

describe("an export's pages", () => {
  it("concatenate to the same file whatever their size, with lines sharing a date kept in id order", async () => {
    await runInDurableObject(ledger("export-pages"), (instance: TenantLedger) => {
      const db = instance.db;
      const connection = connectBank(db, "sandbox", "", AT);
      const lines = Array.from({ length: 23 }, (_, i) => line(`l${i}`, `2026-11-${String(1 + (i % 4)).padStart(2, "0")}`, i + 1));
      applyFeedPage(db, connection, page("", "1", { added: lines, accounts: [{ account_id: "acc", name: "Checking" }] }), AT);
      const e = openExport(db, face, { destinationId: null, destinations: "known", actor: "human:x", at: AT });
      expect(e.transactions).toBe(23);
      for (const file of EXPORT_FILES) {
        const whole = wholeFile(db, e, file, 1000);
        expect(whole.pages, file).toBe(1);
        for (const size of [1, 2, 5, 22, 23]) {
          const paged = wholeFile(db, e, file, size);
          expect(paged.text, `${file} in pages of ${size}`).toBe(whole.text);
          if (file !== "accounts.csv") expect(paged.pages).toBe(Math.max(1, Math.ceil(23 / size)));
        }
      }
      const pushed: unknown[][] = [];
      let cursor: string | null = null;
      do {
        const p = spreadsheetPage(db, e, cursor, 4);
        pushed.push(...p.rows);
        cursor = p.next;
      } while (cursor !== null);
      expect(pushed.map((r) => r[0])).toEqual([...pushed.map((r) => r[0] as string)].sort());
      expect(pushed).toHaveLength(23);
    });
  });

  it("see the books as they were: later lines, retractions and judgements are not in it", async () => {
    await runInDurableObject(ledger("export-as-of"), (instance: TenantLedger) => {
      const db = instance.db;
      const connection = connectBank(db, "sandbox", "", AT);
      applyFeedPage(db, connection, page("", "1", { added: [line("a", "2026-11-01", 5), line("b", "2026-11-02", 7)] }), AT);
      recordHumanJudgement(db, 1, "Rent", "human:x", AT);
      const before = openExport(db, face, { destinationId: null, destinations: "known", actor: "human:x", at: AT });
      const file = () => renderPage(db, before, "transactions.csv", null).text;
      const then = file();

      applyFeedPage(db, connection, page("1", "2", { added: [line("c", "2026-11-01", 9)], removed: [{ transaction_id: "b" }] }), AT);
      recordHumanJudgement(db, 1, "Meals", "human:x", AT);
      expect(file()).toBe(then);
      expect(then).toContain("LINE a,-5.00,Rent");
      expect(then).toContain("LINE b");

      const after = openExport(db, face, { destinationId: null, destinations: "known", actor: "human:x", at: AT });
      const now = renderPage(db, after, "transactions.csv", null).text;
      expect(now).toContain("LINE a,-5.00,Meals");
      expect(now).not.toContain("LINE b");
      expect(now).toContain("LINE c");
    });
  });

  it("keep to the face's floor as it was", async () => {
    await runInDurableObject(ledger("export-floor"), (instance: TenantLedger) => {
      const db = instance.db;
      applyFeedPage(db, connectBank(db, "sandbox", "", AT), page("", "1", { added: [line("old", "2026-10-01", 1), line("new", "2026-11-10", 2)] }), AT);
      const floored = openExport(db, faceFor({ tier: "paid", visibleFrom: "2026-11-01" }), { destinationId: null, destinations: "known", actor: "human:x", at: AT });
      expect(floored).toMatchObject({ transactions: 1, floor: "2026-11-01" });
      expect(renderPage(db, floored, "accounting-bank.csv", null).text).toBe("Date,Description,Amount\r\n11/10/2026,LINE new,-2.00\r\n");
    });
  });
});
