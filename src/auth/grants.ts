/**
 * Auditor grants (D1). A customer, signed in, offers a grant to a named viewer; a six-digit
 * code from a CSPRNG is texted to the customer's own enrolled phone (never the viewer's)
 * and only its keyed digest is kept, salted with a random value and the viewer's phone as
 * spelled. Confirming with the code, the same viewer name and phone makes the grant live
 * and mints its token: auditor scope, 24 hours, labelled with the grant, stored as a hash.
 * A revoked grant is never live again; its token's reads are refused by name.
 */
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import { sandboxOn, type Env } from "../env";
import { ApiError } from "../errors";
import { addressLimiter, CONFIRM, tooManyAttempts } from "../limits/attempts";
import { auditorGrants, grantRequests } from "../index-db/schema";
import type { SmsCarrier } from "../providers/sms/types";
import { SmsError } from "../providers/sms/types";
import { constantTimeEqual, randomSecret } from "./crypto";
import type { TenantRecord } from "./tenants";
import { GRANT_LABEL, mintToken } from "./tokens";

export const GRANT_MAX_ATTEMPTS = 5;
export const GRANT_TOKEN_HOURS = 24;
const DEFAULT_REQUEST_MINUTES = 10;
/** A sandbox deployment's code key: its codes protect nothing real. */
const SANDBOX_CODE_KEY = "sandbox-grant-code-key";

export type GrantRecord = typeof auditorGrants.$inferSelect;

export interface GrantView {
  grant_id: number;
  viewer_name: string;
  viewer_channel: string;
  status: "live" | "revoked" | "expired";
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_read_at: string | null;
}

export function grantView(g: GrantRecord, now: Date): GrantView {
  const status = g.revokedAt !== null ? "revoked" : Date.parse(g.expiresAt) <= now.getTime() ? "expired" : "live";
  return {
    grant_id: g.id,
    viewer_name: g.viewerName,
    viewer_channel: g.viewerChannel,
    status,
    created_at: g.createdAt,
    expires_at: g.expiresAt,
    revoked_at: g.revokedAt,
    last_read_at: g.lastReadAt,
  };
}

/** The token label that names a grant; the grant id is read from it, never from a request. */
export function grantLabel(grantId: number): string {
  return `${GRANT_LABEL}${grantId}`;
}

function codeKey(env: Env): string | null {
  return env.GRANT_CODE_KEY || (sandboxOn(env) ? SANDBOX_CODE_KEY : null);
}

/** Six digits, uniform over 000000-999999 (rejection sampling, no modulo bias). */
export function makeCode(): string {
  const limit = Math.floor(2 ** 32 / 1_000_000) * 1_000_000;
  for (;;) {
    const [n] = crypto.getRandomValues(new Uint32Array(1)) as unknown as [number];
    if (n < limit) return String(n % 1_000_000).padStart(6, "0");
  }
}

