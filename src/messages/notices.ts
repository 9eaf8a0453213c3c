/**
 * Texting a notice: the ledger posts it in the owner's thread (marked `sending`) and queues
 * this job, which texts it to the owner's enrolled phone through the tenant's carrier and
 * files the outcome. A redelivered job finds the notice sent (or failed) and sends nothing.
 */
import { findTenant, type TenantRecord } from "../auth/tenants";
import { ledgerOf, type Env } from "../env";
import { settle } from "../errors";
import type { NoticeJob } from "../jobs/job";
import { NOTICE_ACTOR } from "../ledger/messages";
import { carrierFor } from "../providers/sms";
import { SmsError } from "../providers/sms/types";

/** Whether the tenant's SMS is configured: a carrier holds a credential for it, and it has a phone to text. */
export function ownerTextable(env: Env, tenant: TenantRecord): boolean {
  return tenant.phone !== "" && carrierFor(env, tenant) !== null;
}

/** Texts one notice; `doFetch` lets tests put a fake carrier in front. */
export async function textNotice(env: Env, job: NoticeJob, doFetch?: typeof fetch): Promise<"sent" | "failed" | "done already"> {
  const ledger = ledgerOf(env, job.tenant);
  const waiting = settle(await ledger.noticeToText(job.messageId));
  if (!waiting) return "done already";
  const tenant = await findTenant(env.INDEX_DB, job.tenant);
  const carrier = tenant ? carrierFor(env, tenant, doFetch) : null;
  const fail = async (error: string) => {
    settle(await ledger.recordSendOutcome(job.messageId, { error }, NOTICE_ACTOR));
    return "failed" as const;
  };
  if (!tenant || !carrier) return fail("the deployment holds no outbound SMS credential for this tenant any more");
  try {
    const { sid } = await carrier.send({ to: tenant.phone, body: waiting.body });
    settle(await ledger.recordSendOutcome(job.messageId, { sid }, NOTICE_ACTOR));
    return "sent";
  } catch (error) {
    if (!(error instanceof SmsError)) throw error;
    return fail(error.message);
  }
}
