/**
 * The watcher gives the local model a head start: after a whole-book run_rules, where the
 * first page's transaction would learn nearly the whole book afresh (holding the object),
 * the object learns it in turns before that page, while the bank serves it.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { applyFeedPage } from "../src/ledger/feed/feed-pages";
import { recordHumanJudgement } from "../src/ledger/books/judgements";
import { currentModel, trainFromLedger } from "../src/ledger/model/local-model";
import { appendRevision } from "../src/ledger/rules/rulebook";
import { fromInput } from "../src/ledger/rules/rule";
import { runRules } from "../src/ledger/rules/run-rules";
import { connectedBank } from "../src/ledger/feed/sync-requests";
import type { TenantLedger } from "../src/ledger/tenant-ledger";
import type { BankProvider, FeedPage } from "../src/providers/bank/types";
import { runSyncRequest } from "../src/watcher/watcher";
import { createTenant, eventually } from "./fixtures/sandbox";
import { valueOf } from "../src/ledger/outcome";

const AT = "2026-11-22T12:00:00.000Z";
// Half of them decided by run_rules: 5,000 lines, where learning afresh begins to pay (local-model.ts).
const LINES = 10_000;

it("has the object learn the model before the first page after a whole-book run_rules", async () => {
  const t = await createTenant();
  const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(t.tenant));
  await runInDurableObject(stub, async (ledger: TenantLedger) => {
    const db = ledger.db;
    const connection = connectedBank(db)!.id;
    for (let from = 0; from < LINES; from += 500) {
      const added = Array.from({ length: 500 }, (_, i) => ({
        transaction_id: `w${from + i}`,
        account_id: "acc",
        amount: 10,
        date: "2026-11-20",
        name: `${(from + i) % 2 ? "BLUE BOTTLE" : "SHELL OIL"} #${from + i}`,
      }));
      applyFeedPage(db, connection, { cursorBefore: String(from), nextCursor: String(from + 500), hasMore: false, accounts: [], added, modified: [], removed: [] }, AT);
    }
    recordHumanJudgement(db, 1, "Fuel", "human:t", AT);
    currentModel(db, undefined); // kept, as a day's sync leaves it
    appendRevision(db, fromInput({ rule_key: "coffee", match_kind: "description_regex", match_value: "^blue bottle", category: "Meals" }, null), "human:t", AT);
    expect(await runRules(db, null, AT)).toBe(LINES / 2);
  });

  const newestKept = () =>
    runInDurableObject(stub, (ledger: TenantLedger) => {
      const kept = ledger.db.get<{ seq: number } | undefined>(sql`SELECT through_seq AS seq FROM model_state`)?.seq;
      return kept === ledger.db.get<{ seq: number }>(sql`SELECT max(seq) AS seq FROM decisions`).seq || undefined;
    });
  // The bank serves its page only once the model kept in the ledger has learnt every decision:
  // nothing but the watcher's head start can do that before a page lands.
  const bank: BankProvider = {
    async syncPage(cursor): Promise<FeedPage> {
      await eventually("the model learnt ahead of the first page", newestKept);
      return { cursorBefore: cursor, nextCursor: `${cursor}+`, hasMore: false, accounts: [], added: [], modified: [], removed: [] };
    },
  };
  const request = valueOf(await stub.requestSync(t.tenant, `human:${t.tenant}`));
  if (request.state !== "recorded") throw new Error(`expected a new request, got ${request.state}`);
  await runSyncRequest(env, { tenant: t.tenant, requestId: request.requestId }, 1, bank, null);

  await runInDurableObject(stub, (ledger: TenantLedger) => {
    const kept = currentModel(ledger.db, undefined);
    expect(kept.model.rows()).toEqual(trainFromLedger(ledger.db).model.rows());
    expect(kept.model.size).toBe(LINES / 2 + 1);
  });
});
