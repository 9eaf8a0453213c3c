import { describe, expect, it } from "vitest";
import { api, CHECKING, createTenant, deliver, rw, syncNow, txn } from "./fixtures/sandbox";

describe("smoke", () => {
  it("signs up, syncs through the queue and lists a line", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("t1", { amount: 12.5, name: "COFFEE" })] });
    const run = await syncNow(t);
    expect(run.status).toBe("ok");
    const list = await api(rw(t), "/api/v1/transactions");
    expect(list.status).toBe(200);
    expect(list.body.rows).toHaveLength(1);
    expect(list.body.rows[0]).toMatchObject({ side: "A", description: "COFFEE", amount_cents: -1250, state: "in books" });
  });
});
