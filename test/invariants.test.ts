/** The invariant check the soak relies on: quiet on a healthy ledger, loud on each kind of break. */
import { env, runInDurableObject } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FeedPage } from "../src/providers/bank/types";
import { booksSummary } from "../src/ledger/books/reads";
import { applyFeedPage } from "../src/ledger/feed/feed-pages";
import { brokenInvariants } from "./support/invariants";
import { label, recordHumanJudgement } from "../src/ledger/books/judgements";
import { faceFor } from "../src/ledger/face";
import { createRule } from "../src/ledger/rules/rulebook";
import { decisions } from "../src/ledger/store/schema";
import { connectBank } from "../src/ledger/feed/sync-requests";
import type { TenantLedger } from "../src/ledger/tenant-ledger";

const AT = "2026-11-22T12:00:00.000Z";
const face = faceFor({ tier: "paid", visibleFrom: null });
const page: FeedPage = {
  cursorBefore: "",
  nextCursor: "1",
  hasMore: false,
  accounts: [],
  added: [
    { transaction_id: "a", account_id: "acc", amount: 4, date: "2026-11-20", name: "COFFEE" },
    { transaction_id: "b", account_id: "acc", amount: 9, date: "2026-11-20", name: "RENT" },
  ],
  modified: [],
  removed: [],
};

describe("brokenInvariants", () => {
  it("finds nothing on a ledger kept by the domain code, and names a gap and an overridden human", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("invariants"));
    await runInDurableObject(stub, (ledger: TenantLedger) => {
      const db = ledger.db;
      applyFeedPage(db, connectBank(db, "sandbox", "", AT), page, AT);
      recordHumanJudgement(db, 1, "Meals", "human:inv", AT);
      label(db, face, "A", 2, { category: "Rent", reason: "lease" }, "human:inv", AT);
      createRule(db, { rule_key: "coffee", match_kind: "description_exact", match_value: "COFFEE", category: "Meals" }, "human:inv", AT, null);
      expect(brokenInvariants(db)).toEqual([]);

      // Facts no domain path appends: a rule deciding after a human, and an op number skipped.
      db.insert(decisions).values({ aId: 1, category: "Fees", engine: "rule", ruleKey: "coffee", ruleRevision: 1, decidedAt: AT, recordedAt: AT }).run();
      db.insert(decisions).values({ seq: 99, aId: 2, category: "Rent", engine: "human", actor: "human:inv", op: "categorize", decidedAt: AT, recordedAt: AT }).run();
      expect(brokenInvariants(db)).toEqual([
        "op sequence numbers have gaps: 4 ops, the highest is 99",
        "1 machine decision(s) follow a human judgement on the same line",
      ]);
    });
  });

  it("names each kept figure of relation C that has left its derivation", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("invariants-figures"));
    await runInDurableObject(stub, (ledger: TenantLedger) => {
      const db = ledger.db;
      applyFeedPage(db, connectBank(db, "sandbox", "", AT), page, AT);
      // A read on a paid floor after the page's lines: the ledger keeps the figures before it.
      booksSummary(db, faceFor({ tier: "paid", visibleFrom: "2026-11-21" }));
      expect(brokenInvariants(db)).toEqual([]);
      // The kept copies are derived (no trigger refuses a write), so a stray write is possible and must be seen.
      db.run(sql`UPDATE c_month_totals SET money_in_cents = money_in_cents + 1`);
      db.run(sql`UPDATE c_totals SET amount_cents = amount_cents + 1 WHERE category = ''`);
      db.run(sql`UPDATE c_floor_totals SET lines = lines - 1`);
      expect(brokenInvariants(db)).toEqual([
        "relation C's running figures differ from its derivation in 2 figure(s)",
        "relation C's figures before the paid floor differ from its derivation in 2 figure(s)",
        "relation C's month figures differ from its derivation in 2 figure(s)",
      ]);
    });
  });
});
