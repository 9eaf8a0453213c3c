/**
 * Texts in and out of a tenant's thread. Inbound: the carrier's webhook, checked against
 * the carrier's signature, lands as an `in` message in the thread of the one tenant it is
 * for: the tenant enrolled with the sender's phone, or, where several share the phone, the
 * one the text names (./routing.ts); otherwise nothing lands and the sender is asked which.
 * Outbound: a person releases a drafted reply and it is texted to the customer's enrolled
 * phone through the tenant's carrier.
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
import { routeText } from "./routing";

/** Where an inbound text went: the tenant whose thread it landed in, or the question the sender is answered with. */
export interface InboundOutcome {
  landedIn: string | null;
  /** Texted back to the sender in the webhook's answer; null when nothing is to be said. */
  reply: string | null;
}

/**
 * Checks and files one inbound text. `url` is the full URL the carrier called (it is
 * signed); a `tenant` query parameter there names the tenant it is for (the sandbox's
 * per-tenant texts use it), and it lands there only if that tenant is enrolled with the
 * sender's phone. A text from a phone no tenant is enrolled with lands nowhere, unanswered.
 */
export async function receiveInboundSms(env: Env, url: string, params: Record<string, string>, signature: string | null): Promise<InboundOutcome> {
  const authToken = webhookAuthToken(env);
  if (!authToken || !(await signatureValid(authToken, url, params, signature))) {
    throw new ApiError("signature_invalid", "The request does not carry the SMS carrier's signature.");
  }
  const from = params.From ?? "";
  const body = params.Body ?? "";
  const only = new URL(url).searchParams.get("tenant");
  const enrolled = (await drizzle(env.INDEX_DB).select({ id: tenants.id }).from(tenants).where(eq(tenants.phone, from))).filter((t) => only === null || t.id === only);
  if (enrolled.length === 0) return { landedIn: null, reply: null };
  const routing = routeText(body, enrolled.map((t) => ({ id: t.id, names: [t.id] })));
  if (routing.kind === "ask") return { landedIn: null, reply: routing.question };
  settle(await ledgerOf(env, routing.id).receiveText({ body, providerSid: params.MessageSid ?? "", from }));
  return { landedIn: routing.id, reply: null };
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
