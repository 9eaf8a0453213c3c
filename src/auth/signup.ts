/**
 * Signing a tenant up: the one path behind the sign-up page, `POST /api/v1/sign-up` and
 * the sandbox's `POST /sandbox/tenants`.
 *
 * The tenant's Durable Object and its index rows are made together, and a sign-up that
 * stops half-way leaves nothing anyone can reach and is safe to send again:
 * 1. the handle is checked (its form, the reserved words, taken: the index's row);
 * 2. the tenant's object is opened: its first call, which writes the ledger's opening and
 *    answers the same however often it is made (a sign-up that stopped after it left an
 *    object nobody can reach: no row names it, so no credential does);
 * 3. the index's rows, the tenant and its verification link, are written in one D1 batch
 *    (a transaction): all of them or none; a handle taken meanwhile fails the batch whole.
 * The same sign-up sent again with its idempotency key (a retry after a lost answer) finds
 * its row and answers as the first did; without the key, a taken handle is a 409.
 */
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import { ledgerOf, type Env } from "../env";
import { ApiError, settle } from "../errors";
import { attemptLimiter, PUBLIC } from "../limits/attempts";
import { mailServiceFor } from "../providers/email";
import type { Tier } from "../tiers";
import { sha256Hex } from "./crypto";
import { emailVerificationLink, sendOwnerMail, type MailOutcome } from "./owner-mail";
import { findTenant, insertTenantStatement, TENANT_SLUG, type TenantRecord } from "./tenants";

/** Handles no tenant may take: they name parts of the service, or could be read as it. */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  "about", "account", "accounts", "admin", "administrator", "api", "app", "apps", "assets", "auth", "billing", "blog",
  "cdn", "dashboard", "docs", "help", "hooks", "ledger", "login", "logout", "mail", "mcp", "me", "new", "null", "oauth",
  "openapi", "owner", "password", "password-reset", "pricing", "root", "sandbox", "security", "service", "settings", "signin",
  "signout", "signup", "sign-in", "sign-out", "sign-up", "static", "status", "support", "system", "tenant", "tenants",
  "terms", "undefined", "verify", "verify-email", "webhook", "webhooks", "www",
]);

export const HANDLE_RULE = "3 to 40 characters: lower-case letters a-z, digits and -";

/** Why a handle cannot be signed up (its form or a reserved word), or null. Taken handles are found in the index. */
export function handleProblem(handle: string): { code: "invalid_request" | "handle_reserved"; message: string } | null {
  if (!TENANT_SLUG.test(handle)) return { code: "invalid_request", message: `a tenant handle is ${HANDLE_RULE}` };
  if (RESERVED_HANDLES.has(handle)) return { code: "handle_reserved", message: `"${handle}" is reserved; choose another handle` };
  return null;
}

export interface SignUpInput {
  tenant: string;
  businessName: string;
  tier: Tier;
  password: string;
  /** The owner's email; a sandbox sign-up may give none. */
  ownerEmail: string | null;
  /** E.164, or "" for none. */
  phone: string;
  smsEnabled: boolean;
  visibleFrom: string | null;
  /** Public sign-ups accept the terms; the sandbox's stand-in person does not. */
  termsAccepted: boolean;
  /** A client's key for this sign-up: sent again with it, the sign-up answers as it did. */
  idempotencyKey: string | null;
}

export interface SignedUp {
  tenant: TenantRecord;
  /** False when this answers a sign-up made before with the same idempotency key. */
  created: boolean;
  /** Whether the owner's verification mail went, and why not (null: no email to verify). */
  verificationMail: MailOutcome | null;
}

/** Refused with 429 `rate_limited` past the public operations' limit for the client's address (`public:address:<a>`). */
export async function spendPublicAttempt(env: Env, kind: keyof Pick<typeof PUBLIC, "signups" | "resets">, address: string | null, now: Date): Promise<void> {
  const limiter = attemptLimiter(env, `public:address:${address ?? "unknown"}`);
  const { wait } = await limiter.admit(kind, PUBLIC[kind], now.getTime());
  if (wait > 0) {
    const what = kind === "signups" ? "sign-ups" : "password resets";
    throw ApiError.rateLimited(`This client address asked for too many ${what} in the last hour; try again in ${wait} s.`, wait);
  }
}

