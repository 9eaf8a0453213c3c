/**
 * End to end through the real path: sandbox sign-up, sandbox bank, sync-now, the queue,
 * the watcher, the ledger and the reads. One feed carries a pending line that posts, a
 * modification, a removal and a duplicate arrival.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, CHECKING, createTenant, deliver, judge, rw, syncNow, txn, type SandboxTenant } from "./fixtures/sandbox";

const SAVINGS = { account_id: "acc_savings", name: "Savings", mask: "0077", type: "depository", subtype: "savings" };

describe("a feed with every kind of change", () => {
  let t: SandboxTenant;
  let rows: Map<string, any>;
  const key = (r: any) => `${r.side}:${r.description}:${r.amount_cents}`;

  beforeAll(async () => {
    t = await createTenant();
    await deliver(t.tenant, {
      accounts: [CHECKING, SAVINGS],
      added: [
        txn("p1", { amount: 20, date: "2026-11-18", name: "PENDING CAFE", pending: true }),
        txn("t2", { amount: -1500, date: "2026-11-18", name: "CLIENT PAYMENT" }),
        txn("t3", { amount: 42.1, date: "2026-11-18", name: "OFFICE DEPOT" }),
        txn("t4", { amount: 9.99, date: "2026-11-18", name: "SPOTIFY" }),
        txn("t5", { amount: 5, date: "2026-11-18", name: "FEE", account_id: "acc_savings" }),
      ],
    });
    const first = await syncNow(t);
    expect(first).toMatchObject({ status: "ok", added: 5, modified: 0, removed: 0, duplicates: 0 });
    // Pages of 3 changes: 7 changes (2 accounts + 5 lines) take 3 pages.
    expect(first.pages).toBe(3);

    const accountsBefore = await api(rw(t), "/api/v1/accounts");
    expect(accountsBefore.body.accounts.find((a: any) => a.account_id === "acc_checking").pending).toBe(1);

    // A bookkeeper judges the pending line before it posts.
    const pending = (await api(rw(t), "/api/v1/transactions?q=PENDING")).body.rows[0];
    await judge(t, pending.src_id, "Meals");

    await deliver(t.tenant, {
      added: [
        txn("t1", { amount: 21, date: "2026-11-19", name: "CAFE", pending_transaction_id: "p1" }),
        txn("t2", { amount: -1500, date: "2026-11-18", name: "CLIENT PAYMENT" }),
      ],
      modified: [txn("t3", { amount: 42.5, date: "2026-11-18", name: "OFFICE DEPOT #12" })],
      removed: [{ transaction_id: "t4" }, { transaction_id: "p1" }],
    });
    const second = await syncNow(t);
    expect(second).toMatchObject({ status: "ok", added: 1, modified: 1, removed: 1, duplicates: 1 });
    // t4 is retracted; p1 was already superseded by its posted line, so its removal changes nothing.

    const list = await api(rw(t), "/api/v1/transactions?per_page=100");
    expect(list.status).toBe(200);
    rows = new Map(list.body.rows.map((r: any) => [key(r), r]));
  });

  it("serves every row with its state, in_books and exclude_reason", () => {
    const cafe = rows.get("A:CAFE:-2100");
    const pendingCafe = rows.get("A:PENDING CAFE:-2000");
    const depot = rows.get("A:OFFICE DEPOT:-4210");
    const depotNow = rows.get("A:OFFICE DEPOT #12:-4250");
    const payment = rows.get("A:CLIENT PAYMENT:150000");
    const twin = rows.get("B:CLIENT PAYMENT:150000");
    expect(rows.size).toBe(8);

    expect(pendingCafe).toMatchObject({ state: "superseded", in_books: false, exclude_reason: `superseded by A:${cafe.src_id}` });
    expect(cafe).toMatchObject({ state: "in books", in_books: true, exclude_reason: "", category: "Meals" });
    expect(depot).toMatchObject({ state: "superseded", in_books: false, exclude_reason: `superseded by A:${depotNow.src_id}` });
    expect(depotNow).toMatchObject({ state: "in books", in_books: true, exclude_reason: "", category: "uncategorised" });
    expect(rows.get("A:SPOTIFY:-999")).toMatchObject({ state: "retracted", in_books: false, exclude_reason: "retracted by the bank" });
    expect(payment).toMatchObject({ state: "in books", in_books: true });
    expect(twin).toMatchObject({ state: "archived", in_books: false, exclude_reason: `duplicate of A:${payment.src_id}` });
    expect(rows.get("A:FEE:-500")).toMatchObject({ state: "in books", account_id: "acc_savings" });
  });

  it("computes every number of get_me over those rows", async () => {
    const me = await api(rw(t), "/api/v1/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      lines: 8,
      booked: 4,
      archived: 1,
      pending: 0,
      superseded: 2,
      retracted: 1,
      total_cents: -2100 + 150000 - 4250 - 500,
      visible_from: null,
      vault_rows: 8,
      visible_rows: 8,
      auth: { kind: "token", scope: "read_write", actor: expect.stringMatching(new RegExp(`^token:${t.tenant}:[0-9a-f]{16}$`)) },
    });
    expect(me.body.by_category).toEqual([
      { category: "uncategorised", total_cents: 150000 - 4250 - 500, lines: 3 },
      { category: "Meals", total_cents: -2100, lines: 1 },
    ]);
    const booked = [...rows.values()].filter((r) => r.in_books);
    expect(me.body.total_cents).toBe(booked.reduce((sum, r) => sum + r.amount_cents, 0));
  });

  it("takes the accounts' pending counts from the books", async () => {
    const accounts = await api(rw(t), "/api/v1/accounts");
    expect(accounts.body.accounts).toEqual([
      { ...CHECKING, lines: 7, booked: 3, pending: 0, booked_cents: -2100 + 150000 - 4250 },
      { ...SAVINGS, lines: 1, booked: 1, pending: 0, booked_cents: -500 },
    ]);
  });

  it("tells each line's lineage in words and serves side A's raw record", async () => {
    const cafe = rows.get("A:CAFE:-2100");
    const pendingCafe = rows.get("A:PENDING CAFE:-2000");
    const detail = await api(rw(t), `/api/v1/transactions/A/${cafe.src_id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.row).toEqual(cafe);
    expect(detail.body.lineage.join(" ")).toContain(`supersedes A:${pendingCafe.src_id}`);
    expect(detail.body.raw).toEqual(txn("t1", { amount: 21, date: "2026-11-19", name: "CAFE", pending_transaction_id: "p1" }));

    const twin = rows.get("B:CLIENT PAYMENT:150000");
    const b = await api(rw(t), `/api/v1/transactions/B/${twin.src_id}`);
    expect(b.body.raw).toBeNull();
    expect(b.body.lineage.join(" ")).toContain("archived twin of A:");
  });

  it("lists the sync runs newest first with their counts", async () => {
    const history = await api(rw(t), "/api/v1/sync-history");
    expect(history.body.runs.map((r: any) => [r.added, r.modified, r.removed, r.duplicates])).toEqual([
      [1, 1, 1, 1],
      [5, 0, 0, 0],
    ]);
    expect(history.body.runs[0].run_id).toBeGreaterThan(history.body.runs[1].run_id);
  });

  it("changes nothing when synced again with nothing new", async () => {
    const run = await syncNow(t);
    expect(run).toMatchObject({ status: "ok", added: 0, modified: 0, removed: 0, duplicates: 0 });
    const me = await api(rw(t), "/api/v1/me");
    expect(me.body.vault_rows).toBe(8);
  });
});
