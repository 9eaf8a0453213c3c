/**
 * Jobs the job queue gave up on. A job normally records its own last failure (a final
 * failed sync run, a final failed push, a failed text); when every delivery ended without
 * it (the invocation killed for its CPU time or memory, the tenant's object reset at each
 * try, a fault before the job could record anything), the queue moves the job to its
 * dead-letter queue and this records it: the job's own record says it failed for good (a
 * day's run: its oracle run, failed, where the tenant has an oracle source and the day's run
 * is not recorded yet), and the owner is told in the thread, in the same transaction. Each is
 * appended once: a job already over (or a dead letter delivered twice) appends nothing.
 */
import { and, eq } from "drizzle-orm";
import { booksDate } from "../clock";
import { NO_CHANGES } from "./feed/feed-pages";
import { planSyncRun, recordSyncRun } from "./feed/sync-requests";
import { noticeToText, postNotice, recordSendOutcome } from "./messages";
import { planPush, recordPush } from "./reports/export/push-records";
import { oracleRunAt, recordFailedRun } from "./reports/oracle-runs";
import type { LedgerDb } from "./store/db";
import { messages, syncRequests } from "./store/schema";

/** The actor of what is recorded of a job given up: the job queue, never a person. */
export const JOB_QUEUE_ACTOR = "service:job-queue";

/** A tenant's job as the queue gave it up (the ledger's own words for the queue's jobs). */
export type GivenUpJob =
  | { kind: "sync"; requestId: number }
  | { kind: "push"; exportId: number }
  /** `oracleUrl`: the tenant's oracle source, whose run the day's job was to make; null for a tenant without one. */
  | { kind: "daily"; scheduledAt: string; oracleUrl: string | null }
  | { kind: "notice"; messageId: number };

/** `recorded`: the failure and the owner's notice were appended; `over`: the job had ended already (or is unknown to this ledger). */
export type GivenUpOutcome = "recorded" | "over";

export function recordGivenUpJob(db: LedgerDb, job: GivenUpJob, deliveries: number, at: string): GivenUpOutcome {
  const why = `the job queue gave up on it after ${deliveries} deliveries, none of which could finish`;
  return db.transaction((tx) => {
    switch (job.kind) {
      case "sync": {
        const plan = planSyncRun(tx, job.requestId);
        if (!plan) return "over";
        const request = tx.select().from(syncRequests).where(eq(syncRequests.id, job.requestId)).get()!;
        recordSyncRun(tx, { requestId: job.requestId, attempt: plan.attempt, startedAt: at, finishedAt: at, pages: 0, ...NO_CHANGES, status: "failed", final: true, error: why });
        postNotice(tx, `The bank sync asked for at ${request.requestedAt} did not run: ${why}. The lines it would have brought come with the next sync; ask for one from Settings, Banks.`, JOB_QUEUE_ACTOR, at);
        return "recorded";
      }
      case "push": {
        const plan = planPush(tx, job.exportId);
        if (!plan) return "over";
        recordPush(tx, { exportId: job.exportId, attempt: plan.attempt, status: "failed", rows: 0, final: true, error: why, at });
        postNotice(tx, `Export ${job.exportId} was not pushed to its spreadsheet: ${why}. Export again to push it.`, JOB_QUEUE_ACTOR, at);
        return "recorded";
      }
      case "daily": {
        const day = booksDate(new Date(job.scheduledAt));
        const run = oracleRunAt(tx, job.scheduledAt);
        if (run?.actor === JOB_QUEUE_ACTOR) return "over";
        // The run's parity part had not ended: it is recorded as failed, so the day reads as such in the verdict history.
        const parityFails = job.oracleUrl !== null && run === undefined;
        const parity = parityFails ? " No parity verdict was filed for that day: its oracle run is recorded as failed." : "";
        const body = `The daily run of ${day} did not finish for these books: ${why}.${parity} Lines waiting for the tail wait for the next run.`;
        const told = tx.select({ id: messages.id }).from(messages).where(and(eq(messages.actor, JOB_QUEUE_ACTOR), eq(messages.body, body))).get();
        if (told) return "over";
        if (parityFails) recordFailedRun(tx, { ranAt: job.scheduledAt, asOf: day, error: why, oracleUrl: job.oracleUrl!, actor: JOB_QUEUE_ACTOR }, at);
        postNotice(tx, body, JOB_QUEUE_ACTOR, at);
        return "recorded";
      }
      case "notice": {
        // The notice is in the thread already; its text is marked failed, as a refused text is.
        if (!noticeToText(tx, job.messageId)) return "over";
        recordSendOutcome(tx, job.messageId, { error: `the text was not sent: ${why}` }, JOB_QUEUE_ACTOR, at);
        return "recorded";
      }
    }
  });
}
