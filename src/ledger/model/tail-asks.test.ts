/** The tail's work list: undecided lines it has not been asked about, oldest first, at most a batch. */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { applyFeedPage } from "../feed/feed-pages";
import { recordHumanJudgement } from "../books/judgements";
import { connectBank } from "../feed/sync-requests";
import { recordTailAnswers, tailCandidates } from "./tail-asks";
import type { TenantLedger } from "../tenant-ledger";

const AT = "2026-11-23T12:00:00.000Z";

describe("tailCandidates", () => {
  it("skips decided lines and lines the tail was asked about, oldest first, up to the limit", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("tail-candidates"));
    await runInDurableObject(stub, (instance: TenantLedger) => {
      const db = instance.db;
      const added = Array.from({ length: 6 }, (_, i) => ({ transaction_id: `t${i}`, account_id: "acc", amount: 3, date: "2026-11-20", name: `SHOP ${i}` }));
      applyFeedPage(db, connectBank(db, "sandbox", "", AT), { cursorBefore: "", nextCursor: "1", hasMore: false, accounts: [], added, modified: [], removed: [] }, AT);
      recordHumanJudgement(db, 2, "Meals", "human:tail", AT);
      // An abstention is remembered as an ask, not a decision: the line is not offered again.
      recordTailAnswers(db, [{ aId: 3, answer: null }], "fake-model", AT);
      expect(tailCandidates(db, 10).map((l) => l.aId)).toEqual([1, 4, 5, 6]);
      expect(tailCandidates(db, 2)).toEqual([
        { aId: 1, description: "SHOP 0", merchantName: null, amountCents: -300 },
        { aId: 4, description: "SHOP 3", merchantName: null, amountCents: -300 },
      ]);
    });
  });
});
