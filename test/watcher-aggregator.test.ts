/**
 * The watcher running a tenant's sync through the aggregator adapter, against the fake
 * aggregator of test/fixtures/fake-aggregator.ts (a small Hono app speaking
 * `POST /transactions/sync`), into the tenant's real Durable Object ledger; checked
 * through the public API.
 *
 * How a request is made, deterministically: `POST /api/v1/sync-now` (and the ledger's
 * `requestSync` RPC behind it) also sends a queue message, whose real consumer would run
 * the same request with the connection's own bank; whichever of it and this test ran
 * first would decide the outcome. So the request is recorded on the ledger with the
 * domain function the RPC calls (`requestSync` in src/ledger/feed/sync-requests.ts), inside the Durable
 * Object via `runInDurableObject`: no message is sent, and only this test runs it.
 * `sync-now` then answers `already-pending` with that very request id (and, pending,
 * queues nothing), which checks that the request is the tenant's real pending one.
 * The tenant is signed up without the sandbox bank and connected to the aggregator with
 * the fake's access token, so the plan the watcher reads (connection, cursor) is the
 * aggregator connection's own.
 */
import { settle } from "../src/errors";
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { requestSync } from "../src/ledger/feed/sync-requests";
import { BankProviderError } from "../src/providers/bank/types";
import { runSyncRequest } from "../src/watcher/watcher";
import { ACCESS_TOKEN, aggregatorError, FakeAggregator, mutationDuringPagination } from "./fixtures/fake-aggregator";
import { api, CHECKING, createTenant, rw, txn, type SandboxTenant } from "./fixtures/sandbox";

/** Seven lines in aggregator sign (positive = money out), and the cents the books show. */
const LINES = [
  txn("a1", { amount: 12.34, name: "SQ *BLUE BOTTLE" }),
  txn("a2", { amount: -1500, name: "CLIENT PAYMENT" }),
  txn("a3", { amount: 42.1, name: "OFFICE DEPOT" }),
  txn("a4", { amount: 9.99, name: "SPOTIFY" }),
  txn("a5", { amount: 0.29, name: "FEE", date: "2026-11-21" }),
  txn("a6", { amount: -0.07, name: "INTEREST", date: "2026-11-21" }),
  txn("a7", { amount: 1234.56, name: "RENT", date: "2026-11-19" }),
];
const BOOKS_CENTS: Record<string, number> = {
  "SQ *BLUE BOTTLE": -1234,
  "CLIENT PAYMENT": 150000,
  "OFFICE DEPOT": -4210,
  SPOTIFY: -999,
  FEE: -29,
  INTEREST: 7,
  RENT: -123456,
};

function feedOfSevenLines(): FakeAggregator {
  const fake = new FakeAggregator();
  fake.accounts.push(CHECKING);
  fake.add("added", ...LINES);
  return fake;
}

function ledgerOf(t: SandboxTenant) {
  return env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(t.tenant));
}

/** A tenant connected to the aggregator, with one pending sync request and no queue message for it. */
async function tenantWithRequest(accessToken = ACCESS_TOKEN): Promise<{ t: SandboxTenant; message: { tenant: string; requestId: number } }> {
  const t = await createTenant({ bank: false });
  const ledger = ledgerOf(t);
  settle(await ledger.connectBank("aggregator", accessToken));
  const outcome = await runInDurableObject(ledger, (instance) => requestSync(instance.db, `human:${t.tenant}`, new Date()));
  if (outcome.state !== "recorded") throw new Error(`no request recorded: ${outcome.state}`);
  const syncNow = await api(rw(t), "/api/v1/sync-now", { method: "POST" });
  expect(syncNow.status).toBe(202);
  expect(syncNow.body).toMatchObject({ state: "already-pending", request_id: outcome.requestId });
  return { t, message: { tenant: t.tenant, requestId: outcome.requestId } };
}

async function runsOf(t: SandboxTenant, requestId: number): Promise<any[]> {
  const history = await api(rw(t), "/api/v1/sync-history");
  expect(history.status).toBe(200);
  return history.body.runs.filter((r: any) => r.request_id === requestId).reverse();
}

