/**
 * Faults lose nothing. The sync watcher is killed after each page in turn, by a thrown
 * error and by the tenant's object being evicted, then the queue delivers again: the
 * books end equal to one clean run. A page served twice and a provider that resets its
 * cursor double nothing. And the tenant's object restarted between any two writes keeps
 * every write it acknowledged. Pages are applied several to a transaction; one the ledger
 * cannot apply holds back none of the pages before it. (An evicted object makes workerd print "outputGateBroken …
 * evicted by the test" and the watcher "sync watcher fault": expected here.)
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SandboxBank } from "../src/providers/bank/sandbox";
import { BankProviderError, type BankProvider, type FeedPage } from "../src/providers/bank/types";
import { currentCursor } from "../src/ledger/feed/feed-pages";
import { JOB_MAX_DELIVERIES } from "../src/jobs/job";
import type { TenantLedger } from "../src/ledger/tenant-ledger";
import { runSyncRequest } from "../src/watcher/watcher";
import { api, CHECKING, createTenant, deliver, rw, session, txn, type SandboxTenant } from "./fixtures/sandbox";
import { valueOf } from "../src/ledger/outcome";

const PAGE_SIZE = 3;

/** A history with every kind of change: new, pending, posted, modified, removed and duplicate lines. */
async function deliverHistory(t: SandboxTenant): Promise<void> {
  await deliver(t.tenant, {
    accounts: [CHECKING],
    added: [
      ...Array.from({ length: 8 }, (_, i) => txn(`f${i}`, { amount: 10 + i, name: i % 2 ? "COFFEE" : "RENT" })),
      txn("p1", { pending: true, amount: 7 }),
      txn("p2", { pending: true, amount: 8 }),
    ],
  });
  await deliver(t.tenant, {
    added: [txn("f1", { amount: 11, name: "COFFEE" }), txn("p1-posted", { pending_transaction_id: "p1", amount: 7 })],
    modified: [txn("f2", { amount: 99, name: "RENT" })],
    removed: [{ transaction_id: "p2" }],
  });
}

const ledgerStub = (t: SandboxTenant) => env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(t.tenant));

/** Resets the tenant's object; its storage stays. The next call starts a new instance. */
async function evict(t: SandboxTenant): Promise<void> {
  await runInDurableObject(ledgerStub(t), (_instance, state) => state.abort("evicted by the test")).catch(() => undefined);
}

async function recordRequest(t: SandboxTenant): Promise<number> {
  const request = valueOf(await ledgerStub(t).requestSync(t.tenant, `human:${t.tenant}`));
  if (request.state === "nothing-connected") throw new Error("a sandbox tenant has a bank");
  return request.requestId;
}

/** The books as a client sees them: every row of relation C and the summary. */
async function books(t: SandboxTenant) {
  const rows = (await api(rw(t), "/api/v1/transactions?per_page=100")).body.rows;
  const me = (await api(rw(t), "/api/v1/me")).body;
  return {
    rows,
    summary: { lines: me.lines, booked: me.booked, archived: me.archived, pending: me.pending, superseded: me.superseded, retracted: me.retracted, total_cents: me.total_cents, by_category: me.by_category },
  };
}

/** The watcher runs a request until it ends, delivery after delivery, as the queue would. */
async function runUntilDone(t: SandboxTenant, requestId: number, provider: () => BankProvider): Promise<void> {
  for (let delivery = 1; delivery <= 3; delivery++) {
    try {
      await runSyncRequest(env, { tenant: t.tenant, requestId }, delivery, provider(), null);
      return;
    } catch {
      // The queue delivers the message again.
    }
  }
  throw new Error("the request did not end within three deliveries");
}

async function cleanBooks() {
  const clean = await createTenant();
  await deliverHistory(clean);
  const requestId = await recordRequest(clean);
  await runUntilDone(clean, requestId, () => new SandboxBank(env.INDEX_DB, clean.tenant, PAGE_SIZE));
  return books(clean);
}

