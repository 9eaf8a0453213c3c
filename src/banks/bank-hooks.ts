/**
 * The aggregator's webhooks, `POST /hooks/bank`: signed (a JWT in `Plaid-Verification`,
 * checked against the key it names, ./../providers/bank/webhook-signature.ts) and acted on:
 *
 * - TRANSACTIONS `SYNC_UPDATES_AVAILABLE` (and the older update codes): a sync of the
 *   item's tenant is asked for, through the job queue (one pending request serves);
 * - ITEM `ERROR` (the item's error code says why), `LOGIN_REQUIRED`, `PENDING_EXPIRATION`,
 *   `PENDING_DISCONNECT`, `USER_PERMISSION_REVOKED`: the connection is marked as needing
 *   the owner's login again (update mode repairs it) or in error, and the owner is told in
 *   the thread, once per change; `LOGIN_REPAIRED`: connected again;
 * - LINK `SESSION_FINISHED`: the owner finished on the aggregator's page; the link is
 *   finished here if the browser has not come back to finish it.
 *
 * A webhook about no item or link of ours is acknowledged and nothing is done (the
 * signature is not even checked: checking would fetch a key for anyone who asks). Delivery
 * may repeat: a sync already pending serves, a status already recorded records nothing.
 */
import { z } from "@hono/zod-openapi";
import { findTenant } from "../auth/tenants";
import { ledgerOf, type Env } from "../env";
import { ApiError, settle } from "../errors";
import { safeJson } from "../providers/http";
import { bankLinkByToken } from "../index-db/bank-links";
import { bankLinkFor } from "../providers/bank";
import { BankLinkError, type BankLink, type WebhookKey } from "../providers/bank/link";
import { LOGIN_REQUIRED_CODES } from "../providers/bank/types";
import { signatureKeyId, signatureProblem } from "../providers/bank/webhook-signature";
import { finishLink, itemOwner, wordsOf } from "./linking";

export const WEBHOOK_ACTOR = "aggregator:webhook";

const webhookSchema = z
  .object({
    webhook_type: z.string(),
    webhook_code: z.string(),
    item_id: z.string().min(1).max(200).nullish(),
    link_token: z.string().min(1).max(500).nullish(),
    error: z.object({ error_code: z.string().nullish(), error_message: z.string().nullish() }).passthrough().nullish(),
  })
  .passthrough();

export type WebhookAnswer = { received: true; acted: string };

const SYNC_CODES = new Set(["SYNC_UPDATES_AVAILABLE", "DEFAULT_UPDATE", "INITIAL_UPDATE", "HISTORICAL_UPDATE"]);
const LOGIN_CODES = new Set(["LOGIN_REQUIRED", "PENDING_EXPIRATION", "PENDING_DISCONNECT"]);
const REVOKED_CODES = new Set(["USER_PERMISSION_REVOKED", "USER_ACCOUNT_REVOKED"]);

/** The aggregator's verification keys, kept per isolate: keys are few and long-lived. At most this many. */
const KEY_CACHE_SIZE = 20;
const KEY_CACHE_MS = 24 * 3_600_000;
const keyCache = new Map<string, { key: WebhookKey; until: number }>();

async function keyFor(link: BankLink, keyId: string): Promise<WebhookKey | null> {
  const cached = keyCache.get(keyId);
  if (cached && cached.until > Date.now()) return cached.key;
  let key: WebhookKey | null;
  try {
    key = await link.webhookKey(keyId);
  } catch (error) {
    // The aggregator retries a webhook that is not acknowledged: it comes again once the key can be had.
    if (error instanceof BankLinkError) throw new ApiError("aggregator_unavailable", `The webhook's key could not be had from the aggregator (${error.message}); send it again.`);
    throw error;
  }
  if (key) {
    if (keyCache.size >= KEY_CACHE_SIZE) keyCache.delete(keyCache.keys().next().value!);
    keyCache.set(keyId, { key, until: Date.now() + KEY_CACHE_MS });
  }
  return key;
}

/** Receives one webhook: `body` exactly as it arrived, `jwt` the `Plaid-Verification` header. */
export async function receiveBankWebhook(env: Env, body: string, jwt: string | null, origin: string, now: Date): Promise<WebhookAnswer> {
  const parsed = webhookSchema.safeParse(safeJson(body));
  if (!parsed.success) return { received: true, acted: "nothing: not a webhook of the aggregator's shape" };
  const hook = parsed.data;

  // Whose it is, before anything else: nothing is checked or done for a webhook about nobody of ours.
  const item = hook.item_id ? await itemOwner(env, hook.item_id) : null;
  const link = !item && hook.webhook_type === "LINK" && hook.link_token ? await bankLinkByToken(env.INDEX_DB, hook.link_token) : undefined;
  if (!item && !link) return { received: true, acted: "nothing: no connected item or open link of ours" };

  const service = bankLinkFor(env, origin)?.link;
  if (!service) throw new ApiError("aggregator_unavailable", "This deployment holds no aggregator credentials to check the webhook's signature with.");
  const keyId = signatureKeyId(jwt);
  const problem = await signatureProblem(jwt, body, keyId ? await keyFor(service, keyId) : null, now);
  if (problem) throw new ApiError("signature_invalid", `The webhook's signature is refused: ${problem}.`);

  if (link) {
    const tenant = await findTenant(env.INDEX_DB, link.tenantId);
    if (!tenant) return { received: true, acted: "nothing: the link's tenant is gone" };
    const outcome = await finishLink(env, tenant, link, origin, now);
    return { received: true, acted: `the link: ${wordsOf(outcome)}` };
  }
  const { tenantId, connectionId } = item!;
  const ledger = ledgerOf(env, tenantId);
  const code = hook.webhook_code;
  if (hook.webhook_type === "TRANSACTIONS" && SYNC_CODES.has(code)) {
    const asked = settle(await ledger.requestSync(tenantId, WEBHOOK_ACTOR));
    return { received: true, acted: `a sync: ${asked.state}` };
  }
  if (hook.webhook_type === "ITEM") {
    const errorCode = hook.error?.error_code ?? null;
    const detail = [errorCode ?? code, hook.error?.error_message].filter(Boolean).join(": ");
    const status =
      code === "LOGIN_REPAIRED"
        ? "connected"
        : LOGIN_CODES.has(code) || (code === "ERROR" && errorCode !== null && LOGIN_REQUIRED_CODES.has(errorCode))
          ? "login_required"
          : code === "ERROR" || REVOKED_CODES.has(code)
            ? "error"
            : null;
    if (status === null) return { received: true, acted: `nothing: ITEM ${code} needs nothing done` };
    const marked = settle(await ledger.recordConnectionStatus(connectionId, status, status === "connected" ? "the bank's login was repaired" : detail, WEBHOOK_ACTOR));
    return { received: true, acted: marked.changed ? `connection ${connectionId}: ${status}; the owner is told` : `nothing: connection ${connectionId} was ${marked.connection.status} already` };
  }
  return { received: true, acted: `nothing: ${hook.webhook_type} ${code} needs nothing done` };
}
