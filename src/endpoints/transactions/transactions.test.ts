import { beforeAll, describe, expect, it } from "vitest";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, CHECKING, createTenant, deliver, ro, rw, session, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";

describe("list_transactions and get_transaction", () => {
  let t: SandboxTenant;
  let other: SandboxTenant;

  beforeAll(async () => {
    t = await createTenant();
    await deliver(t.tenant, {
      accounts: [CHECKING],
      added: [
        txn("a", { date: "2026-10-01", amount: -100, name: "Invoice 1001 PAID" }),
        txn("b", { date: "2026-10-15", amount: 12.5, name: "Blue Bottle Coffee" }),
        txn("c", { date: "2026-11-01", amount: 40, name: "BLUE SHIELD insurance" }),
        txn("d", { date: "2026-11-02", amount: 3, name: "coffee pending", pending: true }),
        txn("e", { date: "2026-11-03", amount: 7.25, name: "Parking" }),
      ],
    });
    await landSandboxBank(t);
    other = await createTenant();
    await deliver(other.tenant, { accounts: [CHECKING], added: [txn("z", { name: "OTHER TENANT SECRET" })] });
    await landSandboxBank(other);
  });

  it("lists newest first with page, per_page, total and total_cents", async () => {
    const all = await api(rw(t), "/api/v1/transactions");
    expect(all.status).toBe(200);
    expect(all.body.rows.map((r: any) => r.posted_on)).toEqual(["2026-11-03", "2026-11-02", "2026-11-01", "2026-10-15", "2026-10-01"]);
    expect(all.body).toMatchObject({ page: 1, per_page: 50, total: 5, total_cents: 10000 - 1250 - 4000 - 725 });
  });

  it("pages from 1 with total_cents over the whole matched set, never the page", async () => {
    const page2 = await api(rw(t), "/api/v1/transactions?per_page=2&page=2");
    expect(page2.body.rows.map((r: any) => r.posted_on)).toEqual(["2026-11-01", "2026-10-15"]);
    expect(page2.body).toMatchObject({ page: 2, per_page: 2, total: 5, total_cents: 10000 - 1250 - 4000 - 725 });
    const beyond = await api(rw(t), "/api/v1/transactions?per_page=2&page=9");
    expect(beyond.body).toMatchObject({ rows: [], total: 5 });
  });

  it("filters by inclusive dates, case-insensitive substring and exact category", async () => {
    const range = await api(rw(t), "/api/v1/transactions?from=2026-10-15&to=2026-11-01");
    expect(range.body.rows.map((r: any) => r.posted_on)).toEqual(["2026-11-01", "2026-10-15"]);
    expect(range.body.total_cents).toBe(-1250 - 4000);
    const coffee = await api(rw(t), "/api/v1/transactions?q=COFFEE");
    expect(coffee.body.rows.map((r: any) => r.description).sort()).toEqual(["Blue Bottle Coffee", "coffee pending"]);
    // The pending line is listed but in no total.
    expect(coffee.body.total_cents).toBe(-1250);
    for (const queue of ["uncategorised", "uncategorized"]) {
      expect((await api(rw(t), `/api/v1/transactions?cat=${queue}`)).body.total).toBe(5);
    }
    expect((await api(rw(t), "/api/v1/transactions?cat=Travel")).body).toMatchObject({ rows: [], total: 0, total_cents: 0 });
  });

  it("reads the same with a session and a read-only token", async () => {
    const asToken = await api(rw(t), "/api/v1/transactions");
    expect((await api(session(t), "/api/v1/transactions")).body).toEqual(asToken.body);
    expect((await api(ro(t), "/api/v1/transactions")).body).toEqual(asToken.body);
  });

  it("refuses bad filters with every failing field", async () => {
    const bad = await api(rw(t), "/api/v1/transactions?from=2026-02-30&to=yesterday&page=-1");
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["query.from", "query.page", "query.to"]);
  });

  it("gets one line with its raw record", async () => {
    const row = (await api(rw(t), "/api/v1/transactions?q=parking")).body.rows[0];
    const detail = await api(rw(t), `/api/v1/transactions/A/${row.src_id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.row).toEqual(row);
    expect(detail.body.raw).toEqual(txn("e", { date: "2026-11-03", amount: 7.25, name: "Parking" }));
    expect(detail.body.lineage).toEqual([expect.stringContaining("from bank transaction e as a new line"), "It is in the books."]);
  });

  it("answers 404 for a line the tenant does not hold, and never shows another tenant's line", async () => {
    expect((await api(rw(t), "/api/v1/transactions/A/999")).status).toBe(404);
    expect((await api(rw(t), "/api/v1/transactions/B/1")).status).toBe(404);
    const theirs = (await api(rw(other), "/api/v1/transactions")).body.rows[0];
    // The other tenant's line has an id this tenant also uses: each tenant sees only its own.
    const mine = await api(rw(t), `/api/v1/transactions/A/${theirs.src_id}`);
    expect(mine.body.row.description).not.toBe("OTHER TENANT SECRET");
    const search = await api(rw(t), "/api/v1/transactions?q=SECRET");
    expect(search.body.total).toBe(0);
    const empty = await createTenant();
    const notHeld = await api(rw(empty), `/api/v1/transactions/A/${theirs.src_id}`);
    expect(notHeld.status).toBe(404);
    expect(notHeld.body.detail).not.toContain("SECRET");
  });
});