/** HMAC-SHA256 under the deployment's key of salt, viewer phone (as spelled) and code. */
export async function codeDigest(key: string, salt: string, viewerChannel: string, code: string): Promise<string> {
  const hmacKey = await crypto.subtle.importKey("raw", new TextEncoder().encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", hmacKey, new TextEncoder().encode(`${salt}\u0000${viewerChannel}\u0000${code}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export interface GrantOffer {
  viewer_name: string;
  viewer_channel: string;
}

/**
 * Files a request and texts its code to the customer. 503 when the deployment holds no
 * outbound SMS credential (or no code key), checked before anything is filed.
 */
export async function offerGrant(env: Env, tenant: TenantRecord, carrier: SmsCarrier | null, offer: GrantOffer, now: Date): Promise<{ request_id: number }> {
  const key = codeKey(env);
  if (!carrier) throw new ApiError("sms_unavailable", "This deployment holds no outbound SMS credential, so no grant code can be texted; nothing was filed.");
  if (!key) throw new ApiError("grant_key_missing", "This deployment holds no key for grant codes (GRANT_CODE_KEY); nothing was filed.");
  const code = makeCode();
  const salt = randomSecret(16);
  const minutes = Number(env.GRANT_REQUEST_TTL_MINUTES) > 0 ? Number(env.GRANT_REQUEST_TTL_MINUTES) : DEFAULT_REQUEST_MINUTES;
  const request = await drizzle(env.INDEX_DB)
    .insert(grantRequests)
    .values({
      tenantId: tenant.id,
      viewerName: offer.viewer_name,
      viewerChannel: offer.viewer_channel,
      salt,
      codeDigest: await codeDigest(key, salt, offer.viewer_channel, code),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + minutes * 60_000).toISOString(),
    })
    .returning({ id: grantRequests.id })
    .get();
  try {
    await carrier.send({
      to: tenant.phone,
      body: `Your ledger code: ${code}. Enter it to let ${offer.viewer_name} read your books for ${GRANT_TOKEN_HOURS} hours. It expires in ${minutes} minutes. Never share it with anyone.`,
    });
  } catch (error) {
    if (!(error instanceof SmsError)) throw error;
    throw new ApiError("sms_send_failed", `The code could not be texted (${error.message}); offer the grant again.`);
  }
  return { request_id: request.id };
}

export interface GrantConfirm {
  code: string;
  viewer_name: string;
  viewer_channel: string;
}

const refuse = (code: "request_used" | "request_expired" | "too_many_attempts" | "name_mismatch" | "code_wrong", detail: string) => new ApiError(code, detail);

/**
 * Confirms a request: the live grant and its token (shown once). Each request takes
 * GRANT_MAX_ATTEMPTS codes; failed confirmations are also limited per client `address`
 * (429 before the code is checked). Nothing is limited per tenant: a tenant's own
 * confirmations cannot be stopped by anyone else's failures.
 */
export async function confirmGrant(
  env: Env,
  tenantId: string,
  requestId: number,
  input: GrantConfirm,
  now: Date,
  address: string | null,
): Promise<{ grant: GrantView; token: string }> {
  const limiter = addressLimiter(env, "confirm", address);
  const attempt = await limiter.admit("attempts", CONFIRM.address, now.getTime());
  if (attempt.wait > 0) throw tooManyAttempts("grant confirmations from this client", attempt.wait);
  let failed = false;
  try {
    return await confirmRequest(env, tenantId, requestId, input, now);
  } catch (error) {
    failed = error instanceof ApiError && (error.code === "code_wrong" || error.code === "name_mismatch");
    throw error;
  } finally {
    if (!failed) await limiter.forgive("attempts", attempt.at);
  }
}

