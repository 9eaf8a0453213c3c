/**
 * Which carrier a tenant's texts go through. A sandbox deployment uses the sandbox carrier,
 * and holds an outbound credential for a tenant when the tenant was made with `sms: true`.
 * Otherwise the deployment holds one when its carrier secrets are set (SMS_ACCOUNT_SID,
 * SMS_AUTH_TOKEN and the SMS_FROM number). No credential: null.
 */
import { sandboxOn, type Env } from "../../env";
import type { TenantRecord } from "../../auth/tenants";
import { HttpCarrier } from "./carrier";
import { SANDBOX_CARRIER_AUTH_TOKEN, SandboxCarrier } from "./sandbox";
import type { SmsCarrier } from "./types";

export function carrierFor(env: Env, tenant: Pick<TenantRecord, "id" | "smsEnabled">, doFetch?: typeof fetch): SmsCarrier | null {
  if (sandboxOn(env)) return tenant.smsEnabled ? new SandboxCarrier(env.INDEX_DB, tenant.id) : null;
  if (!env.SMS_ACCOUNT_SID || !env.SMS_AUTH_TOKEN || !env.SMS_FROM) return null;
  return new HttpCarrier({ baseUrl: env.SMS_API_BASE_URL, accountSid: env.SMS_ACCOUNT_SID, authToken: env.SMS_AUTH_TOKEN, from: env.SMS_FROM }, doFetch);
}

/** The auth token inbound webhook calls are signed with; null when none is held. */
export function webhookAuthToken(env: Env): string | null {
  if (sandboxOn(env)) return SANDBOX_CARRIER_AUTH_TOKEN;
  return env.SMS_AUTH_TOKEN || null;
}
