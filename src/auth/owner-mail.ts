/**
 * The mail the service sends a tenant's owner, and the single-use links in it: verifying
 * the owner's email (72 hours) and resetting the password (one hour). A link carries a
 * 256-bit random secret; the index keeps only its SHA-256, so a copy of the index opens
 * nothing. A link is spent when it is used (one statement stamps it and does what it
 * does, in one D1 batch), and lapses at its expiry.
 */
import { and, eq, gt, inArray, isNull, lte } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Env } from "../env";
import { emailLinks } from "../index-db/schema";
import { tenantLimiter, PUBLIC } from "../limits/attempts";
import { mailServiceFor } from "../providers/email";
import { MailError, type Mail } from "../providers/email/types";
import { hashPassword, PASSWORD_ITERATIONS, randomSecret, sha256Hex } from "./crypto";
import type { TenantRecord } from "./tenants";

export const VERIFY_LINK_HOURS = 72;
export const RESET_LINK_MINUTES = 60;

const SECRET = /^[A-Za-z0-9_-]{43}$/;

type Purpose = (typeof emailLinks.$inferSelect)["purpose"];

async function newLink(d1: D1Database, tenant: string, email: string, purpose: Purpose, lifetimeMs: number, now: Date) {
  const secret = randomSecret(32);
  const statement = drizzle(d1)
    .insert(emailLinks)
    .values({ tokenHash: await sha256Hex(secret), tenantId: tenant, purpose, email, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + lifetimeMs).toISOString() });
  return { secret, statement };
}

/** A verification link for the owner's email: the statement that files it (for the sign-up's batch) and the mail that carries it. */
export async function emailVerificationLink(d1: D1Database, tenant: string, email: string, origin: string, now: Date) {
  const { secret, statement } = await newLink(d1, tenant, email, "verify_email", VERIFY_LINK_HOURS * 3_600_000, now);
  const mail: Mail = {
    to: email,
    subject: `Verify your email for ${tenant}`,
    text:
      `Someone signed up the books of "${tenant}" with this address. If it was you, verify it here within ${VERIFY_LINK_HOURS} hours:\n\n` +
      `${origin}/verify-email?token=${secret}\n\n` +
      `A verified email lets you connect your bank and reset your password. If it was not you, ignore this mail.`,
  };
  return { statement, mail };
}

/** A password reset link, filed, and the mail that carries it. */
export async function passwordResetLink(d1: D1Database, tenant: TenantRecord & { ownerEmail: string }, origin: string, now: Date): Promise<Mail> {
  const { secret, statement } = await newLink(d1, tenant.id, tenant.ownerEmail, "reset_password", RESET_LINK_MINUTES * 60_000, now);
  await statement;
  return {
    to: tenant.ownerEmail,
    subject: `Reset the password of ${tenant.id}`,
    text:
      `Someone asked to reset the password of "${tenant.id}". If it was you, choose a new one here within ${RESET_LINK_MINUTES} minutes (the link works once):\n\n` +
      `${origin}/password-reset/new?token=${secret}\n\n` +
      `If it was not you, ignore this mail: your password stays as it is.`,
  };
}

export type OwnerMailOutcome = { sent: true } | { sent: false; reason: string };

/** Which hourly budget a tenant's mail is counted in: the owner's own mails, or the invitations the owner sends. */
const BUDGETS = {
  mails: { limit: PUBLIC.mailsPerTenant, words: "this tenant was sent" },
  invitations: { limit: PUBLIC.invitationsPerTenant, words: "this tenant sent" },
} as const;

/**
 * Sends a mail for the tenant through the deployment's mail service: at most
 * PUBLIC.mailsPerTenant an hour to one tenant's owner, whoever asks, so nobody can flood an
 * owner's inbox (and PUBLIC.invitationsPerTenant invitations from it, `budget`). A mail
 * that does not go is an outcome, not a failure of what sent it.
 */
export async function sendOwnerMail(env: Env, tenant: Pick<TenantRecord, "id">, mail: Mail, budget: keyof typeof BUDGETS = "mails"): Promise<OwnerMailOutcome> {
  const service = mailServiceFor(env);
  if (!service) return { sent: false, reason: "this deployment holds no mail service (EMAIL_API_TOKEN, EMAIL_FROM)" };
  const { free, windowSeconds } = BUDGETS[budget].limit;
  const { admitted } = await tenantLimiter(env, "mail", tenant.id).admitUnder(budget, free, windowSeconds, Date.now());
  if (!admitted) return { sent: false, reason: `${BUDGETS[budget].words} ${free} ${budget} in the last hour; ask again later` };
  try {
    await service.send(mail);
    return { sent: true };
  } catch (error) {
    if (error instanceof MailError) return { sent: false, reason: error.message };
    throw error;
  }
}

