/** The daily cron trigger is wired to the Worker and does its work. */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { startSession } from "../src/auth/sessions";
import worker, { dailyRun } from "../src/worker";
import { api, createTenant } from "./fixtures/sandbox";

describe("the daily cron", () => {
  it("runs through the Worker's scheduled handler", async () => {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "0 11 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
  });

  it("forgets ended and expired sessions, and keeps live ones", async () => {
    const t = await createTenant();
    const expired = await startSession(env.INDEX_DB, t.tenant, new Date(Date.now() - 24 * 3_600_000));
    const { sessionsPurged } = await dailyRun(env, new Date());
    expect(sessionsPurged).toBeGreaterThanOrEqual(1);
    expect((await api({ session: expired.value }, "/api/v1/me")).status).toBe(401);
    expect((await api({ session: t.session }, "/api/v1/me")).status).toBe(200);
  });
});
