/**
 * The mail the service sends a tenant's owner and its people, within an hourly budget per
 * recipient, and the single-use links in it: verifying the owner's email (72 hours), here,
 * and resetting a password (password-reset.ts). A link carries a 256-bit random secret;
 * the index keeps only its SHA-256, so a copy of the index opens nothing. A link is spent
 * when it is used (one statement stamps it and does what it does, in one D1 batch), and
 * lapses at its expiry.
 */
import { and, eq, gt, inArray, isNull, lte } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Env } from "../env";
import { emailLinks } from "../index-db/schema";
import { attemptLimiter, tenantLimiter, PUBLIC } from "../limits/attempts";
import { mailServiceFor } from "../providers/email";
import { MailError, type Mail } from "../providers/email/types";
import { randomSecret, sha256Hex } from "./crypto";
import type { TenantRecord } from "./tenants";

export const VERIFY_LINK_HOURS = 72;

export const LINK_SECRET = /^[A-Za-z0-9_-]{43}$/;

type Purpose = (typeof emailLinks.$inferSelect)["purpose"];

/** Whom a link is for: a tenant's owner, or a person. */
export type LinkAccount = { tenantId: string } | { personId: string };

/** A new link's secret, and the statement that files it (the index keeps its hash). */
export async function newLink(d1: D1Database, account: LinkAccount, email: string, purpose: Purpose, lifetimeMs: number, now: Date) {
  const secret = randomSecret(32);
  const statement = drizzle(d1)
    .insert(emailLinks)
    .values({
      tokenHash: await sha256Hex(secret),
      tenantId: "tenantId" in account ? account.tenantId : null,
      personId: "personId" in account ? account.personId : null,
      purpose,
      email,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + lifetimeMs).toISOString(),
    });
  return { secret, statement };
}

/** A verification link for the owner's email: the statement that files it (for the sign-up's batch) and the mail that carries it. */
export async function emailVerificationLink(d1: D1Database, tenant: string, email: string, origin: string, now: Date) {
  const { secret, statement } = await newLink(d1, { tenantId: tenant }, email, "verify_email", VERIFY_LINK_HOURS * 3_600_000, now);
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

export type MailOutcome = { sent: true } | { sent: false; reason: string };

/** Which hourly budget a mail is counted in: an owner's own mails, the invitations an owner sends, or a person's own mails. */
const BUDGETS = {
  mails: { list: "mails", limit: PUBLIC.mailsPerTenant, words: "this tenant was sent", what: "mails" },
  invitations: { list: "invitations", limit: PUBLIC.invitationsPerTenant, words: "this tenant sent", what: "invitations" },
  person: { list: "mails", limit: PUBLIC.mailsPerPerson, words: "this person was sent", what: "mails" },
} as const;

/**
 * Sends a mail through the deployment's mail service within its hourly budget, counted in
 * `limiter`: nobody can flood an inbox, whoever asks. A mail that does not go is an
 * outcome, not a failure of what sent it.
 */
async function sendWithin(env: Env, limiter: ReturnType<typeof attemptLimiter>, budget: keyof typeof BUDGETS, mail: Mail): Promise<MailOutcome> {
  const service = mailServiceFor(env);
  if (!service) return { sent: false, reason: "this deployment holds no mail service (EMAIL_API_TOKEN, EMAIL_FROM)" };
  const { list, limit, words, what } = BUDGETS[budget];
  const { admitted } = await limiter.admitUnder(list, limit.free, limit.windowSeconds, Date.now());
  if (!admitted) return { sent: false, reason: `${words} ${limit.free} ${what} in the last hour; ask again later` };
  try {
    await service.send(mail);
    return { sent: true };
  } catch (error) {
    if (error instanceof MailError) return { sent: false, reason: error.message };
    throw error;
  }
}

/**
 * Sends a mail for the tenant: at most PUBLIC.mailsPerTenant an hour to its owner, and
 * PUBLIC.invitationsPerTenant invitations from it (`budget`).
 */
export function sendOwnerMail(env: Env, tenant: Pick<TenantRecord, "id">, mail: Mail, budget: "mails" | "invitations" = "mails"): Promise<MailOutcome> {
  return sendWithin(env, tenantLimiter(env, "mail", tenant.id), budget, mail);
}

/** Sends a person a mail of their own account's: at most PUBLIC.mailsPerPerson an hour. */
export function sendPersonMail(env: Env, personId: string, mail: Mail): Promise<MailOutcome> {
  return sendWithin(env, attemptLimiter(env, `mail:person:${personId}`), "person", mail);
}

const liveLink = (hash: string, purpose: Purpose, now: string) =>
  and(eq(emailLinks.tokenHash, hash), eq(emailLinks.purpose, purpose), isNull(emailLinks.usedAt), gt(emailLinks.expiresAt, now));

/** The link's account (a tenant's owner or a person) and address while it can be used, without spending it (to show its form). */
export async function liveEmailLink(d1: D1Database, secret: string, purpose: Purpose, now: Date): Promise<{ tenantId: string | null; personId: string | null; email: string } | null> {
  if (!LINK_SECRET.test(secret)) return null;
  const row = await drizzle(d1)
    .select({ tenantId: emailLinks.tenantId, personId: emailLinks.personId, email: emailLinks.email })
    .from(emailLinks)
    .where(liveLink(await sha256Hex(secret), purpose, now.toISOString()))
    .get();
  return row ?? null;
}

/** In a statement bound (token hash, purpose, now): the live link's tenant, its person, and the statement that spends it. */
export const LINK_TENANT = "(SELECT tenant_id FROM email_links WHERE token_hash = ?1 AND purpose = ?2 AND used_at IS NULL AND expires_at > ?3)";
export const LINK_PERSON = "(SELECT person_id FROM email_links WHERE token_hash = ?1 AND purpose = ?2 AND used_at IS NULL AND expires_at > ?3)";
export const SPEND_LINK = "UPDATE email_links SET used_at = ?3 WHERE token_hash = ?1 AND purpose = ?2 AND used_at IS NULL AND expires_at > ?3 RETURNING tenant_id, person_id, email";

/** Spends a verification link: the owner's email (the address it was sent to, if it is still the owner's) is verified. The tenant, or null for a link that is unknown, spent or lapsed. */
export async function verifyOwnerEmail(d1: D1Database, secret: string, now: Date): Promise<string | null> {
  if (!LINK_SECRET.test(secret)) return null;
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
