/**
 * Texts in and out of a tenant's thread. Inbound: the carrier's webhook, checked against
 * the carrier's signature, lands as an `in` message for the tenant(s) enrolled with the
 * sender's phone. Outbound: a person releases a drafted reply and it is texted to the
 * customer's enrolled phone through the tenant's carrier.
 */
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { findTenant } from "../auth/tenants";
import { ledgerOf, type Env } from "../env";
import { ApiError, settle } from "../errors";
import { tenants } from "../index-db/schema";
import { signatureValid } from "../providers/sms/carrier";
import { carrierFor, webhookAuthToken } from "../providers/sms";
import { SmsError } from "../providers/sms/types";

/**
 * Checks and files one inbound text. `url` is the full URL the carrier called (it is
 * signed); a `tenant` query parameter narrows delivery to that tenant (the sandbox uses
 * it, since its tenants share a default phone). Returns how many threads it landed in.
 */
export async function receiveInboundSms(env: Env, url: string, params: Record<string, string>, signature: string | null): Promise<number> {
  const authToken = webhookAuthToken(env);
  if (!authToken || !(await signatureValid(authToken, url, params, signature))) {
    throw new ApiError("signature_invalid", "The request does not carry the SMS carrier's signature.");
  }
  const from = params.From ?? "";
  const only = new URL(url).searchParams.get("tenant");
  const enrolled = await drizzle(env.INDEX_DB).select({ id: tenants.id }).from(tenants).where(eq(tenants.phone, from));
  const targets = enrolled.filter((t) => only === null || t.id === only);
  for (const t of targets) {
    settle(await ledgerOf(env, t.id).receiveText({ body: params.Body ?? "", providerSid: params.MessageSid ?? "", from }));
  }
  return targets.length;
}

/** Releases a draft: claimed once, texted to the customer, and its outcome filed. */
export async function releaseDraft(env: Env, tenantId: string, messageId: number, actor: string, doFetch?: typeof fetch): Promise<"sent" | "failed"> {
  const tenant = await findTenant(env.INDEX_DB, tenantId);
  if (!tenant) throw ApiError.notFound(`No tenant ${tenantId}.`);
  const carrier = carrierFor(env, tenant, doFetch);
  if (!carrier) throw new ApiError("sms_unavailable", "This deployment holds no outbound SMS credential, so the reply cannot be sent; it stays a draft.");
  const ledger = ledgerOf(env, tenantId);
  const claimed = settle(await ledger.claimRelease(messageId, actor));
  try {
    const { sid } = await carrier.send({ to: tenant.phone, body: claimed.body });
    settle(await ledger.recordSendOutcome(messageId, { sid }, actor));
    return "sent";
  } catch (error) {
    if (!(error instanceof SmsError)) throw error;
    settle(await ledger.recordSendOutcome(messageId, { error: error.message }, actor));
    return "failed";
  }
}
