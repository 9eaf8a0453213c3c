/**
 * People: accounts that hold seats (docs/decisions.md, "People and roles"). A tenant's owner
 * invites people by email to a seat with a role (seats.ts); the emailed link is single-use,
 * lapses after INVITATION_DAYS and is kept only as its SHA-256 (as the owner's verification
 * link is). Accepting makes the person's account (email and password, hashed as the tenant's
 * password is), or adds the seat to the account that address already has (its password
 * proves it), and signs them in. A person signs in by email and password and works in one
 * tenant at a time, moving between the tenants where they hold a seat.
 */
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { ledgerOf, type Env } from "../env";
import { settle } from "../errors";
import { invitations, people, seatRoleNow, seats, tenants, type Role } from "../index-db/schema";
import { addressLimiter, attemptLimiter, SIGNIN } from "../limits/attempts";
import { constantTimeEqual, hashPassword, PASSWORD_ITERATIONS, randomSecret, sha256Hex } from "./crypto";
import { startSession } from "./sessions";
import type { TenantRecord } from "./tenants";

const SECRET = /^[A-Za-z0-9_-]{43}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type PersonRecord = typeof people.$inferSelect;

/** An address as people are found by it: trimmed and lower-cased; null when it is no email address. */
export function emailAddress(typed: string): string | null {
  const email = typed.trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : null;
}

