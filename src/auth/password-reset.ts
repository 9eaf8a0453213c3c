/**
 * A forgotten password, reset by an emailed link: one flow for the owner (the tenant's
 * password, asked for by the tenant's handle, mailed only to a verified owner's email) and
 * for a person (their own account's, asked for by their email, which accepting an
 * invitation proved theirs). Asking answers the same whether or not there is such an
 * account, and is limited per client address (PUBLIC.resets) and per recipient (the mail
 * budgets). The link works once, within RESET_LINK_MINUTES; choosing the new password
 * ends every session of that account: the owner's sessions of the tenant, or the person's
 * in every business.
 */
import type { Env } from "../env";
import type { Mail } from "../providers/email/types";
import { hashPassword, PASSWORD_ITERATIONS, randomSecret, sha256Hex } from "./crypto";
import { LINK_PERSON, LINK_SECRET, LINK_TENANT, newLink, sendOwnerMail, sendPersonMail, SPEND_LINK } from "./owner-mail";
import { emailAddress, findPersonByEmail } from "./people";
import { spendPublicAttempt } from "./signup";
import { findTenant } from "./tenants";

export const RESET_LINK_MINUTES = 60;

/** Whose password a reset is asked for: the owner's, by the tenant's handle, or a person's, by their email. */
export type ResetAccount = { tenant: string } | { email: string };

/** The account a reset link is for, with the address it goes to. */
export type ResetLinkAccount = { tenantId: string; email: string } | { personId: string; email: string };

/** A reset link, filed, and the mail that carries it. */
export async function passwordResetLink(d1: D1Database, account: ResetLinkAccount, origin: string, now: Date): Promise<Mail> {
  const whose = "tenantId" in account ? { tenantId: account.tenantId } : { personId: account.personId };
  const { secret, statement } = await newLink(d1, whose, account.email, "reset_password", RESET_LINK_MINUTES * 60_000, now);
  await statement;
  const named = "tenantId" in account ? `"${account.tenantId}"` : `your account (${account.email})`;
  return {
    to: account.email,
    subject: "tenantId" in account ? `Reset the password of ${account.tenantId}` : "Reset your password",
    text:
      `Someone asked to reset the password of ${named}. If it was you, choose a new one here within ${RESET_LINK_MINUTES} minutes (the link works once):\n\n` +
      `${origin}/password-reset/new?token=${secret}\n\n` +
      `If it was not you, ignore this mail: your password stays as it is.`,
  };
}

/**
 * Asks for a reset link: counted against the client address first (429 `rate_limited` past
 * PUBLIC.resets), then, where the account exists (and for the owner, its email is
 * verified), a link is filed and its mail sent by `defer`, after the answer, within the
 * recipient's hourly budget. Nothing in the outcome or its time says whether it did.
 */
export async function askForPasswordReset(
  env: Env,
  account: ResetAccount,
  request: { address: string | null; origin: string; now: Date; defer: (work: Promise<unknown>) => void },
): Promise<void> {
  const { origin, now } = request;
  await spendPublicAttempt(env, "resets", request.address, now);
  if ("tenant" in account) {
    const tenant = account.tenant === "" ? undefined : await findTenant(env.INDEX_DB, account.tenant);
    if (!tenant?.ownerEmail || tenant.emailVerifiedAt === null) return;
    const mail = await passwordResetLink(env.INDEX_DB, { tenantId: tenant.id, email: tenant.ownerEmail }, origin, now);
    request.defer(sendOwnerMail(env, tenant, mail).catch((error: unknown) => console.error(`a reset link for ${tenant.id} could not be mailed:`, error)));
    return;
  }
  const email = emailAddress(account.email);
  const person = email === null ? undefined : await findPersonByEmail(env.INDEX_DB, email);
  if (!person) return;
  const mail = await passwordResetLink(env.INDEX_DB, { personId: person.id, email: person.email }, origin, now);
  request.defer(sendPersonMail(env, person.id, mail).catch((error: unknown) => console.error(`a reset link for ${person.id} could not be mailed:`, error)));
}

/** What asking for a reset answers, in words that are the same whether or not the account exists. */
export function resetAskedWords(account: ResetAccount): string {
  const whose = "email" in account ? "that email is the account of someone invited to a business here" : "that tenant's owner has a verified email";
  return `If ${whose}, a link to reset the password was mailed to it; it works once, within ${RESET_LINK_MINUTES} minutes.`;
}

/** Whose password a spent link set: the owner's (the tenant's) or a person's. */
export type PasswordSet = { account: "owner"; tenantId: string; email: string } | { account: "person"; personId: string; email: string };

/**
 * Spends a reset link: the password of its account is set (hashed afresh) and every session
 * signed in with it ends (the owner's sessions of the tenant, or the person's everywhere),
 * in one batch. Null for a link that is unknown, spent or lapsed (nothing changed then).
 */
export async function resetPassword(d1: D1Database, secret: string, password: string, now: Date): Promise<PasswordSet | null> {
  if (!LINK_SECRET.test(secret)) return null;
  const hash = await sha256Hex(secret);
  const at = now.toISOString();
  const salt = randomSecret(16);
  const passwordHash = await hashPassword(password, salt);
  const bound = (sql: string) => d1.prepare(sql).bind(hash, "reset_password", at, salt, passwordHash, PASSWORD_ITERATIONS);
  const [, , , , spent] = await d1.batch([
    bound(`UPDATE tenants SET password_salt = ?4, password_hash = ?5, password_iterations = ?6 WHERE id = ${LINK_TENANT}`),
    bound(`UPDATE people SET password_salt = ?4, password_hash = ?5, password_iterations = ?6 WHERE id = ${LINK_PERSON}`),
    d1.prepare(`UPDATE sessions SET ended_at = ?3, expires_at = ?3 WHERE tenant_id = ${LINK_TENANT} AND person_id IS NULL AND ended_at IS NULL`).bind(hash, "reset_password", at),
    d1.prepare(`UPDATE sessions SET ended_at = ?3, expires_at = ?3 WHERE person_id = ${LINK_PERSON} AND ended_at IS NULL`).bind(hash, "reset_password", at),
    d1.prepare(SPEND_LINK).bind(hash, "reset_password", at),
  ]);
  const row = spent!.results[0] as { tenant_id: string | null; person_id: string | null; email: string } | undefined;
  if (!row) return null;
  return row.tenant_id !== null ? { account: "owner", tenantId: row.tenant_id, email: row.email } : { account: "person", personId: row.person_id!, email: row.email };
}
