import { describe, expect, it } from "vitest";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, CHECKING, createTenant, deliver, rw, session, txn } from "../../../test/fixtures/sandbox";

describe("get_me", () => {
  it("answers zeros for a tenant with no lines yet", async () => {
    const t = await createTenant();
    const me = await api(session(t), "/api/v1/me");
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      lines: 0,
      booked: 0,
      archived: 0,
      pending: 0,
      superseded: 0,
      retracted: 0,
      total_cents: 0,
      by_category: [],
      auth: { kind: "session", scope: "read_write", kid: null, actor: `human:${t.tenant}`, role: "owner" },
      visible_from: null,
      vault_rows: 0,
      visible_rows: 0,
    });
  });

  it("counts a tenant's own lines only", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("m1", { amount: -5 }), txn("m2", { amount: 1, pending: true })] });
    await landSandboxBank(t);
    const other = await createTenant();
    expect((await api(rw(t), "/api/v1/me")).body).toMatchObject({ lines: 2, booked: 1, pending: 1, total_cents: 500 });
    expect((await api(rw(other), "/api/v1/me")).body).toMatchObject({ lines: 0, vault_rows: 0 });
  });
});