function newPersonId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `p${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

const liveInvitation = (hash: string, at: string) =>
  and(eq(invitations.tokenHash, hash), isNull(invitations.acceptedAt), isNull(invitations.withdrawnAt), gt(invitations.expiresAt, at));

export interface OpenInvitation {
  id: number;
  tenantId: string;
  business: string;
  email: string;
  role: Role;
  /** Whether the address has an account already (accepting then asks for its password, not a new one). */
  hasAccount: boolean;
}

/** The invitation a link opens while it can be accepted, without spending it; null for one unknown, accepted, withdrawn or lapsed. */
export async function openInvitation(d1: D1Database, secret: string, now: Date): Promise<OpenInvitation | null> {
  if (!SECRET.test(secret)) return null;
  const row = await drizzle(d1)
    .select({ id: invitations.id, tenantId: invitations.tenantId, email: invitations.email, role: invitations.role, businessName: tenants.businessName, person: people.id })
    .from(invitations)
    .innerJoin(tenants, eq(tenants.id, invitations.tenantId))
    .leftJoin(people, eq(people.email, invitations.email))
    .where(liveInvitation(await sha256Hex(secret), now.toISOString()))
    .get();
  if (!row) return null;
  return { id: row.id, tenantId: row.tenantId, business: row.businessName ?? row.tenantId, email: row.email, role: row.role, hasAccount: row.person !== null };
}

export type Accepted =
  | { kind: "accepted"; person: PersonRecord; tenantId: string; role: Role; session: { value: string; expiresAt: Date } }
  /** The link is unknown, accepted already, withdrawn or lapsed. */
  | { kind: "spent" }
  /** The address has an account and the password given is not its own. */
  | { kind: "wrong_password" }
  /** The person holds a live seat in the tenant already. */
  | { kind: "seated" };

/**
 * Accepts an invitation: in one D1 batch, the person's account (for a new address), the seat
 * and the invitation stamped as accepted, each only while the invitation is live, so a link
 * used twice (or at once from two browsers) makes one seat. Then the tenant's ledger notes
 * the person, so its explanations name them, and a session starts in the tenant.
 */
export async function acceptInvitation(env: Env, secret: string, input: { name: string; password: string }, now: Date): Promise<Accepted> {
  const d1 = env.INDEX_DB;
  const invitation = await openInvitation(d1, secret, now);
  if (!invitation) return { kind: "spent" };
  const hash = await sha256Hex(secret);
  const at = now.toISOString();
  const existing = await findPersonByEmail(d1, invitation.email);
  let person: PersonRecord;
  const statements: D1PreparedStatement[] = [];
  const live = "EXISTS (SELECT 1 FROM invitations WHERE token_hash = ?1 AND accepted_at IS NULL AND withdrawn_at IS NULL AND expires_at > ?2)";
  if (existing) {
    if (!(await personPasswordMatches(existing, input.password))) return { kind: "wrong_password" };
    person = existing;
  } else {
    const salt = randomSecret(16);
    person = {
      id: newPersonId(),
      email: invitation.email,
      name: input.name,
      passwordSalt: salt,
      passwordHash: await hashPassword(input.password, salt),
      passwordIterations: PASSWORD_ITERATIONS,
      createdAt: at,
    };
    statements.push(
      d1
        .prepare(
          "INSERT INTO people (id, email, name, password_salt, password_hash, password_iterations, created_at) " +
            `SELECT ?3, ?4, ?5, ?6, ?7, ?8, ?2 WHERE ${live}`,
        )
        .bind(hash, at, person.id, person.email, person.name, person.passwordSalt, person.passwordHash, person.passwordIterations),
    );
  }
  statements.push(
    d1
      .prepare(
        "INSERT INTO seats (person_id, tenant_id, role, invitation_id, created_at) " +
          `SELECT ?3, tenant_id, role, id, ?2 FROM invitations WHERE token_hash = ?1 AND accepted_at IS NULL AND withdrawn_at IS NULL AND expires_at > ?2`,
      )
      .bind(hash, at, person.id),
    d1
      .prepare("UPDATE invitations SET accepted_at = ?2, accepted_by = ?3 WHERE token_hash = ?1 AND accepted_at IS NULL AND withdrawn_at IS NULL AND expires_at > ?2 RETURNING id")
      .bind(hash, at, person.id),
  );
  let spent: D1Result;
  try {
    spent = (await d1.batch(statements)).at(-1)!;
  } catch (error) {
    // The one live seat a person may hold in a tenant: the batch fails whole on a second.
    if (String(error).includes("UNIQUE") && (await liveSeat(d1, person.id, invitation.tenantId))) return { kind: "seated" };
    throw error;
  }
  if (spent.results.length === 0) return { kind: "spent" };
  settle(await ledgerOf(env, invitation.tenantId).notePerson({ id: person.id, name: person.name, email: person.email }));
  const session = await startSession(d1, invitation.tenantId, now, person.id);
  return { kind: "accepted", person, tenantId: invitation.tenantId, role: invitation.role, session };
}

export async function findPersonByEmail(d1: D1Database, email: string): Promise<PersonRecord | undefined> {
  return drizzle(d1).select().from(people).where(eq(people.email, email)).get();
}

/** Whether the password is the person's (or, for none, the same work for nothing). */
async function personPasswordMatches(person: PersonRecord | undefined, password: string): Promise<boolean> {
  const hash = await hashPassword(password, person?.passwordSalt ?? "no-such-person", person?.passwordIterations ?? PASSWORD_ITERATIONS);
  return constantTimeEqual(hash, person?.passwordHash ?? "") && person !== undefined;
}

async function liveSeat(d1: D1Database, personId: string, tenantId: string) {
  return drizzle(d1)
    .select()
    .from(seats)
    .where(and(eq(seats.personId, personId), eq(seats.tenantId, tenantId), isNull(seats.revokedAt)))
    .get();
}

export type PersonSignIn =
  | { kind: "signed_in"; person: PersonRecord; tenantId: string; seats: number; session: { value: string; expiresAt: Date } }
  /** The email and password do not match, or the person holds no live seat anywhere (401; the same answer). */
  | { kind: "refused" }
  | { kind: "wait"; seconds: number; detail: string };

/**
 * A person's sign-in by email and password. Limited as the owner's is from browsers it has
 * not seen: per client address (SIGNIN.address), and per person (SIGNIN.untrusted's waits,
 * under the address's hash, so a guesser of one person's password waits however many
 * addresses it uses). There is no texted code: a person enrols no phone. A person who
 * holds no live seat is refused with the same answer as a wrong password. The session
 * starts in the tenant of the person's oldest live seat.
 */
export async function signInPerson(env: Env, attempt: { email: string; password: string; address: string | null; now: Date }): Promise<PersonSignIn> {
  const nowMs = attempt.now.getTime();
  const byAddress = addressLimiter(env, "signin", attempt.address);
  const addressTry = await byAddress.admit("attempts", SIGNIN.address, nowMs);
  if (addressTry.wait > 0) return { kind: "wait", seconds: addressTry.wait, detail: `Too many failed sign-in attempts from this client lately; try again in ${addressTry.wait} s.` };
  const byPerson = attemptLimiter(env, `signin:person:${await sha256Hex(attempt.email)}`);
  const personTry = await byPerson.admit("attempts", SIGNIN.untrusted, nowMs);
  if (personTry.wait > 0) {
    await byAddress.forgive("attempts", addressTry.at);
    return { kind: "wait", seconds: personTry.wait, detail: `Too many failed sign-in attempts to this account lately; try again in ${personTry.wait} s.` };
  }
  const person = await findPersonByEmail(env.INDEX_DB, attempt.email);
  if (!(await personPasswordMatches(person, attempt.password)) || !person) return { kind: "refused" };
  const held = await seatsOf(env.INDEX_DB, person.id);
  if (held.length === 0) return { kind: "refused" };
  await Promise.all([byAddress.forgive("attempts", addressTry.at), byPerson.forgive("attempts", personTry.at)]);
  const session = await startSession(env.INDEX_DB, held[0]!.tenantId, attempt.now, person.id);
  return { kind: "signed_in", person, tenantId: held[0]!.tenantId, seats: held.length, session };
}

export interface HeldSeat {
  seatId: number;
  tenantId: string;
  business: string;
  role: Role;
  since: string;
  /** What the tenant's face is made from (src/ledger/face.ts). */
  tier: TenantRecord["tier"];
  visibleFrom: string | null;
}

/** A person's live seats, oldest first, each with its tenant's business name. */
export async function seatsOf(d1: D1Database, personId: string): Promise<HeldSeat[]> {
  const rows = await drizzle(d1)
    .select({ seatId: seats.id, tenantId: seats.tenantId, businessName: tenants.businessName, role: seatRoleNow, since: seats.createdAt, tier: tenants.tier, visibleFrom: tenants.visibleFrom })
    .from(seats)
    .innerJoin(tenants, eq(tenants.id, seats.tenantId))
    .where(and(eq(seats.personId, personId), isNull(seats.revokedAt)))
    .orderBy(asc(seats.id));
  return rows.map(({ businessName, ...r }) => ({ ...r, business: businessName ?? r.tenantId }));
}
