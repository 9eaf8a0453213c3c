/** The daily cron trigger is wired to the Worker, and its run fans out through the real queue to every tenant. */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { endSession, purgeSessions, startSession } from "../src/auth/sessions";
import { fanOutDaily, startDailyRun } from "../src/cron/daily";
import { ledgerOf } from "../src/env";
import { settle } from "../src/errors";
import { setOracleSource } from "../src/index-db/oracle";
import worker from "../src/worker";
import { api, createTenant, eventually, type SandboxTenant } from "./fixtures/sandbox";

/** An oracle no one answers: a tenant's part of the run then records a failure, which shows the part ran. */
const UNREACHABLE = "https://127.0.0.1:9/report.json";

async function tenantsWithUnreachableOracles(count: number): Promise<SandboxTenant[]> {
  const made: SandboxTenant[] = [];
  for (let i = 0; i < count; i++) {
    const t = await createTenant();
    await setOracleSource(env.INDEX_DB, t.tenant, UNREACHABLE, null, new Date());
    made.push(t);
  }
  return made;
}

/** How many sessions the index holds for the tenant, ended and expired ones included. */
async function sessionsOf(t: SandboxTenant): Promise<number> {
  return (await env.INDEX_DB.prepare("SELECT count(*) AS n FROM sessions WHERE tenant_id = ?").bind(t.tenant).first<number>("n"))!;
}

/** Waits until each tenant's part of the run scheduled at `at` has been recorded. */
function partsRecorded(tenants: SandboxTenant[], at: Date) {
  return eventually("every tenant's part of the daily run recorded", async () => {
    const runs = await Promise.all(tenants.map(async (t) => settle(await ledgerOf(env, t.tenant).lastOracleRun())));
    return runs.every((run) => run?.ranAt === at.toISOString()) ? runs : undefined;
  });
}

describe("the daily cron", () => {
  it("runs through the Worker's scheduled handler, and each tenant's part runs from the queue", async () => {
    const [t] = await tenantsWithUnreachableOracles(1);
    const scheduledTime = new Date("2026-11-23T11:00:00Z");
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime, cron: "0 11 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const [run] = await partsRecorded([t!], scheduledTime);
    expect(run).toMatchObject({ status: "failed", asOf: "2026-11-23", revision: null });
    expect(run!.error).toMatch(/^the oracle could not be reached/);
  });

  it("reaches every tenant page after page: a page queues the next", async () => {
    const tenants = await tenantsWithUnreachableOracles(5);
    const scheduledAt = new Date("2026-11-24T11:00:00Z");
    // A first page of two tenants: the others are reached only through the page it queues next.
    expect(await fanOutDaily(env, { kind: "daily-fan-out", scheduledAt: scheduledAt.toISOString(), after: null }, 2)).toBe(2);
    const runs = await partsRecorded(tenants, scheduledAt);
    expect(runs.map((run) => run!.status)).toEqual(["failed", "failed", "failed", "failed", "failed"]);
  });

  it("forgets ended and expired sessions, and keeps live ones", async () => {
    const t = await createTenant();
    const expired = await startSession(env.INDEX_DB, t.tenant, new Date(Date.now() - 24 * 3_600_000));
    const ended = await startSession(env.INDEX_DB, t.tenant, new Date());
    await endSession(env.INDEX_DB, ended.value, new Date());
    const { sessionsPurged } = await startDailyRun(env, new Date());
    expect(sessionsPurged).toBeGreaterThanOrEqual(2);
    expect(await sessionsOf(t)).toBe(1);
    expect((await api({ session: expired.value }, "/api/v1/me")).status).toBe(401);
    expect((await api({ session: t.session }, "/api/v1/me")).status).toBe(200);
  });

  it("purges a batch at a time until none is left", async () => {
    const t = await createTenant();
    for (let i = 0; i < 5; i++) await startSession(env.INDEX_DB, t.tenant, new Date(Date.now() - 24 * 3_600_000));
    expect(await sessionsOf(t)).toBe(6);
    expect(await purgeSessions(env.INDEX_DB, new Date(), 2)).toBeGreaterThanOrEqual(5);
    expect(await sessionsOf(t)).toBe(1);
  });
});