describe("a watcher killed after each page in turn", () => {
  // 16 changes in pages of 3: six pages.
  for (let killedAfter = 1; killedAfter <= 6; killedAfter++) {
    for (const how of ["a thrown error", "the object evicted"] as const) {
      it(`after page ${killedAfter}, by ${how}, ends with the books of one clean run`, async () => {
        const expected = await cleanBooks();
        const t = await createTenant();
        await deliverHistory(t);
        const requestId = await recordRequest(t);
        let firstDelivery = true;
        const provider = (): BankProvider => {
          const bank = new SandboxBank(env.INDEX_DB, t.tenant, PAGE_SIZE);
          const faulty = firstDelivery;
          firstDelivery = false;
          let served = 0;
          return {
            async syncPage(cursor: string): Promise<FeedPage> {
              // The watcher asks for page n+1 while it applies page n (or after, for the last).
              if (faulty && served === killedAfter) {
                if (how === "a thrown error") throw new BankProviderError("the watcher's host went away", true);
                await evict(t);
              }
              served++;
              return bank.syncPage(cursor);
            },
          };
        };
        await runUntilDone(t, requestId, provider);
        expect(await books(t)).toEqual(expected);
      });
    }
  }
});

describe("a provider that repeats itself", () => {
  it("serving a page twice doubles nothing", async () => {
    const expected = await cleanBooks();
    const t = await createTenant();
    await deliverHistory(t);
    const requestId = await recordRequest(t);
    const bank = new SandboxBank(env.INDEX_DB, t.tenant, PAGE_SIZE);
    let previous: FeedPage | undefined;
    let calls = 0;
    const stuttering: BankProvider = {
      async syncPage(cursor) {
        calls++;
        // The third answer is the second page again, as a retried HTTP response would be.
        if (calls === 3 && previous) return previous;
        previous = await bank.syncPage(cursor);
        return previous;
      },
    };
    await runUntilDone(t, requestId, () => stuttering);
    expect(await books(t)).toEqual(expected);
  });

  it("a cursor reset re-delivers everything, and the books keep each line once", async () => {
    const t = await createTenant();
    await deliverHistory(t);
    const first = await recordRequest(t);
    await runUntilDone(t, first, () => new SandboxBank(env.INDEX_DB, t.tenant, PAGE_SIZE));
    const before = await books(t);
    // The provider lost its place: it pages again from the beginning, whatever cursor it is given.
    const second = await recordRequest(t);
    let reset = false;
    const forgetful = (): BankProvider => {
      // Its pages are cut differently this time, so none of them is a replay of one applied.
      const bank = new SandboxBank(env.INDEX_DB, t.tenant, PAGE_SIZE + 1);
      return {
        syncPage(cursor) {
          const from = reset ? cursor : "";
          reset = true;
          return bank.syncPage(from);
        },
      };
    };
    await runUntilDone(t, second, forgetful);
    const after = await books(t);
    // Every line in the books is there once, with the same money; the repeats are archived twins.
    const inBooks = (b: typeof before) => b.rows.filter((r: any) => r.state === "in books").map((r: any) => [r.src_id, r.amount_cents, r.category]);
    expect(inBooks(after)).toEqual(inBooks(before));
    expect(after.summary).toMatchObject({ booked: before.summary.booked, total_cents: before.summary.total_cents, pending: before.summary.pending });
    expect(after.summary.archived).toBeGreaterThan(before.summary.archived);
  });

  it("a second sync_now while one waits records nothing new", async () => {
    const t = await createTenant();
    await deliverHistory(t);
    const one = await api(rw(t), "/api/v1/sync-now", { method: "POST" });
    const two = await api(session(t), "/api/v1/sync-now", { method: "POST" });
    expect(one.status).toBe(202);
    if (two.body.state === "already-pending") expect(two.body.request_id).toBe(one.body.request_id);
  });
});

