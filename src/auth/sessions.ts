/** Browser sessions: the `svc_session` cookie. Only a hash of its value is stored. */
import { and, eq, inArray, isNull, lte } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { sessions, tenants } from "../index-db/schema";
import { randomSecret, sha256Hex } from "./crypto";

export const SESSION_COOKIE = "svc_session";
export const SESSION_LIFETIME_HOURS = 12;

export async function startSession(d1: D1Database, tenantId: string, now: Date): Promise<{ value: string; expiresAt: Date }> {
  const value = randomSecret(32);
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_HOURS * 3_600_000);
  await drizzle(d1)
    .insert(sessions)
    .values({ idHash: await sha256Hex(value), tenantId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
  return { value, expiresAt };
}

export async function findLiveSession(d1: D1Database, value: string, now: Date) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(value)) return undefined;
  // The lookup is by hash of a 256-bit random value: there is no secret to compare.
  const row = await drizzle(d1)
    .select({ session: sessions, tenant: tenants })
    .from(sessions)
    .innerJoin(tenants, eq(tenants.id, sessions.tenantId))
    .where(eq(sessions.idHash, await sha256Hex(value)))
    .get();
  if (!row || row.session.endedAt !== null || Date.parse(row.session.expiresAt) <= now.getTime()) return undefined;
  // The session and its tenant in one read: every request made with a session makes it.
  return { ...row.session, tenant: row.tenant };
}

/** Ends a session: it expires now, and says when it was ended. */
export async function endSession(d1: D1Database, value: string, now: Date): Promise<void> {
  await drizzle(d1)
    .update(sessions)
    .set({ endedAt: now.toISOString(), expiresAt: now.toISOString() })
    .where(and(eq(sessions.idHash, await sha256Hex(value)), isNull(sessions.endedAt)));
}

/** How many sessions one statement of the purge deletes: each statement stays short however many expired. */
const PURGE_BATCH = 1_000;

/** Forgets sessions that ended or expired (run by the daily cron), by the expiry index, a batch at a time. Returns how many. */
export async function purgeSessions(d1: D1Database, now: Date, batch = PURGE_BATCH): Promise<number> {
  const db = drizzle(d1);
  const expired = db.select({ idHash: sessions.idHash }).from(sessions).where(lte(sessions.expiresAt, now.toISOString())).limit(batch);
  let purged = 0;
  for (;;) {
    const { meta } = await db.delete(sessions).where(inArray(sessions.idHash, expired));
    purged += meta.changes;
    if (meta.changes < batch) return purged;
  }
}
