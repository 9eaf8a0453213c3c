/**
 * The face: a free-tier tenant sees only its 48-hour window, a paid tenant only what is
 * on or after its sign-up floor; every number agrees with the rows served, and the vault
 * keeps everything.
 */
import { describe, expect, it } from "vitest";
import { addDays, addHours, booksDate } from "../src/clock";
import { landSandboxBank } from "./fixtures/books";
import { api, CHECKING, createTenant, deliver, rw, txn } from "./fixtures/sandbox";

const today = booksDate();
const windowStart = booksDate(addHours(new Date(), -48));

describe("a free-tier tenant", () => {
  it("is served only its 48-hour window, and its numbers agree with its rows", async () => {
    const t = await createTenant({ tier: "free" });
    await deliver(t.tenant, {
      accounts: [CHECKING],
      added: [
        txn("today", { date: today, amount: -100, name: "SALE TODAY" }),
        txn("edge", { date: windowStart, amount: 30, name: "WINDOW EDGE" }),
        txn("old", { date: addDays(windowStart, -1), amount: 55, name: "JUST BEFORE" }),
        txn("older", { date: addDays(today, -40), amount: -999, name: "LONG AGO" }),
        txn("pend", { date: today, amount: 7, name: "PENDING TODAY", pending: true }),
      ],
    });
    await landSandboxBank(t);

    const list = await api(rw(t), "/api/v1/transactions");
    const served = list.body.rows;
    expect(served.map((r: any) => r.description).sort()).toEqual(["PENDING TODAY", "SALE TODAY", "WINDOW EDGE"]);
    const booked = served.filter((r: any) => r.in_books);
    expect(list.body.total).toBe(3);
    expect(list.body.total_cents).toBe(booked.reduce((s: number, r: any) => s + r.amount_cents, 0));

    const me = await api(rw(t), "/api/v1/me");
    expect(me.body).toMatchObject({ lines: 3, booked: 2, pending: 1, total_cents: 10000 - 3000, vault_rows: 5, visible_rows: 3 });

    const visibility = await api(rw(t), "/api/v1/visibility");
    expect(visibility.body).toEqual({
      visible_from: null,
      tier: "free",
      window_hours: 48,
      effective_from: windowStart,
      oldest_visible_row: { side: "A", src_id: expect.any(Number), posted_on: windowStart },
      vault_rows: 5,
      visible_rows: 3,
    });

    const usage = await api(rw(t), "/api/v1/usage?days=365");
    expect(usage.body.volume).toMatchObject({ lines: 2, money_in_cents: 10000, money_out_cents: 3000, volume_cents: 10000 });

    const hidden = (await api(rw(t), `/api/v1/transactions/A/${visibility.body.oldest_visible_row.src_id + 1}`));
    expect(hidden.status).toBe(404);
  });
});

describe("a paid tenant with a sign-up floor", () => {
  it("is served nothing before visible_from, and the floor never moves", async () => {
    const t = await createTenant({ visible_from: "2026-11-01" });
    await deliver(t.tenant, {
      accounts: [CHECKING],
      added: [
        txn("before", { date: "2026-10-31", amount: 10, name: "BEFORE FLOOR" }),
        txn("on", { date: "2026-11-01", amount: 20, name: "ON FLOOR" }),
      ],
    });
    await landSandboxBank(t);
    const visibility = await api(rw(t), "/api/v1/visibility");
    expect(visibility.body).toMatchObject({
      visible_from: "2026-11-01",
      tier: "paid",
      window_hours: null,
      effective_from: "2026-11-01",
      vault_rows: 2,
      visible_rows: 1,
    });
    const me = await api(rw(t), "/api/v1/me");
    expect(me.body).toMatchObject({ visible_from: "2026-11-01", lines: 1, total_cents: -2000 });
    const accounts = await api(rw(t), "/api/v1/accounts");
    expect(accounts.body.accounts[0]).toMatchObject({ lines: 1, booked_cents: -2000 });
  });

  it("without a floor sees the whole vault", async () => {
    const t = await createTenant();
    const visibility = await api(rw(t), "/api/v1/visibility");
    expect(visibility.body).toMatchObject({ visible_from: null, window_hours: null, effective_from: null, oldest_visible_row: null });
  });
});
