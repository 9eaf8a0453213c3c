/**
 * src/jobs/ (entry: this file, what a job is): the job queue: each job's kind and fields,
 * and the consumer (consumer.ts) that hands each to its runner: watcher/ (sync), cron/
 * (daily), exports/ (push), messages/ (a notice). Any room may import this file to queue a
 * job; only worker.ts imports the consumer (.dependency-cruiser.cjs: consumer-is-an-entry).
 */
/**
 * The jobs the job queue carries (the `JOB_QUEUE` binding): the Worker's background work.
 * Each is safe to run again: the queue delivers at least once, and a job that throws is
 * delivered again, at most JOB_MAX_DELIVERIES times in all.
 */

/** Deliveries the queue makes of one job (wrangler.toml's `max_retries` + 1). */
export const JOB_MAX_DELIVERIES = 4;

/** A tenant's sync request: the watcher pulls its bank feed into its ledger. */
export interface SyncJob {
  kind: "sync";
  tenant: string;
  requestId: number;
}

/** Push an export to its spreadsheet destination. */
export interface PushJob {
  kind: "push";
  tenant: string;
  exportId: number;
}

/**
 * The daily run's fan-out: names the next tenants, after `after` in id order, whose day is
 * to run (each gets a `DailyJob`), then queues the page after them.
 */
export interface DailyFanOutJob {
  kind: "daily-fan-out";
  /** The cron's scheduled time (ISO), which every job of that run carries. */
  scheduledAt: string;
  after: string | null;
}

/** One tenant's part of a daily run: its parity verdict and its tail batch. */
export interface DailyJob {
  kind: "daily";
  tenant: string;
  scheduledAt: string;
}

/** Text a notice the ledger posted in the owner's thread (a parity mismatch) to the owner's phone. */
export interface NoticeJob {
  kind: "notice";
  tenant: string;
  messageId: number;
}

export type Job = SyncJob | PushJob | DailyFanOutJob | DailyJob | NoticeJob;
