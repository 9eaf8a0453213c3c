import { describe, expect, it } from "vitest";
import { addDays, booksDate } from "../../clock";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, CHECKING, createTenant, deliver, rw, txn } from "../../../test/fixtures/sandbox";

const today = booksDate();

describe("get_usage", () => {
  it("meters volume as the larger of money in and money out over the trailing days", async () => {
    const t = await createTenant();
    await deliver(t.tenant, {
      accounts: [CHECKING],
      added: [
        txn("in", { date: today, amount: -300 }),
        txn("out", { date: addDays(today, -10), amount: 120 }),
        txn("old-out", { date: addDays(today, -45), amount: 900 }),
        txn("pending-in", { date: today, amount: -5000, pending: true }),
      ],
    });
    await landSandboxBank(t);
    const usage = await api(rw(t), "/api/v1/usage");
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual({
      connections: { in_use: 1, cap: 5, tier: "paid" },
      volume: {
        days: 30,
        from: addDays(today, -29),
        to: today,
        lines: 2,
        money_in_cents: 30000,
        money_out_cents: 12000,
        volume_cents: 30000,
      },
    });
    const year = await api(rw(t), "/api/v1/usage?days=60");
    expect(year.body.volume).toMatchObject({ days: 60, money_in_cents: 30000, money_out_cents: 102000, volume_cents: 102000 });
  });

  it("counts no connection for a tenant without a bank, against the free tier's cap", async () => {
    const t = await createTenant({ bank: false, tier: "free" });
    expect((await api(rw(t), "/api/v1/usage")).body.connections).toEqual({ in_use: 0, cap: 1, tier: "free" });
  });

  it("refuses a days value below 1", async () => {
    const t = await createTenant();
    const answer = await api(rw(t), "/api/v1/usage?days=0");
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].field).toBe("query.days");
  });
});
