/**
 * The job queue's dead-letter queue. A job whose every delivery fails without recording
 * its own end (here: the tenant's object failing each call that plans the run, as a reset
 * or an outage of its storage would) is moved by the real queue, after JOB_MAX_DELIVERIES
 * deliveries, to the dead-letter queue named in wrangler.toml; its consumer records the
 * failure on the tenant (a final failed sync run in the sync history, a failed push, a
 * failed text, a day's failed oracle run) and tells the owner in the thread, once however
 * often it is delivered.
 * (workerd prints each failing call of the first test as "uncaught exception ... the
 * tenant's storage is unavailable", and miniflare the move to the dead-letter queue: expected.)
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runTenantDay } from "../src/cron/daily";
import { ledgerOf } from "../src/env";
import { settle } from "../src/errors";
import { setOracleSource } from "../src/index-db/oracle";
import { JOB_MAX_DELIVERIES, type Job } from "../src/jobs/job";
import { faceFor } from "../src/ledger/face";
import { JOB_QUEUE_ACTOR } from "../src/ledger/given-up-jobs";
import { postTextedNotice } from "../src/ledger/messages";
import { TenantLedger } from "../src/ledger/tenant-ledger";
import worker from "../src/worker";
import { page } from "./fixtures/workspace";
import { api, CHECKING, createTenant, deliver, eventually, ro, rw, syncNow, txn, type SandboxTenant } from "./fixtures/sandbox";

const DEAD_LETTERS = "ledger-jobs-dead";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Delivers dead letters to the Worker as the dead-letter queue's consumer gets them. */
async function deliverDead(bodies: Job[], queue = DEAD_LETTERS) {
  const batch = createMessageBatch(
    queue,
    bodies.map((body, i) => ({ id: `dead-${i}`, body, attempts: 1, timestamp: new Date() })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch<Job>, env, ctx);
  return getQueueResult(batch, ctx);
}

const thread = async (t: SandboxTenant) => (await api(ro(t), "/api/v1/messages")).body.messages as any[];
const noticesOfTheQueue = async (t: SandboxTenant) => (await thread(t)).filter((m) => m.channel === "notice" && /job queue gave up/.test(m.body));
const runsOf = async (t: SandboxTenant, requestId: number) => ((await api(rw(t), "/api/v1/sync-history")).body.runs as any[]).filter((r) => r.request_id === requestId);

async function tenantWithLines(): Promise<SandboxTenant> {
  const t = await createTenant();
  await deliver(t.tenant, { accounts: [CHECKING], added: [txn("dl-1", { amount: 12 }), txn("dl-2", { amount: 30 })] });
  return t;
}

describe("a job whose every delivery fails, on the real queue", () => {
  it("reaches the dead-letter queue after JOB_MAX_DELIVERIES deliveries: its request ends as a final failed run, the owner is told, and a new sync can be asked for", async () => {
    const t = await tenantWithLines();
    const tries: number[] = [];
    const plan = TenantLedger.prototype.planSyncRun;
    vi.spyOn(TenantLedger.prototype, "planSyncRun").mockImplementation(function (this: TenantLedger, requestId: number) {
      tries.push(requestId);
      throw new Error("the tenant's storage is unavailable");
    });

    const asked = await api(rw(t), "/api/v1/sync-now", { method: "POST" });
    expect(asked.status).toBe(202);
    const requestId = asked.body.request_id as number;

    const [run] = await eventually("the dead letter's run", async () => {
      const runs = await runsOf(t, requestId);
      return runs.some((r) => r.final) ? runs : undefined;
    }, 30_000);
    expect(tries).toEqual(Array(JOB_MAX_DELIVERIES).fill(requestId));
    expect(run).toMatchObject({ request_id: requestId, attempt: 1, status: "failed", final: true, pages: 0, added: 0 });
    expect(run.error).toBe(`the job queue gave up on it after ${JOB_MAX_DELIVERIES} deliveries, none of which could finish`);
    const [notice] = await noticesOfTheQueue(t);
    expect(notice).toMatchObject({ direction: "out", channel: "notice", status: "posted" });
    expect(notice.body).toMatch(/^The bank sync asked for at \S+ did not run: the job queue gave up on it after 4 deliveries/);
    expect((await api(rw(t), "/api/v1/me")).body.lines).toBe(0);

    // The request is over: a new one is taken at once (not "already pending"), and runs.
    vi.mocked(TenantLedger.prototype.planSyncRun).mockImplementation(plan);
    const again = await syncNow(t);
    expect(again).toMatchObject({ status: "ok", added: 2, final: true });
    expect(again.request_id).not.toBe(requestId);
    expect(await noticesOfTheQueue(t)).toHaveLength(1);
  }, 45_000);
});

describe("a day's run whose every delivery fails, on the real queue", () => {
  it("ends as the day's failed oracle run, read through the verdicts API and told to the owner once; the next day's run files its verdict", async () => {
    const t = await createTenant();
    await setOracleSource(env.INDEX_DB, t.tenant, "https://oracle.test/pnl.json?key=k1", null, new Date());
    const tries: string[] = [];
    const lookUp = TenantLedger.prototype.oracleRunAt;
    vi.spyOn(TenantLedger.prototype, "oracleRunAt").mockImplementation(function (this: TenantLedger, ranAt: string) {
      tries.push(ranAt);
      throw new Error("the tenant's storage is unavailable");
    });

    const scheduledAt = "2026-11-21T11:00:00.000Z";
    await env.JOB_QUEUE.send({ kind: "daily", tenant: t.tenant, scheduledAt } satisfies Job);
    const history = async () => (await api(ro(t), "/api/v1/reports/parity-verdicts")).body;
    const [failed] = await eventually("the day's failed run in the history", async () => ((await history()).verdicts.length > 0 ? (await history()).verdicts : undefined), 30_000);
    expect(tries).toEqual(Array(JOB_MAX_DELIVERIES).fill(scheduledAt));
    const why = `the job queue gave up on it after ${JOB_MAX_DELIVERIES} deliveries, none of which could finish`;
    expect(failed).toEqual({ status: "failed", as_of: "2026-11-21", ran_at: scheduledAt, recorded_at: expect.any(String), error: why, oracle_url: "https://oracle.test/pnl.json", recorded_by: JOB_QUEUE_ACTOR });
    const day = await api(ro(t), "/api/v1/reports/parity-verdicts/2026-11-21");
    expect(day.status).toBe(404);
    expect(day.body.detail).toBe(`No parity verdict is filed for 2026-11-21: the oracle run failed on 2026-11-21: ${why}`);
    const [notice] = await noticesOfTheQueue(t);
    expect(notice.body).toBe(`The daily run of 2026-11-21 did not finish for these books: ${why}. No parity verdict was filed for that day: its oracle run is recorded as failed. Lines waiting for the tail wait for the next run.`);
    // The parity status on /settings, and the verdicts' table of the reports page, say so too.
    expect((await page(t, "/settings")).html).toContain(`for 2026-11-21: failed: ${why}`);
    expect((await page(t, "/app/reports")).html).toContain(`No verdict: the oracle run failed: ${why}`);

    // The dead letter coming again records nothing more.
    await deliverDead([{ kind: "daily", tenant: t.tenant, scheduledAt }]);
    expect((await history()).total).toBe(1);
    expect(await noticesOfTheQueue(t)).toHaveLength(1);

    // The next day's run, the object well again, files its verdict as any day's.
    vi.mocked(TenantLedger.prototype.oracleRunAt).mockImplementation(lookUp);
    const own = (await api(rw(t), "/api/v1/reports/pnl-rolling?as_of=2026-11-22&form=full")).body;
    const fetchOracle: typeof fetch = async () => Response.json(own);
    expect((await runTenantDay(env, t.tenant, new Date("2026-11-22T11:00:00Z"), { fetchOracle, tail: null })).parity).toBe("filed");
    expect((await history()).verdicts).toEqual([expect.objectContaining({ status: "filed", as_of: "2026-11-22", revision: 1, match: true }), failed]);
  }, 45_000);
});

describe("the dead-letter queue's consumer", () => {
  it("records a sync request once, however often its dead letter comes, and nothing for a request already over", async () => {
    const t = await tenantWithLines();
    const done = await syncNow(t);
    const ledger = ledgerOf(env, t.tenant);
    const request = settle(await ledger.requestSync(t.tenant, `human:${t.tenant}`));
    if (request.state === "nothing-connected") throw new Error("a sandbox tenant has a bank");
    // Nothing consumes it meanwhile but the queue's own delivery, which may run first: then the letter finds it over.
    const result = await deliverDead([
      { kind: "sync", tenant: t.tenant, requestId: done.request_id },
      { kind: "sync", tenant: t.tenant, requestId: request.requestId },
      { kind: "sync", tenant: t.tenant, requestId: request.requestId },
    ]);
    expect(result.explicitAcks.sort()).toEqual(["dead-0", "dead-1", "dead-2"]);
    expect(result.retryMessages).toEqual([]);
    expect((await runsOf(t, done.request_id)).filter((r) => r.final)).toHaveLength(1);
    const finals = (await runsOf(t, request.requestId)).filter((r) => r.final);
    expect(finals).toHaveLength(1);
    const given = finals[0].error?.startsWith("the job queue gave up") ? 1 : 0;
    expect(await noticesOfTheQueue(t)).toHaveLength(given);
  });

  it("records a push given up as the op's final failed push, with a notice", async () => {
    const t = await tenantWithLines();
    const ledger = ledgerOf(env, t.tenant);
    // An op with a destination, opened on the ledger directly so that no push job of its own races this one.
    const op = settle(await ledger.openExport(faceFor({ tier: "paid", visibleFrom: null }), { destinationId: 77, destinations: "known", actor: `human:${t.tenant}`, at: new Date().toISOString() }));
    await deliverDead([{ kind: "push", tenant: t.tenant, exportId: op.id }]);
    await deliverDead([{ kind: "push", tenant: t.tenant, exportId: op.id }]);
    const served = await api(ro(t), `/api/v1/exports/${op.id}`);
    expect(served.status).toBe(200);
    expect(JSON.stringify(served.body)).toContain("the job queue gave up on it");
    const notices = await noticesOfTheQueue(t);
    expect(notices.map((n) => n.body)).toEqual([`Export ${op.id} was not pushed to its spreadsheet: the job queue gave up on it after 4 deliveries, none of which could finish. Export again to push it.`]);
  });

  it("tells the owner once of a day's run given up", async () => {
    const t = await createTenant();
    const day: Job = { kind: "daily", tenant: t.tenant, scheduledAt: "2026-11-21T11:00:00.000Z" };
    await deliverDead([day, day]);
    await deliverDead([{ ...day, scheduledAt: "2026-11-22T11:00:00.000Z" }]);
    const bodies = (await noticesOfTheQueue(t)).map((n) => n.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toMatch(/^The daily run of 2026-11-21 did not finish for these books/);
    expect(bodies[0]).toMatch(/^The daily run of 2026-11-22 did not finish/);
    // A tenant without an oracle source had no oracle run to make: none is recorded as failed.
    expect(bodies[0]).not.toContain("oracle");
    expect((await api(ro(t), "/api/v1/reports/parity-verdicts?revisions=all")).body.verdicts).toEqual([]);
  });

  it("marks a notice's text given up as failed, once", async () => {
    const t = await createTenant();
    const messageId = await runInDurableObject(ledgerOf(env, t.tenant), (instance: TenantLedger) => postTextedNotice(instance.db, "Parity mismatch for 2026-11-20.", new Date().toISOString()));
    await deliverDead([{ kind: "notice", tenant: t.tenant, messageId }]);
    await deliverDead([{ kind: "notice", tenant: t.tenant, messageId }]);
    const listed = (await thread(t)).filter((m) => m.message_id === messageId);
    expect(listed).toEqual([expect.objectContaining({ channel: "sms", status: "failed" })]);
    expect(await noticesOfTheQueue(t)).toEqual([]);
  });

  it("acknowledges, and only logs, a job no tenant owns and one of a tenant that does not exist; opens no ledger for it", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const ghost = `ghost-${crypto.randomUUID()}`;
    const result = await deliverDead([
      { kind: "daily-fan-out", scheduledAt: "2026-11-21T11:00:00.000Z", after: null },
      { kind: "sync", tenant: ghost, requestId: 1 },
    ]);
    expect(result.explicitAcks.sort()).toEqual(["dead-0", "dead-1"]);
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringContaining("a job no tenant owns"),
      expect.stringContaining(`a job of ${ghost}, which is no tenant`),
    ]);
    const opened = await runInDurableObject(ledgerOf(env, ghost), (_instance: TenantLedger, state) => state.storage.sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE name = 'messages'").one().n);
    // The object exists once asked here (its constructor migrates), but nothing was written to it.
    expect(opened).toBe(1);
    expect(await runInDurableObject(ledgerOf(env, ghost), (_instance: TenantLedger, state) => state.storage.sql.exec("SELECT count(*) AS n FROM messages").one().n)).toBe(0);
  });

  it("leaves the job queue's own batches to the job consumer", async () => {
    const t = await tenantWithLines();
    const ledger = ledgerOf(env, t.tenant);
    const request = settle(await ledger.requestSync(t.tenant, `human:${t.tenant}`));
    if (request.state === "nothing-connected") throw new Error("a sandbox tenant has a bank");
    // The same body on the job queue is a sync to run, not a job given up.
    await deliverDead([{ kind: "sync", tenant: t.tenant, requestId: request.requestId }], "ledger-jobs");
    const finals = (await runsOf(t, request.requestId)).filter((r) => r.final);
    expect(finals).toEqual([expect.objectContaining({ status: "ok" })]);
    expect(await noticesOfTheQueue(t)).toEqual([]);
    expect(JOB_QUEUE_ACTOR).toBe("service:job-queue");
  });
});
