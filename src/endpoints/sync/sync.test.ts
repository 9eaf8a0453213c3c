import { describe, expect, it } from "vitest";
import { api, CHECKING, createTenant, deliver, rw, session, syncNow, txn } from "../../../test/fixtures/sandbox";

describe("sync_now", () => {
  it("records one request and answers already-pending while it waits", async () => {
    const t = await createTenant();
    const first = await api(rw(t), "/api/v1/sync-now", { method: "POST" });
    const second = await api(session(t), "/api/v1/sync-now", { method: "POST", body: {} });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ state: "recorded", request_id: expect.any(Number), requested_at: expect.any(String) });
    expect(second.status).toBe(202);
    expect(second.body).toEqual({ ...first.body, state: "already-pending" });
  });

  it("records a new request once the last one has run", async () => {
    const t = await createTenant();
    const run = await syncNow(t);
    const next = await api(rw(t), "/api/v1/sync-now", { method: "POST" });
    expect(next.body).toMatchObject({ state: "recorded" });
    expect(next.body.request_id).toBeGreaterThan(run.request_id);
  });

  it("is 409 when no bank is connected", async () => {
    const t = await createTenant({ bank: false });
    const answer = await api(rw(t), "/api/v1/sync-now", { method: "POST" });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: "nothing_connected" });
    expect((await api(rw(t), "/api/v1/sync-history")).body.runs).toEqual([]);
  });
});

describe("list_sync_history", () => {
  it("lists runs newest first, honours limit and caps it at 200", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("x1")] });
    await syncNow(t);
    await deliver(t.tenant, { added: [txn("x2"), txn("x3")] });
    await syncNow(t);
    const history = await api(rw(t), "/api/v1/sync-history");
    expect(history.body.runs).toHaveLength(2);
    expect(history.body.runs[0]).toMatchObject({ status: "ok", final: true, error: null, attempt: 1, added: 2, pages: 1 });
    expect(history.body.runs[1]).toMatchObject({ added: 1, pages: 1 });
    expect(Date.parse(history.body.runs[0].finished_at)).toBeGreaterThanOrEqual(Date.parse(history.body.runs[0].started_at));
    expect((await api(rw(t), "/api/v1/sync-history?limit=1")).body.runs).toHaveLength(1);
    expect((await api(rw(t), "/api/v1/sync-history?limit=5000")).status).toBe(200);
    expect((await api(rw(t), "/api/v1/sync-history?limit=0")).status).toBe(400);
  });

  it("shows a tenant only its own runs", async () => {
    const t = await createTenant();
    await syncNow(t);
    const other = await createTenant();
    expect((await api(rw(other), "/api/v1/sync-history")).body.runs).toEqual([]);
  });
});
