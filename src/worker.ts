/** The Worker: the app for requests, the job queue's consumer (sync requests, export pushes, the daily run's parts) and its dead-letter queue's, the daily cron. */
import { createApp } from "./app";
import { startDailyRun } from "./cron/daily";
import type { Env } from "./env";
import { handleQueueBatch } from "./jobs/consumer";
import { handleDeadLetters, isDeadLetterBatch } from "./jobs/dead-letters";
import type { Job } from "./jobs/job";

export { TenantLedger } from "./ledger/tenant-ledger";
export { AttemptLimiter } from "./limits/attempt-limiter";

const app = createApp();

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),

  async queue(batch, env, _ctx) {
    if (isDeadLetterBatch(batch, env)) await handleDeadLetters(batch, env);
    else await handleQueueBatch(batch, env);
  },

  /** The daily run: each tenant's parity verdict and tail batch go out through the job queue (./cron/daily). */
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(startDailyRun(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env, Job>;