/** A sign-up as the public asks for it (the API's body, the page's form), in the words of `sign_up`. */
export interface PublicSignUp {
  tenant: string;
  business_name: string;
  tier: Tier;
  password: string;
  owner_email: string;
  phone?: string;
  terms_accepted: boolean;
  idempotency_key?: string;
}

/**
 * The one path of a public sign-up, for the API and the page alike: the client address's
 * limit spent, then `signUp` with the owner texted by default and no visibility floor.
 */
export async function signUpPublicly(env: Env, body: PublicSignUp, address: string | null, origin: string, now: Date): Promise<SignedUp> {
  await spendPublicAttempt(env, "signups", address, now);
  return signUp(
    env,
    {
      tenant: body.tenant,
      businessName: body.business_name,
      tier: body.tier,
      password: body.password,
      ownerEmail: body.owner_email,
      phone: body.phone ?? "",
      smsEnabled: true,
      visibleFrom: null,
      termsAccepted: body.terms_accepted,
      idempotencyKey: body.idempotency_key ?? null,
    },
    origin,
    now,
  );
}

/**
 * Signs a tenant up (steps above). `origin` is where the emailed link points. The mail
 * is sent once the rows are written; a mail that does not go does not undo the sign-up
 * (the owner asks for another from /settings), and the answer says so.
 */
export async function signUp(env: Env, input: SignUpInput, origin: string, now: Date): Promise<SignedUp> {
  const problem = handleProblem(input.tenant);
  if (problem?.code === "handle_reserved") throw new ApiError("handle_reserved", `The tenant handle ${problem.message}.`);
  if (problem) throw ApiError.invalid([{ field: "body.tenant", message: problem.message, code: "invalid_string" }]);
  if (input.ownerEmail !== null && mailServiceFor(env) === null) {
    throw new ApiError("email_unavailable", "This deployment holds no mail service (EMAIL_API_TOKEN, EMAIL_FROM), so the owner's email could never be verified; nothing was written.");
  }
  const keyHash = input.idempotencyKey === null ? null : await sha256Hex(`signup\u0000${input.idempotencyKey}`);

  const existing = await findTenant(env.INDEX_DB, input.tenant);
  if (existing) return replayed(env, existing, keyHash, origin, now);

  settle(await ledgerOf(env, input.tenant).openLedger(input.tenant));

  const link = input.ownerEmail === null ? null : await emailVerificationLink(env.INDEX_DB, input.tenant, input.ownerEmail, origin, now);
  const row = await insertTenantStatement(
    env.INDEX_DB,
    {
      tenant: input.tenant,
      tier: input.tier,
      visibleFrom: input.visibleFrom,
      phone: input.phone,
      smsEnabled: input.smsEnabled,
      password: input.password,
      businessName: input.businessName,
      ownerEmail: input.ownerEmail,
      emailVerifiedAt: null,
      termsAcceptedAt: input.termsAccepted ? now.toISOString() : null,
      signupKeyHash: keyHash,
    },
    now,
  );
  const statements: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] = link ? [row.statement, link.statement] : [row.statement];
  try {
    await drizzle(env.INDEX_DB).batch(statements);
  } catch (error) {
    // Another sign-up took the handle between the check and the batch: nothing of this one was written.
    const taken = await findTenant(env.INDEX_DB, input.tenant);
    if (taken) return replayed(env, taken, keyHash, origin, now);
    throw error;
  }
  const tenant = (await findTenant(env.INDEX_DB, input.tenant))!;
  const verificationMail = link ? await sendOwnerMail(env, tenant, link.mail) : null;
  return { tenant, created: true, verificationMail };
}

/** The handle's row exists: this very sign-up sent again (same key) answers as it did, with a fresh verification mail while unverified; anyone else's is a 409. */
async function replayed(env: Env, tenant: TenantRecord, keyHash: string | null, origin: string, now: Date): Promise<SignedUp> {
  if (keyHash === null || tenant.signupKeyHash !== keyHash) throw new ApiError("tenant_taken", `The tenant handle "${tenant.id}" is taken.`);
  if (tenant.ownerEmail === null || tenant.emailVerifiedAt !== null) return { tenant, created: false, verificationMail: null };
  const link = await emailVerificationLink(env.INDEX_DB, tenant.id, tenant.ownerEmail, origin, now);
  await link.statement;
  return { tenant, created: false, verificationMail: await sendOwnerMail(env, tenant, link.mail) };
}
