/**
 * The queue's consumer: each message goes to its job by kind. A job that throws is
 * delivered again (at most `max_retries` times, wrangler.toml); each job is safe to repeat.
 */
import { fanOutDaily, runTenantDay } from "../cron/daily";
import type { Env, QueueMessage } from "../env";
import { runPush } from "../exports/push-job";
import { runSyncRequest } from "../watcher/watcher";

export async function handleQueueBatch(batch: MessageBatch<QueueMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    try {
      await runJob(env, message.body, message.attempts);
      message.ack();
    } catch {
      message.retry();
    }
  }
}

async function runJob(env: Env, body: QueueMessage, delivery: number): Promise<void> {
  switch (body.kind) {
    case "push":
      return runPush(env, body, delivery);
    case "daily-fan-out":
      await fanOutDaily(env, body);
      return;
    case "daily":
      await runTenantDay(env, body.tenant, new Date(body.scheduledAt));
      return;
    case "sync":
    case undefined: // a sync request from before `kind` existed
      return runSyncRequest(env, body, delivery);
  }
}
