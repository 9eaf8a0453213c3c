/**
 * run_rules over more lines than one statement or one transaction takes (decisions go in
 * statements of 1,000 and transactions of 2,000; new lines in runs of up to 500): every
 * matching line is decided once, in line order, and the ledger's invariants hold.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { asc } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { faceFor } from "./face";
import { applyFeedPage } from "./feed";
import { brokenInvariants } from "./invariants";
import { appendRevision, fromInput, runRules } from "./rules";
import { decisions } from "./schema";
import { connectBank } from "./sync";
import type { TenantLedger } from "./tenant-ledger";

const AT = "2026-11-22T12:00:00.000Z";
const LINES = 4_321;

describe("runRules across chunks", () => {
  it("decides every matching line once, in line order, whatever the chunk boundaries", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("run-rules-chunks"));
    await runInDurableObject(stub, (ledger: TenantLedger) => {
      const db = ledger.db;
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
      // A revision appended without deciding anything, as create_rules does.
      appendRevision(db, fromInput({ rule_key: "coffee", match_kind: "description_exact", match_value: "COFFEE", category: "Meals" }, null), "human:t", AT);

      const matching = Math.ceil(LINES / 3);
      expect(runRules(db, faceFor({ tier: "paid", visibleFrom: null }), AT)).toBe(matching);
      expect(runRules(db, null, AT)).toBe(0);
      const decided = db.select({ aId: decisions.aId, category: decisions.category }).from(decisions).orderBy(asc(decisions.seq)).all();
      expect(decided).toHaveLength(matching);
      expect(decided.map((d) => d.aId)).toEqual(Array.from({ length: matching }, (_, i) => 3 * i + 1));
      expect(new Set(decided.map((d) => d.category))).toEqual(new Set(["Meals"]));
      expect(brokenInvariants(db)).toEqual([]);
    });
  });
});