const liveLink = (hash: string, purpose: Purpose, now: string) =>
  and(eq(emailLinks.tokenHash, hash), eq(emailLinks.purpose, purpose), isNull(emailLinks.usedAt), gt(emailLinks.expiresAt, now));

/** The link's tenant and address while it can be used, without spending it (to show its form). */
export async function liveEmailLink(d1: D1Database, secret: string, purpose: Purpose, now: Date): Promise<{ tenantId: string; email: string } | null> {
  if (!SECRET.test(secret)) return null;
  const row = await drizzle(d1)
    .select({ tenantId: emailLinks.tenantId, email: emailLinks.email })
    .from(emailLinks)
    .where(liveLink(await sha256Hex(secret), purpose, now.toISOString()))
    .get();
  return row ?? null;
}

const LINK_TENANT = "(SELECT tenant_id FROM email_links WHERE token_hash = ?1 AND purpose = ?2 AND used_at IS NULL AND expires_at > ?3)";
const SPEND_LINK = "UPDATE email_links SET used_at = ?3 WHERE token_hash = ?1 AND purpose = ?2 AND used_at IS NULL AND expires_at > ?3 RETURNING tenant_id";

/** Spends a verification link: the owner's email (the address it was sent to, if it is still the owner's) is verified. The tenant, or null for a link that is unknown, spent or lapsed. */
export async function verifyOwnerEmail(d1: D1Database, secret: string, now: Date): Promise<string | null> {
  if (!SECRET.test(secret)) return null;
  const hash = await sha256Hex(secret);
  const at = now.toISOString();
  const [, spent] = await d1.batch([
    d1
      .prepare(`UPDATE tenants SET email_verified_at = ?3 WHERE id = ${LINK_TENANT} AND owner_email = (SELECT email FROM email_links WHERE token_hash = ?1)`)
      .bind(hash, "verify_email", at),
    d1.prepare(SPEND_LINK).bind(hash, "verify_email", at),
  ]);
  return (spent!.results[0] as { tenant_id: string } | undefined)?.tenant_id ?? null;
}

/**
 * Spends a reset link: the password is set (hashed afresh) and every session signed in with
 * it (the owner's; people's sessions are their own) ends, in one batch. The tenant, or null for a link that is unknown, spent or lapsed
 * (nothing changed then).
 */
export async function resetPassword(d1: D1Database, secret: string, password: string, now: Date): Promise<string | null> {
  if (!SECRET.test(secret)) return null;
  const hash = await sha256Hex(secret);
  const at = now.toISOString();
  const salt = randomSecret(16);
  const passwordHash = await hashPassword(password, salt);
  const [, , spent] = await d1.batch([
    d1
      .prepare(`UPDATE tenants SET password_salt = ?4, password_hash = ?5, password_iterations = ?6 WHERE id = ${LINK_TENANT}`)
      .bind(hash, "reset_password", at, salt, passwordHash, PASSWORD_ITERATIONS),
    d1.prepare(`UPDATE sessions SET ended_at = ?3, expires_at = ?3 WHERE tenant_id = ${LINK_TENANT} AND person_id IS NULL AND ended_at IS NULL`).bind(hash, "reset_password", at),
    d1.prepare(SPEND_LINK).bind(hash, "reset_password", at),
  ]);
  return (spent!.results[0] as { tenant_id: string } | undefined)?.tenant_id ?? null;
}

/** Forgets links past their expiry (the daily run), a batch at a time. Returns how many. */
export async function purgeEmailLinks(d1: D1Database, now: Date, batch = 1_000): Promise<number> {
  const db = drizzle(d1);
  const lapsed = db.select({ tokenHash: emailLinks.tokenHash }).from(emailLinks).where(lte(emailLinks.expiresAt, now.toISOString())).limit(batch);
  let purged = 0;
  for (;;) {
    const { meta } = await db.delete(emailLinks).where(inArray(emailLinks.tokenHash, lapsed));
    purged += meta.changes;
    if (meta.changes < batch) return purged;
  }
}