describe("a run that stops part way", () => {
  /** A sandbox bank whose n-th answer (from 1) `answer` gives: the bank's own, altered, or a failure. */
  const bankWith = (t: SandboxTenant, answer: (n: number, cursor: string, own: () => Promise<FeedPage>) => Promise<FeedPage>): BankProvider => {
    const bank = new SandboxBank(env.INDEX_DB, t.tenant, PAGE_SIZE);
    let served = 0;
    return { syncPage: (cursor) => answer(++served, cursor, () => bank.syncPage(cursor)) };
  };
  const runOf = async (t: SandboxTenant, requestId: number) =>
    (await api(rw(t), "/api/v1/sync-history")).body.runs.find((r: any) => r.request_id === requestId);
  /** A tenant whose bank holds the history, with a sync request recorded. */
  const tenantWithRequest = async () => {
    const t = await createTenant();
    await deliverHistory(t);
    return { t, requestId: await recordRequest(t) };
  };
  /** Where the ledger's feed stands: the cursor after the last page applied. */
  const landedCursor = (t: SandboxTenant) => runInDurableObject(ledgerStub(t), (instance: TenantLedger) => currentCursor(instance.db, 1));

  it("a bank that fails while pages are held: the pages it served land before the run fails", async () => {
    const { t, requestId } = await tenantWithRequest();
    let cursorOfFailedFetch = "";
    // Two pages of three lines, far short of a transaction's worth, then the bank goes away.
    const failing = bankWith(t, async (n, cursor, own) => {
      if (n < 3) return own();
      cursorOfFailedFetch = cursor;
      throw new BankProviderError("the bank went away", true);
    });
    await expect(runSyncRequest(env, { tenant: t.tenant, requestId }, 1, failing, null)).rejects.toThrow("the bank went away");
    expect(await landedCursor(t)).toBe(cursorOfFailedFetch);
    expect(await runOf(t, requestId)).toMatchObject({ status: "failed", final: false, pages: 2 });
  });

  it("a page the ledger cannot apply: the pages before it land, though they shared its transaction", async () => {
    const { t, requestId } = await tenantWithRequest();
    let cursorOfBadPage = "";
    // A malformed fourth page let through (an adapter would refuse it).
    const malformed = bankWith(t, async (n, cursor, own) => {
      const page = await own();
      if (n !== 4) return page;
      cursorOfBadPage = cursor;
      return { ...page, added: [{ ...page.added[0]!, transaction_id: null as unknown as string }] };
    });
    // The queue's last delivery: the run is recorded as failed and final instead of thrown for another.
    await runSyncRequest(env, { tenant: t.tenant, requestId }, JOB_MAX_DELIVERIES, malformed, null);
    expect(await runOf(t, requestId)).toMatchObject({ status: "failed", final: true, pages: 3 });
    expect(await landedCursor(t)).toBe(cursorOfBadPage);
    expect((await books(t)).summary.lines).toBeGreaterThan(0);
  });
});

describe("a tenant object restarted between any two writes", () => {
  it("keeps every write it acknowledged", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: Array.from({ length: 6 }, (_, i) => txn(`w${i}`, { amount: i + 1, name: i % 2 ? "COFFEE" : "MYSTERY" })) });
    const requestId = await recordRequest(t);
    await runUntilDone(t, requestId, () => new SandboxBank(env.INDEX_DB, t.tenant, PAGE_SIZE));
    const ids: number[] = (await api(rw(t), "/api/v1/transactions")).body.rows.map((r: any) => r.src_id);
    const writes: [string, unknown, (body: any) => Promise<void>][] = [
      ["/api/v1/categorize", { side: "A", src_id: ids[0], category: "Meals" }, async () => expect((await api(rw(t), `/api/v1/transactions/A/${ids[0]}`)).body.row.category).toBe("Meals")],
      [`/api/v1/transactions/A/${ids[1]}/label`, { category: "Rent", reason: "lease" }, async () => expect((await api(rw(t), `/api/v1/transactions/A/${ids[1]}`)).body.row.category).toBe("Rent")],
      ["/api/v1/new-category", { name: "Coffee", header: "expense" }, async () => expect((await api(rw(t), "/api/v1/taxonomy")).body.categories.map((c: any) => c.name)).toContain("Coffee")],
      ["/api/v1/create-rule", { rule_key: "coffee", match_kind: "description_regex", match_value: "COFFEE", category: "Coffee" }, async () => expect((await api(rw(t), "/api/v1/rules")).body.rules.map((r: any) => r.rule_key)).toContain("coffee")],
      ["/api/v1/create-rule", { rule_key: "coffee", match_kind: "description_regex", match_value: "^COFFEE", category: "Coffee" }, async () => expect((await api(rw(t), "/api/v1/rules")).body.rules.find((r: any) => r.rule_key === "coffee").revision).toBe(2)],
      ["/api/v1/categorize", { side: "A", src_id: ids[2], category: "Supplies" }, async () => expect((await api(rw(t), `/api/v1/transactions/A/${ids[2]}`)).body.row.category).toBe("Supplies")],
      ["/api/v1/run-rules", undefined, async () => expect((await api(rw(t), "/api/v1/run-rules", { method: "POST" })).body.decided).toBe(0)],
    ];
    const checks: (() => Promise<void>)[] = [];
    for (const [path, body, check] of writes) {
      await evict(t);
      const answer = await api(rw(t), path, { method: "POST", body });
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
      checks.push(() => check(answer.body));
      await evict(t);
      // Every write acknowledged so far is there after the restart.
      for (const c of checks) await c();
    }
  });
});
