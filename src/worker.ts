/** The Worker: the app for requests, the sync watcher for the queue, the daily cron. */
import { createApp } from "./app";
import { purgeSessions } from "./auth/sessions";
import type { Env, SyncMessage } from "./env";
import { handleSyncBatch } from "./sync/watcher";

export { TenantLedger } from "./ledger/tenant-ledger";

const app = createApp();

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),

  async queue(batch, env, _ctx) {
    await handleSyncBatch(batch, env);
  },

  async scheduled(controller, env, ctx) {
    ctx.waitUntil(dailyRun(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env, SyncMessage>;

/** The daily cron's work. The parity verdicts join it in a later issue. */
export async function dailyRun(env: Env, now: Date): Promise<{ sessionsPurged: number }> {
  return { sessionsPurged: await purgeSessions(env.INDEX_DB, now) };
}