/** The tenant's rows, in an order and form that do not depend on ids. */
async function linesOf(t: SandboxTenant): Promise<string[]> {
  const list = await api(rw(t), "/api/v1/transactions?per_page=100");
  expect(list.status).toBe(200);
  return list.body.rows
    .map((r: any) => `${r.side} ${r.state} ${r.account_id} ${r.posted_on} ${r.description} ${r.amount_cents}`)
    .sort();
}

describe("the watcher through the aggregator adapter", () => {
  it("syncs every page into the ledger with amounts in the books' sign", async () => {
    const { t, message } = await tenantWithRequest();
    const fake = feedOfSevenLines();
    await runSyncRequest(env, message, 1, fake.bank());

    expect(fake.cursors).toEqual([undefined, "c-3", "c-6"]);
    const list = await api(rw(t), "/api/v1/transactions?per_page=100");
    expect(list.body.total).toBe(7);
    const cents = Object.fromEntries(list.body.rows.map((r: any) => [r.description, r.amount_cents]));
    expect(cents).toEqual(BOOKS_CENTS);
    for (const row of list.body.rows) expect(row).toMatchObject({ side: "A", state: "in books", in_books: true, account_id: "acc_checking" });
    expect(list.body.total_cents).toBe(Object.values(BOOKS_CENTS).reduce((a, b) => a + b, 0));

    const runs = await runsOf(t, message.requestId);
    expect(runs).toEqual([
      expect.objectContaining({ attempt: 1, status: "ok", final: true, error: null, pages: 3, added: 7, modified: 0, removed: 0, duplicates: 0 }),
    ]);
    const accounts = await api(rw(t), "/api/v1/accounts");
    expect(accounts.body.accounts).toEqual([expect.objectContaining({ ...CHECKING, lines: 7, booked: 7 })]);

    // The request is over: another delivery of its message runs nothing.
    await runSyncRequest(env, message, 2, fake.bank());
    expect(fake.cursors).toHaveLength(3);
    expect(await runsOf(t, message.requestId)).toHaveLength(1);
  });

  it("takes a bank's fraction of a cent and its control characters without stopping the feed: cents rounded, text as received, the record verbatim", async () => {
    // Deliberate: the sandbox bank refuses 12.346 (our own input), but a real bank's page
    // cannot be sent back, and refusing it would stop the tenant's feed for good.
    const { t, message } = await tenantWithRequest();
    const fake = new FakeAggregator();
    fake.accounts.push(CHECKING);
    fake.add("added", txn("p1", { amount: 12.346, name: "PAYROLL\u0000FEE\u009b" }), txn("p2", { amount: -0.004, name: "INTEREST" }));
    await runSyncRequest(env, message, 1, fake.bank());
    expect((await runsOf(t, message.requestId))[0]).toMatchObject({ status: "ok", added: 2 });
    const fee = await api(rw(t), "/api/v1/transactions/A/1");
    expect(fee.body.row).toMatchObject({ amount_cents: -1235, description: "PAYROLL\u0000FEE\u009b" });
    expect(fee.body.raw).toMatchObject({ amount: 12.346, name: "PAYROLL\u0000FEE\u009b" });
    expect((await api(rw(t), "/api/v1/transactions/A/2")).body.row.amount_cents).toBe(0);
  });

  it("starts the next request from the cursor the ledger applied last", async () => {
    const { t, message } = await tenantWithRequest();
    const fake = feedOfSevenLines();
    await runSyncRequest(env, message, 1, fake.bank());

    fake.add("modified", txn("a3", { amount: 42.5, name: "OFFICE DEPOT #12" }));
    fake.add("removed", { transaction_id: "a4" });
    const next = await runInDurableObject(ledgerOf(t), (instance) => requestSync(instance.db, `human:${t.tenant}`, new Date()));
    if (next.state !== "recorded") throw new Error(`no request recorded: ${next.state}`);
    await runSyncRequest(env, { tenant: t.tenant, requestId: next.requestId }, 1, fake.bank());

    expect(fake.cursors).toEqual([undefined, "c-3", "c-6", "c-7"]);
    expect(await runsOf(t, next.requestId)).toEqual([
      expect.objectContaining({ status: "ok", final: true, pages: 1, added: 0, modified: 1, removed: 1 }),
    ]);
    const me = await api(rw(t), "/api/v1/me");
    expect(me.body).toMatchObject({ lines: 8, booked: 6, superseded: 1, retracted: 1 });
  });

  it("resumes a run that failed on page 2 and ends with the lines of a clean run", async () => {
    const clean = await tenantWithRequest();
    await runSyncRequest(env, clean.message, 1, feedOfSevenLines().bank());

    const { t, message } = await tenantWithRequest();
    const fake = feedOfSevenLines();
    // Page 2 fails once with a server error; the aggregator is fine afterwards.
    fake.answerCall(2, () => aggregatorError(500, "API_ERROR", "INTERNAL_SERVER_ERROR", "an unexpected error occurred"));

    const first = await runSyncRequest(env, message, 1, fake.bank()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(first).toBeInstanceOf(BankProviderError);
    expect((first as BankProviderError).retryable).toBe(true);
    const afterFailure = await runsOf(t, message.requestId);
    expect(afterFailure).toEqual([
      expect.objectContaining({
        attempt: 1,
        status: "failed",
        final: false,
        pages: 1,
        added: 3,
        error: "the aggregator refused the sync (INTERNAL_SERVER_ERROR: an unexpected error occurred)",
      }),
    ]);
    expect((await api(rw(t), "/api/v1/transactions")).body.total).toBe(3);

    await runSyncRequest(env, message, 2, fake.bank());
    // The retry asked for the page after the last one applied, not from the beginning.
    expect(fake.cursors).toEqual([undefined, "c-3", "c-3", "c-6"]);
    const runs = await runsOf(t, message.requestId);
    expect(runs).toEqual([
      expect.objectContaining({ attempt: 1, status: "failed", final: false, pages: 1, added: 3 }),
      expect.objectContaining({ attempt: 2, status: "ok", final: true, error: null, pages: 2, added: 4, duplicates: 0 }),
    ]);

    const lines = await linesOf(t);
    expect(lines).toHaveLength(7);
    expect(lines).toEqual(await linesOf(clean.t));
    expect((await api(rw(t), "/api/v1/me")).body).toMatchObject({ lines: 7, booked: 7, archived: 0, vault_rows: 7 });
  });

  it("resumes after the network fails on page 3", async () => {
    const { t, message } = await tenantWithRequest();
    const fake = feedOfSevenLines();
    fake.networkDownOnFetch = 3;
    await expect(runSyncRequest(env, message, 1, fake.bank())).rejects.toThrow(
      "the aggregator could not be reached: TypeError: Network connection lost.",
    );
    await runSyncRequest(env, message, 2, fake.bank());
    // Fetch 3 never reached the server; fetch 4 asked again from the end of page 2.
    expect(fake.cursors).toEqual([undefined, "c-3", "c-6"]);
    expect((await runsOf(t, message.requestId)).map((r) => [r.attempt, r.status, r.final, r.pages, r.added])).toEqual([
      [1, "failed", false, 2, 6],
      [2, "ok", true, 1, 1],
    ]);
    expect(await linesOf(t)).toHaveLength(7);
  });

  it("resumes after the feed changed while being paged, taking the change as a modification", async () => {
    const { t, message } = await tenantWithRequest();
    const fake = feedOfSevenLines();
    // Page 2 of delivery 1: the feed changed under the pagination.
    fake.answerCall(2, mutationDuringPagination);
    await expect(runSyncRequest(env, message, 1, fake.bank())).rejects.toThrow(BankProviderError);
    // The change: a2, served on page 1 and applied, is corrected.
    fake.add("modified", txn("a2", { amount: -1600, name: "CLIENT PAYMENT CORRECTED" }));

    await runSyncRequest(env, message, 2, fake.bank());
    // Delivery 2 paged on from the end of page 1, the last applied cursor.
    expect(fake.cursors).toEqual([undefined, "c-3", "c-3", "c-6"]);
    expect(await runsOf(t, message.requestId)).toEqual([
      expect.objectContaining({
        attempt: 1,
        status: "failed",
        final: false,
        pages: 1,
        added: 3,
        error:
          "the aggregator refused the sync (TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION: underlying transaction data changed since the last page was fetched)",
      }),
      expect.objectContaining({ attempt: 2, status: "ok", final: true, error: null, pages: 2, added: 4, modified: 1, removed: 0, duplicates: 0 }),
    ]);

    // Every line once; a2 in its corrected form, its first form superseded.
    const list = await api(rw(t), "/api/v1/transactions?per_page=100");
    const byState = (state: string) =>
      Object.fromEntries(list.body.rows.filter((r: any) => r.state === state).map((r: any) => [r.description, r.amount_cents]));
    const { "CLIENT PAYMENT": _, ...unchanged } = BOOKS_CENTS;
    expect(byState("in books")).toEqual({ ...unchanged, "CLIENT PAYMENT CORRECTED": 160000 });
    expect(byState("superseded")).toEqual({ "CLIENT PAYMENT": 150000 });
    expect(list.body.total).toBe(8);
    expect((await api(rw(t), "/api/v1/me")).body).toMatchObject({ lines: 8, booked: 7, superseded: 1, retracted: 0, archived: 0 });
  });

  it("ends the request at once on a refusal that a retry cannot fix", async () => {
    const { t, message } = await tenantWithRequest("access-revoked");
    const fake = feedOfSevenLines();
    await expect(runSyncRequest(env, message, 1, fake.bank({ accessToken: "access-revoked" }))).resolves.toBeUndefined();

    expect(fake.cursors).toEqual([undefined]);
    expect(await runsOf(t, message.requestId)).toEqual([
      expect.objectContaining({
        attempt: 1,
        status: "failed",
        final: true,
        pages: 0,
        added: 0,
        error: "the aggregator refused the sync (INVALID_ACCESS_TOKEN: provided access token is in an invalid format)",
      }),
    ]);
    expect((await api(rw(t), "/api/v1/transactions")).body.total).toBe(0);
    // Over: a later delivery runs nothing.
    await runSyncRequest(env, message, 2, fake.bank({ accessToken: "access-revoked" }));
    expect(fake.cursors).toHaveLength(1);
  });

  it("keeps the pages applied before a non-retryable refusal on a later page", async () => {
    const { t, message } = await tenantWithRequest();
    const fake = feedOfSevenLines();
    fake.answerCall(3, () => aggregatorError(400, "ITEM_ERROR", "ITEM_LOGIN_REQUIRED", "the login details have changed"));
    await runSyncRequest(env, message, 1, fake.bank());
    expect(await runsOf(t, message.requestId)).toEqual([
      expect.objectContaining({
        status: "failed",
        final: true,
        pages: 2,
        added: 6,
        error: "the aggregator refused the sync (ITEM_LOGIN_REQUIRED: the login details have changed)",
      }),
    ]);
    expect((await api(rw(t), "/api/v1/transactions")).body.total).toBe(6);
  });

  it("gives up on a retryable failure at the last delivery without throwing", async () => {
    const { t, message } = await tenantWithRequest();
    const fake = feedOfSevenLines();
    fake.intercept = () => aggregatorError(429, "RATE_LIMIT_EXCEEDED", "TRANSACTIONS_SYNC_LIMIT");
    await expect(runSyncRequest(env, message, 4, fake.bank())).resolves.toBeUndefined();
    expect(await runsOf(t, message.requestId)).toEqual([
      expect.objectContaining({ status: "failed", final: true, pages: 0, error: "the aggregator refused the sync (TRANSACTIONS_SYNC_LIMIT)" }),
    ]);
  });
});
