/**
 * The job queue's dead-letter queue (wrangler.toml: the consumer's `dead_letter_queue`,
 * named to the Worker by JOB_DEAD_LETTER_QUEUE). A job lands there when all its
 * JOB_MAX_DELIVERIES deliveries ended without an acknowledgement. Its consumer records the
 * failure on the job's tenant and tells the owner in the thread (../ledger/given-up-jobs: a
 * day's run given up is its oracle run failed, for a tenant with an oracle source);
 * the daily run's fan-out has no tenant, and is left to the operator's logs.
 */
import { findTenant } from "../auth/tenants";
import type { Env } from "../env";
import { ledgerOf } from "../env";
import { settle } from "../errors";
import { oracleSourceOf } from "../index-db/oracle";
import type { GivenUpJob, GivenUpOutcome } from "../ledger/given-up-jobs";
import { JOB_MAX_DELIVERIES, type Job } from "./job";

/** Whether a batch comes from the dead-letter queue rather than the job queue itself. */
export function isDeadLetterBatch(batch: MessageBatch<unknown>, env: Pick<Env, "JOB_DEAD_LETTER_QUEUE">): boolean {
  return env.JOB_DEAD_LETTER_QUEUE !== "" && batch.queue === env.JOB_DEAD_LETTER_QUEUE;
}

export async function handleDeadLetters(batch: MessageBatch<Job>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    try {
      await recordGivenUp(env, message.body);
      message.ack();
    } catch (error) {
      console.error(`the dead letter ${message.id} could not be recorded (delivery ${message.attempts}):`, error);
      message.retry();
    }
  }
}

/** What was done about one job given up: `recorded` on its tenant, `over` already, or `logged` only (no tenant to tell). */
export async function recordGivenUp(env: Env, job: Job): Promise<GivenUpOutcome | "logged"> {
  const given = await givenUpOf(env, job);
  if (!given) {
    console.error(`the job queue gave up on a job no tenant owns, after ${JOB_MAX_DELIVERIES} deliveries: ${JSON.stringify(job)}`);
    return "logged";
  }
  // A tenant that is gone (or never was) gets no ledger opened for the notice.
  if (!(await findTenant(env.INDEX_DB, given.tenant))) {
    console.error(`the job queue gave up on a job of ${given.tenant}, which is no tenant: ${JSON.stringify(job)}`);
    return "logged";
  }
  return settle(await ledgerOf(env, given.tenant).recordGivenUpJob(given.job, JOB_MAX_DELIVERIES));
}

async function givenUpOf(env: Env, job: Job): Promise<{ tenant: string; job: GivenUpJob } | null> {
  switch (job?.kind) {
    case "sync":
      return { tenant: job.tenant, job: { kind: "sync", requestId: job.requestId } };
    case "push":
      return { tenant: job.tenant, job: { kind: "push", exportId: job.exportId } };
    case "daily": {
      // The day's run was to make an oracle run from the tenant's source, where it has one.
      const source = await oracleSourceOf(env.INDEX_DB, job.tenant);
      return { tenant: job.tenant, job: { kind: "daily", scheduledAt: job.scheduledAt, oracleUrl: source?.url ?? null } };
    }
    case "notice":
      return { tenant: job.tenant, job: { kind: "notice", messageId: job.messageId } };
    default:
      return null;
  }
}
