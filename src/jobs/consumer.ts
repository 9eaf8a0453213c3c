/**
 * The job queue's consumer: each job goes to its runner by kind. A job that throws is
 * delivered again (at most JOB_MAX_DELIVERIES times in all); each job is safe to repeat.
 * A job whose every delivery failed goes to the dead-letter queue (./dead-letters).
 */
import { fanOutDaily, runTenantDay } from "../cron/daily";
import type { Env } from "../env";
import { runPush } from "../exports/push-job";
import { textNotice } from "../messages/notices";
import { runSyncRequest } from "../watcher/watcher";
import type { Job } from "./job";

export async function handleQueueBatch(batch: MessageBatch<Job>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    try {
      await runJob(env, message.body, message.attempts);
      message.ack();
    } catch {
      message.retry();
    }
  }
}

async function runJob(env: Env, body: Job, delivery: number): Promise<void> {
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
      return runSyncRequest(env, body, delivery);
    case "notice":
      await textNotice(env, body);
      return;
    default:
      // Not a job of ours: retried until the queue gives up on it, then dropped by the queue.
      throw new Error(`a job of no known kind: ${JSON.stringify(body)}`);
  }
}
