/**
 * Browser sessions: the `svc_session` cookie. Only a hash of its value is stored. The
 * owner's session (signed in with the tenant's password) names no person; a person's
 * names them, and the tenant they work in now.
 */
import { and, eq, inArray, isNull, lte } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { people, seatRoleNow, seats, sessions, tenants } from "../index-db/schema";
import { randomSecret, sha256Hex } from "./crypto";

export const SESSION_COOKIE = "svc_session";
export const SESSION_LIFETIME_HOURS = 12;

/** A new session in `tenantId`: the owner's, or, with `personId`, that person's (who holds a seat there). */
export async function startSession(d1: D1Database, tenantId: string, now: Date, personId: string | null = null): Promise<{ value: string; expiresAt: Date }> {
  const value = randomSecret(32);
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_HOURS * 3_600_000);
  await drizzle(d1)
    .insert(sessions)
    .values({ idHash: await sha256Hex(value), tenantId, personId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
  return { value, expiresAt };
}

export async function findLiveSession(d1: D1Database, value: string, now: Date) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(value)) return undefined;
  // The lookup is by hash of a 256-bit random value: there is no secret to compare.
  const row = await drizzle(d1)
    .select({ session: sessions, tenant: tenants, person: { id: people.id, name: people.name, email: people.email }, seat: { id: seats.id, role: seatRoleNow } })
    .from(sessions)
    .innerJoin(tenants, eq(tenants.id, sessions.tenantId))
    .leftJoin(people, eq(people.id, sessions.personId))
    .leftJoin(seats, and(eq(seats.personId, sessions.personId), eq(seats.tenantId, sessions.tenantId), isNull(seats.revokedAt)))
    .where(eq(sessions.idHash, await sha256Hex(value)))
    .get();
  if (!row || row.session.endedAt !== null || Date.parse(row.session.expiresAt) <= now.getTime()) return undefined;
  // The session, its tenant and a person's live seat there (with its role now) in one read: every request made with a session makes it.
  return { ...row.session, tenant: row.tenant, person: row.person, seat: row.seat };
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

/**
 * Moves a person's session to another tenant where they hold a live seat (the practice
 * dashboard's switcher). False, and nothing changed, when they hold none there.
 */
export async function switchSessionTenant(d1: D1Database, value: string, personId: string, tenantId: string, now: Date): Promise<boolean> {
  const { meta } = await d1
    .prepare(
      "UPDATE sessions SET tenant_id = ?3 WHERE id_hash = ?1 AND person_id = ?2 AND ended_at IS NULL AND expires_at > ?4 " +
        "AND EXISTS (SELECT 1 FROM seats WHERE person_id = ?2 AND tenant_id = ?3 AND revoked_at IS NULL)",
    )
    .bind(await sha256Hex(value), personId, tenantId, now.toISOString())
    .run();
  return meta.changes === 1;
}