async function confirmRequest(env: Env, tenantId: string, requestId: number, input: GrantConfirm, now: Date): Promise<{ grant: GrantView; token: string }> {
  const db = drizzle(env.INDEX_DB);
  const request = await db
    .select()
    .from(grantRequests)
    .where(and(eq(grantRequests.id, requestId), eq(grantRequests.tenantId, tenantId)))
    .get();
  if (!request) throw ApiError.notFound(`This tenant has no grant request ${requestId}.`);
  if (request.confirmedAt !== null) throw refuse("request_used", "This request was confirmed already; a new look needs a new grant.");
  if (Date.parse(request.expiresAt) <= now.getTime()) throw refuse("request_expired", "This request has expired; offer the grant again.");
  // Counting the attempt first, atomically, so concurrent guesses cannot exceed the limit.
  const counted = await db
    .update(grantRequests)
    .set({ attempts: sql`${grantRequests.attempts} + 1` })
    .where(and(eq(grantRequests.id, requestId), lt(grantRequests.attempts, GRANT_MAX_ATTEMPTS), isNull(grantRequests.confirmedAt)))
    .returning({ attempts: grantRequests.attempts })
    .get();
  if (!counted) throw refuse("too_many_attempts", `This request allowed ${GRANT_MAX_ATTEMPTS} attempts and they are spent; offer the grant again.`);
  const left = GRANT_MAX_ATTEMPTS - counted.attempts;
  if (input.viewer_name !== request.viewerName) {
    throw refuse("name_mismatch", `viewer_name is not the name the grant was offered to; ${left} attempt(s) left.`);
  }
  const key = codeKey(env);
  const presented = key ? await codeDigest(key, request.salt, input.viewer_channel, input.code) : "";
  if (!constantTimeEqual(presented, request.codeDigest)) {
    throw refuse("code_wrong", `The code does not match (or viewer_channel is spelled differently than at the offer); ${left} attempt(s) left.`);
  }
  const claimed = await db
    .update(grantRequests)
    .set({ confirmedAt: now.toISOString() })
    .where(and(eq(grantRequests.id, requestId), isNull(grantRequests.confirmedAt)))
    .returning({ id: grantRequests.id })
    .get();
  if (!claimed) throw refuse("request_used", "This request was confirmed already; a new look needs a new grant.");

  const kid = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
  const expiresAt = new Date(now.getTime() + GRANT_TOKEN_HOURS * 3_600_000);
  const grant = await db
    .insert(auditorGrants)
    .values({
      tenantId,
      requestId,
      viewerName: request.viewerName,
      viewerChannel: request.viewerChannel,
      tokenKid: kid,
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    })
    .returning()
    .get();
  const token = await mintToken(env.INDEX_DB, tenantId, grantLabel(grant.id), "auditor", now, { kid, expiresAt });
  return { grant: grantView(grant, now), token: token.token };
}

/** Stamps `revoked_at` once (a repeat answers the revoked grant); undefined when the tenant has no such grant. */
export async function revokeGrant(d1: D1Database, tenantId: string, grantId: number, now: Date): Promise<GrantView | undefined> {
  const db = drizzle(d1);
  await db
    .update(auditorGrants)
    .set({ revokedAt: now.toISOString() })
    .where(and(eq(auditorGrants.id, grantId), eq(auditorGrants.tenantId, tenantId), isNull(auditorGrants.revokedAt)));
  const grant = await db
    .select()
    .from(auditorGrants)
    .where(and(eq(auditorGrants.id, grantId), eq(auditorGrants.tenantId, tenantId)))
    .get();
  return grant ? grantView(grant, now) : undefined;
}

export async function listGrants(d1: D1Database, tenantId: string, now: Date): Promise<GrantView[]> {
  return (await grantsQuery(drizzle(d1), tenantId)).map((g) => grantView(g, now));
}

/** The tenant's grants' rows, newest first, to send in a D1 batch (`grantView` each for a caller). */
export function grantsQuery(db: DrizzleD1Database, tenantId: string) {
  return db.select().from(auditorGrants).where(eq(auditorGrants.tenantId, tenantId)).orderBy(desc(auditorGrants.id));
}


export async function stampRead(d1: D1Database, grantId: number, now: Date): Promise<void> {
  await drizzle(d1).update(auditorGrants).set({ lastReadAt: now.toISOString() }).where(eq(auditorGrants.id, grantId));
}

/** How fine the last-read stamp is: a read within this long of the stamp leaves it as it is. */
export const LAST_READ_RESOLUTION_MS = 60_000;

/**
 * A read through a grant's token is a use of the grant: it stamps the grant's last-read
 * time, through `defer`, after the answer is sent, so the read never waits for the index's
 * write; the stamp is in flight before the answer leaves, so the owner's next listing of
 * the grants sees it. The stamp is kept to the minute (the owner's page shows minutes): an
 * auditor paging through the view writes the index once a minute, not once a page (each
 * write, deferred or not, held the next read back about as long as the read itself,
 * locally, where the index shares the service's thread).
 */
export function stampUse(d1: D1Database, grant: GrantRecord | null, now: Date, defer: (work: Promise<unknown>) => void): void {
  if (grant === null) return;
  const since = grant.lastReadAt === null ? Infinity : now.getTime() - Date.parse(grant.lastReadAt);
  if (since >= LAST_READ_RESOLUTION_MS) defer(stampRead(d1, grant.id, now));
}
