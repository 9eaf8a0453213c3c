import { describe, expect, it } from "vitest";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, CHECKING, createTenant, deliver, ro, rw, txn } from "../../../test/fixtures/sandbox";

describe("list_accounts", () => {
  it("counts pending lines from the books: a line that has posted is not counted", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("p", { amount: 4, pending: true }), txn("q", { amount: 6, pending: true })] });
    await landSandboxBank(t);
    expect((await api(ro(t), "/api/v1/accounts")).body.accounts[0]).toMatchObject({ account_id: "acc_checking", pending: 2, booked: 0 });

    await deliver(t.tenant, { added: [txn("p-posted", { amount: 4, pending_transaction_id: "p" })], removed: [{ transaction_id: "p" }] });
    await landSandboxBank(t);
    expect((await api(ro(t), "/api/v1/accounts")).body.accounts).toEqual([
      { ...CHECKING, lines: 3, booked: 1, pending: 1, booked_cents: -400 },
    ]);
  });

  it("keeps the newest record of an account the bank renames", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("r1")] });
    await landSandboxBank(t);
    await deliver(t.tenant, { accounts: [{ ...CHECKING, name: "Operating Account" }] });
    await landSandboxBank(t);
    expect((await api(rw(t), "/api/v1/accounts")).body.accounts[0].name).toBe("Operating Account");
  });

  it("lists nothing for a tenant without lines, and never another tenant's accounts", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("s1")] });
    await landSandboxBank(t);
    const other = await createTenant();
    expect((await api(rw(other), "/api/v1/accounts")).body).toEqual({ accounts: [] });
  });
});
