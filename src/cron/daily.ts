/**
 * src/cron/ (entry: this file): the daily run, started by the worker's `scheduled` and run
 * tenant by tenant from the job queue: each tenant's parity verdict (daily-parity.ts), its
 * tail batch, the bank tokens' re-encryption, its share of the shared merchant prior
 * (shared-prior.ts) and the purges. May import the ledger
 * (through its object), the index, auth/, banks/, messages/ (a mismatch's notice), the
 * tail, the oracle adapter, jobs/job.ts and the oracle report's schema
 * (endpoints/reports/schema.ts). Imported only by worker.ts and the job queue's consumer
 * (.dependency-cruiser.cjs: runners-run-from-the-queue).
 */
/**
 * The daily run, fanned out through the queue so that no one invocation visits every
 * tenant (docs/scaling.md): the cron pools the shared merchant prior and queues the
 * fan-out's first page; each page queues one `DailyJob` per tenant (FAN_OUT_PAGE of them),
 * then the page after it; each tenant's message runs its parity verdict and its tail
 * batch. Delivery is at-least-once, so each part is safe to repeat: a parity run already
 * recorded for the scheduled time is not run again, the tail sends only lines still
 * waiting, and the pool and a contribution are replaced whole.
 */
import { purgeEmailLinks } from "../auth/owner-mail";
import { purgeSessions } from "../auth/sessions";
import { rewrapBankTokens } from "../banks/bank-tokens";
import { tenantIdsAfter } from "../auth/tenants";
import type { Env } from "../env";
import type { DailyFanOutJob, DailyJob } from "../jobs/job";
import { sendToTail, type TailClient } from "../tail/ask-tail";
import { runParityFor, type ParityOutcome } from "./daily-parity";
import { poolSharedPrior, shareMerchantPrior } from "./shared-prior";

/** Tenants one fan-out message names: its D1 read and its sends stay far inside one invocation's subrequests. */
export const FAN_OUT_PAGE = 1_000;
/** The most messages one `sendBatch` takes. */
const SEND_BATCH = 100;

/**
 * The cron's own work: pools the shared merchant prior for the day's tenants, queues the
 * fan-out's first page, and forgets ended sessions and lapsed emailed links. A pool that
 * fails leaves yesterday's for the day.
 */
export async function startDailyRun(env: Env, scheduledAt: Date): Promise<{ sessionsPurged: number; emailLinksPurged: number; pooledWords: number | null }> {
  let pooledWords: number | null = null;
  try {
    pooledWords = await poolSharedPrior(env, scheduledAt);
  } catch (error) {
    console.error("the shared merchant prior was not pooled today; the day's tenants read yesterday's pool:", error);
  }
  const first: DailyFanOutJob = { kind: "daily-fan-out", scheduledAt: scheduledAt.toISOString(), after: null };
  await env.JOB_QUEUE.send(first);
  return { sessionsPurged: await purgeSessions(env.INDEX_DB, scheduledAt), emailLinksPurged: await purgeEmailLinks(env.INDEX_DB, scheduledAt), pooledWords };
}

/** One page of the fan-out: a message for each of the page's tenants, then the next page while there may be one. Returns how many tenants it named. */
export async function fanOutDaily(env: Env, page: DailyFanOutJob, pageSize = FAN_OUT_PAGE): Promise<number> {
  const tenants = await tenantIdsAfter(env.INDEX_DB, page.after, pageSize);
  for (let from = 0; from < tenants.length; from += SEND_BATCH) {
    const days = tenants.slice(from, from + SEND_BATCH).map((tenant): { body: DailyJob } => ({ body: { kind: "daily", tenant, scheduledAt: page.scheduledAt } }));
    await env.JOB_QUEUE.sendBatch(days);
  }
  if (tenants.length === pageSize) await env.JOB_QUEUE.send({ ...page, after: tenants.at(-1)! });
  return tenants.length;
}

/**
 * One tenant's day: the parity verdict, its bank tokens re-encrypted under the newest key, the shared merchant prior
 * (where it opted in), then the tail's batch run (lines deferred at or over
 * the tenant's cap, or while no cap is known). A failing oracle is recorded on the tenant; a
 * failing tail leaves its lines for tomorrow. `options` let tests put fake outside parties in front.
 */
export async function runTenantDay(
  env: Env,
  tenant: string,
  scheduledAt: Date,
  options: { tail?: TailClient | null; fetchOracle?: typeof fetch } = {},
): Promise<{ parity: ParityOutcome; tailCalls: number }> {
  const parity = await runParityFor(env, tenant, scheduledAt, options.fetchOracle);
  try {
    await rewrapBankTokens(env, tenant);
  } catch (error) {
    console.error(`the bank tokens of ${tenant} were not re-encrypted today:`, error);
  }
  try {
    await shareMerchantPrior(env, tenant);
  } catch (error) {
    console.error(`the shared merchant prior was not shared with ${tenant} today:`, error);
  }
  let tailCalls = 0;
  try {
    tailCalls = (await sendToTail(env, tenant, { now: scheduledAt, batch: true, client: options.tail })).calls;
  } catch (error) {
    console.error(`the daily tail batch failed for ${tenant}; its lines wait for tomorrow:`, error);
  }
  return { parity, tailCalls };
}
