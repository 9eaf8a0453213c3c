/** The Worker: the app for requests, the queue consumer (sync requests, export pushes), the daily cron. */
import { createApp } from "./app";
import { purgeSessions } from "./auth/sessions";
import type { Env, QueueMessage } from "./env";
import { tenantIds } from "./auth/tenants";
import { runDailyParity } from "./cron/daily-parity";
import { sendToTail, type TailClient } from "./sync/tail";
import { handleQueueBatch } from "./sync/watcher";

export { TenantLedger } from "./ledger/tenant-ledger";
export { AttemptLimiter } from "./limits/attempt-limiter";

const app = createApp();

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),

  async queue(batch, env, _ctx) {
    await handleQueueBatch(batch, env);
  },

  async scheduled(controller, env, ctx) {
    ctx.waitUntil(dailyRun(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env, QueueMessage>;

/**
 * The daily cron's work: the day's parity verdicts, the tail's batch run (lines deferred
 * at or over a tenant's cap, or while no cap is known), and forgetting ended sessions.
 * `options` let tests put fake outside parties in front.
 */
export async function dailyRun(
  env: Env,
  now: Date,
  options: { tail?: TailClient | null; fetchOracle?: typeof fetch } = {},
): Promise<{ parity: { filed: number; failed: number }; tailCalls: number; sessionsPurged: number }> {
  const parity = await runDailyParity(env, now, options.fetchOracle);
  let tailCalls = 0;
  for (const tenant of await tenantIds(env.INDEX_DB)) {
    try {
      tailCalls += (await sendToTail(env, tenant, { now, batch: true, client: options.tail })).calls;
    } catch (error) {
      console.error(`the daily tail batch failed for ${tenant}; its lines wait for tomorrow:`, error);
    }
  }
  return { parity, tailCalls, sessionsPurged: await purgeSessions(env.INDEX_DB, now) };
}
