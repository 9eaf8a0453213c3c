/**
 * A tenant's people as its owner manages them (docs/decisions.md, "People and roles"): the
 * seats and their roles, the invitations, and every change to them. Each change is a fact
 * that names its actor, appended or stamped once (the index's migration 0012 refuses any
 * other UPDATE and every DELETE): an invitation filed (withdrawing the one pending for the
 * same address), an invitation withdrawn, a seat's role changed (a `seat_roles` row), a
 * seat revoked. Another tenant's seat or invitation is not found here.
 */
import { and, asc, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { invitations, people, seatRoleNow, seatRoles, seats, type Role } from "../index-db/schema";
import type { Mail } from "../providers/email/types";
import { randomSecret, sha256Hex } from "./crypto";
import { sendOwnerMail, type MailOutcome } from "./owner-mail";
import type { TenantRecord } from "./tenants";

export const INVITATION_DAYS = 7;

/** One role a seat held, from when and by whose act: the role it was taken with (by the invitation's sender), then each change. */
export interface SeatRole {
  role: Role;
  at: string;
  by: string;
}

export interface Seat {
  seatId: number;
  personId: string;
  name: string;
  email: string;
  /** The role now. */
  role: Role;
  since: string;
  revokedAt: string | null;
  revokedBy: string | null;
  /** Every role it held, oldest first; the last is `role`. */
  roles: SeatRole[];
}

export type InvitationStatus = "pending" | "accepted" | "withdrawn" | "lapsed";

export interface Invitation {
  id: number;
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  /** The person who accepted it. */
  acceptedBy: string | null;
  withdrawnAt: string | null;
  withdrawnBy: string | null;
  status: InvitationStatus;
}

const invitationColumns = {
  id: invitations.id,
  email: invitations.email,
  role: invitations.role,
  invitedBy: invitations.invitedBy,
  createdAt: invitations.createdAt,
  expiresAt: invitations.expiresAt,
  acceptedAt: invitations.acceptedAt,
  acceptedBy: invitations.acceptedBy,
  withdrawnAt: invitations.withdrawnAt,
  withdrawnBy: invitations.withdrawnBy,
};

function invitationOf(row: Omit<Invitation, "status">, now: Date): Invitation {
  const status: InvitationStatus =
    row.acceptedAt !== null ? "accepted" : row.withdrawnAt !== null ? "withdrawn" : Date.parse(row.expiresAt) <= now.getTime() ? "lapsed" : "pending";
  return { ...row, status };
}

/** The tenant's seats, live ones only unless `withRevoked`, oldest first, each with the roles it held. */
async function readSeats(d1: D1Database, tenantId: string, where: { seatId?: number; withRevoked?: boolean }): Promise<Seat[]> {
  const db = drizzle(d1);
  const rows = await db
    .select({
      seatId: seats.id,
      personId: people.id,
      name: people.name,
      email: people.email,
      takenRole: seats.role,
      since: seats.createdAt,
      revokedAt: seats.revokedAt,
      revokedBy: seats.revokedBy,
      invitedBy: invitations.invitedBy,
    })
    .from(seats)
    .innerJoin(people, eq(people.id, seats.personId))
    .innerJoin(invitations, eq(invitations.id, seats.invitationId))
    .where(
      and(
        eq(seats.tenantId, tenantId),
        where.seatId !== undefined ? eq(seats.id, where.seatId) : undefined,
        where.withRevoked ? undefined : isNull(seats.revokedAt),
      ),
    )
    .orderBy(asc(seats.id));
  if (rows.length === 0) return [];
  const changes = await db
    .select({ seatId: seatRoles.seatId, role: seatRoles.role, at: seatRoles.at, by: seatRoles.actor })
    .from(seatRoles)
    .where(inArray(seatRoles.seatId, rows.map((r) => r.seatId)))
    .orderBy(asc(seatRoles.id));
  return rows.map(({ takenRole, invitedBy, ...row }) => {
    const roles: SeatRole[] = [{ role: takenRole, at: row.since, by: invitedBy }, ...changes.filter((c) => c.seatId === row.seatId).map(({ seatId: _, ...c }) => c)];
    return { ...row, role: roles.at(-1)!.role, roles };
  });
}

/** One of the tenant's seats, live or revoked; null when the tenant has no seat with that id. */
export async function seatOf(d1: D1Database, tenantId: string, seatId: number): Promise<Seat | null> {
  return (await readSeats(d1, tenantId, { seatId, withRevoked: true }))[0] ?? null;
}

/** The tenant's people: its live seats, oldest first, and the invitations still pending, newest first. */
export async function peopleOf(d1: D1Database, tenantId: string, now: Date): Promise<{ seats: Seat[]; pending: Invitation[] }> {
  const [held, pending] = await Promise.all([
    readSeats(d1, tenantId, {}),
    drizzle(d1)
      .select(invitationColumns)
      .from(invitations)
      .where(and(eq(invitations.tenantId, tenantId), isNull(invitations.acceptedAt), isNull(invitations.withdrawnAt), gt(invitations.expiresAt, now.toISOString())))
      .orderBy(desc(invitations.id)),
  ]);
  return { seats: held, pending: pending.map((row) => invitationOf(row, now)) };
}

/** Why `email` cannot be invited to the tenant before anything is read, or null: the owner signs in with the tenant's password, and holds no seat. */
export function ownerEmailProblem(tenant: Pick<TenantRecord, "ownerEmail">, email: string): string | null {
  return tenant.ownerEmail !== null && email === tenant.ownerEmail.toLowerCase() ? "is the owner's own email: the owner signs in with the tenant's password" : null;
}

/**
 * Invites `email` (lower-cased) to a seat in the tenant: files the invitation (withdrawing
 * any earlier one still pending for the same address, in the same batch, by the same
 * actor) and mails its link. A person who holds a live seat there already is refused
 * (`already_seated`). A mail that does not go leaves the invitation pending, and the
 * outcome says why.
 */
export async function invitePerson(
  env: Env,
  tenant: TenantRecord,
  input: { email: string; role: Role },
  invitedBy: string,
  origin: string,
  now: Date,
): Promise<{ invitation: Invitation; mail: MailOutcome }> {
  const db = drizzle(env.INDEX_DB);
  const seated = await db
    .select({ id: seats.id, role: seatRoleNow })
    .from(seats)
    .innerJoin(people, eq(people.id, seats.personId))
    .where(and(eq(seats.tenantId, tenant.id), eq(people.email, input.email), isNull(seats.revokedAt)))
    .get();
  if (seated) {
    throw new ApiError("already_seated", `${input.email} holds a seat here already (seat ${seated.id}, ${seated.role}); change that seat's role instead.`);
  }
  const secret = randomSecret(32);
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString();
  const [, filed] = await db.batch([
    db
      .update(invitations)
      .set({ withdrawnAt: at, withdrawnBy: invitedBy })
      .where(and(eq(invitations.tenantId, tenant.id), eq(invitations.email, input.email), isNull(invitations.acceptedAt), isNull(invitations.withdrawnAt))),
    db
      .insert(invitations)
      .values({ tokenHash: await sha256Hex(secret), tenantId: tenant.id, email: input.email, role: input.role, invitedBy, createdAt: at, expiresAt })
      .returning(invitationColumns),
  ]);
  const business = tenant.businessName ?? tenant.id;
  const mail: Mail = {
    to: input.email,
    subject: `You are invited to the books of ${business}`,
    text:
      `You are invited to the books of "${business}" (${tenant.id}) as ${input.role === "owner" ? "an owner" : `a ${input.role}`}. ` +
      `Accept here within ${INVITATION_DAYS} days (the link works once):\n\n` +
      `${origin}/invitations/accept?token=${secret}\n\n` +
      `If you did not expect this, ignore this mail.`,
  };
  return { invitation: invitationOf(filed[0]!, now), mail: await sendOwnerMail(env, tenant, mail, "invitations") };
}

/**
 * Withdraws an invitation of the tenant: its link opens nothing from now. One withdrawn
 * already is answered as it stands; one accepted is refused (`invitation_accepted`: its
 * person holds the seat). 404 for an id the tenant never invited.
 */
export async function withdrawInvitation(d1: D1Database, tenantId: string, id: number, actor: string, now: Date): Promise<Invitation> {
  const db = drizzle(d1);
  const [withdrawn] = await db
    .update(invitations)
    .set({ withdrawnAt: now.toISOString(), withdrawnBy: actor })
    .where(and(eq(invitations.id, id), eq(invitations.tenantId, tenantId), isNull(invitations.acceptedAt), isNull(invitations.withdrawnAt)))
    .returning(invitationColumns);
  if (withdrawn) return invitationOf(withdrawn, now);
  const row = await db.select(invitationColumns).from(invitations).where(and(eq(invitations.id, id), eq(invitations.tenantId, tenantId))).get();
  if (!row) throw ApiError.notFound(`This business sent no invitation ${id}.`);
  if (row.acceptedAt !== null) {
    throw new ApiError("invitation_accepted", `Invitation ${id} was accepted on ${row.acceptedAt}: its person holds the seat; revoke the seat instead.`);
  }
  return invitationOf(row, now);
}

/**
 * Changes the role of a live seat of the tenant: a `seat_roles` row, appended only while
 * the seat is live, so the person's next request has the new role. The same role again
 * appends nothing (`changed: false`). A revoked seat is refused (`seat_revoked`); 404 for
 * an id that is no seat of the tenant's.
 */
export async function changeSeatRole(d1: D1Database, tenantId: string, seatId: number, role: Role, actor: string, now: Date): Promise<{ seat: Seat; changed: boolean }> {
  const before = await seatOf(d1, tenantId, seatId);
  if (!before) throw ApiError.notFound(`This business has no seat ${seatId}.`);
  const revoked = () => new ApiError("seat_revoked", `Seat ${seatId} was revoked on ${before.revokedAt ?? now.toISOString()}; a new seat needs a new invitation.`);
  if (before.revokedAt !== null) throw revoked();
  if (before.role === role) return { seat: before, changed: false };
  const { meta } = await d1
    .prepare("INSERT INTO seat_roles (seat_id, tenant_id, role, actor, at) SELECT id, tenant_id, ?3, ?4, ?5 FROM seats WHERE id = ?1 AND tenant_id = ?2 AND revoked_at IS NULL")
    .bind(seatId, tenantId, role, actor, now.toISOString())
    .run();
  const after = (await seatOf(d1, tenantId, seatId))!;
  if (meta.changes === 0) throw new ApiError("seat_revoked", `Seat ${seatId} was revoked on ${after.revokedAt}; a new seat needs a new invitation.`);
  return { seat: after, changed: true };
}

/**
 * Revokes a seat of the tenant (stamped, kept): the person's sessions there reach nothing
 * from their next request. One revoked already is answered as it stands; 404 for an id
 * that is no seat of the tenant's.
 */
export async function revokeSeat(d1: D1Database, tenantId: string, seatId: number, actor: string, now: Date): Promise<Seat> {
  await drizzle(d1)
    .update(seats)
    .set({ revokedAt: now.toISOString(), revokedBy: actor })
    .where(and(eq(seats.id, seatId), eq(seats.tenantId, tenantId), isNull(seats.revokedAt)));
  const seat = await seatOf(d1, tenantId, seatId);
  if (!seat) throw ApiError.notFound(`This business has no seat ${seatId}.`);
  return seat;
}
