import { emailAddress } from "../../auth/people";
import * as seats from "../../auth/seats";
import type { Invitation, Seat } from "../../auth/seats";
import { ApiError } from "../../errors";
import { defineEndpoint } from "../define";
import {
  invitationParams,
  invitationResponse,
  invitedResponse,
  inviteBody,
  peopleResponse,
  roleBody,
  roleChangedResponse,
  seatParams,
  seatResponse,
} from "./schema";

/** Why every people operation is the owner's browser session's alone, in the words each description ends with. */
const OWNER_SESSION =
  "Session only, and the owner's (the tenant's password session or a co-owner's): a bearer token, the tool face included, " +
  "is 403 `session_only`, so no token can seat someone who could then do what tokens cannot; a bookkeeper's or a viewer's " +
  "session is 403 `role_refused`. Another business's seat or invitation is a 404.";

function seatView(s: Seat) {
  return {
    seat_id: s.seatId,
    person_id: s.personId,
    name: s.name,
    email: s.email,
    role: s.role,
    since: s.since,
    revoked_at: s.revokedAt,
    revoked_by: s.revokedBy,
    roles: s.roles,
  };
}

function invitationView(i: Invitation) {
  return {
    invitation_id: i.id,
    email: i.email,
    role: i.role,
    status: i.status,
    invited_by: i.invitedBy,
    created_at: i.createdAt,
    expires_at: i.expiresAt,
    accepted_at: i.acceptedAt,
    withdrawn_at: i.withdrawnAt,
    withdrawn_by: i.withdrawnBy,
  };
}

export const listPeople = defineEndpoint({
  operationId: "list_people",
  method: "get",
  path: "/api/v1/people",
  tag: "people",
  summary: "List the people and their roles",
  description:
    "The tenant's owner, the people who hold a live seat (each with its role and every role it held, with who made each " +
    "change) and the invitations still pending. Add people with invite_person (POST /api/v1/people/invitations): the " +
    `person accepts the mailed link in a browser. ${OWNER_SESSION}`,
  credential: "session",
  addedBy: ["invite_person"],
  success: { status: 200, description: "The people.", schema: peopleResponse },
  async handler({ env, caller, now }) {
    const listed = await seats.peopleOf(env.INDEX_DB, caller.tenant.id, now);
    return {
      owner: { email: caller.tenant.ownerEmail, email_verified: caller.tenant.emailVerifiedAt !== null },
      people: listed.seats.map(seatView),
      invitations: listed.pending.map(invitationView),
    };
  },
});

export const invitePerson = defineEndpoint({
  operationId: "invite_person",
  method: "post",
  path: "/api/v1/people/invitations",
  tag: "people",
  summary: "Invite someone to a seat",
  description:
    "Mails `email` a single-use link to a seat with `role`, which lapses after 7 days; accepting it (in a browser) makes " +
    "the person's account, or adds the seat to the account that address has, and signs them in. A new invitation to the " +
    "same address withdraws the pending one. An address whose person holds a seat here already is 409 `already_seated` " +
    "(change that seat's role instead); the owner's own email is 400. At most 20 invitations a tenant an hour are mailed: " +
    `past that, or where the mail service refuses, the invitation is filed and the answer says it was not sent. ${OWNER_SESSION}`,
  credential: "session",
  body: inviteBody,
  success: { status: 201, description: "The invitation, filed, and whether its mail went.", schema: invitedResponse },
  errors: { already_seated: "The address's person holds a live seat here already." },
  async handler({ env, caller, body, origin, now }) {
    const email = emailAddress(body.email);
    const problem = email === null ? "an email address" : seats.ownerEmailProblem(caller.tenant, email);
    if (problem !== null) throw ApiError.invalid([{ field: "body.email", message: problem, code: "invalid_value" }]);
    const { invitation, mail } = await seats.invitePerson(env, caller.tenant, { email: email!, role: body.role }, caller.actor, origin, now);
    return {
      invitation: invitationView(invitation),
      invitation_email: mail.sent ? ("sent" as const) : ("not_sent" as const),
      invitation_email_problem: mail.sent ? null : mail.reason,
    };
  },
});

export const withdrawInvitation = defineEndpoint({
  operationId: "withdraw_invitation",
  idempotent: true,
  method: "post",
  path: "/api/v1/people/invitations/{invitation_id}/withdraw",
  tag: "people",
  summary: "Withdraw an invitation",
  description:
    "Stamps the invitation withdrawn: its link opens nothing from now. Withdrawing again (or a lapsed one) answers it as " +
    "it stands. One accepted is 409 `invitation_accepted`: its person holds the seat, so revoke the seat instead. Takes " +
    `no body. ${OWNER_SESSION}`,
  credential: "session",
  params: invitationParams,
  success: { status: 200, description: "The invitation as it now stands.", schema: invitationResponse },
  errors: { not_found: "This business sent no invitation with this id.", invitation_accepted: "The invitation was accepted." },
  async handler({ env, caller, params, now }) {
    return { invitation: invitationView(await seats.withdrawInvitation(env.INDEX_DB, caller.tenant.id, params.invitation_id, caller.actor, now)) };
  },
});

export const changeSeatRole = defineEndpoint({
  operationId: "change_seat_role",
  idempotent: true,
  method: "post",
  path: "/api/v1/people/seats/{seat_id}/role",
  tag: "people",
  summary: "Change a seat's role",
  description:
    "Appends the seat's new role (the roles before it stay listed, with who changed each): the person's very next request " +
    "has it. The role it holds already appends nothing (`changed: false`). A revoked seat is 409 `seat_revoked`: a new " +
    `seat needs a new invitation. ${OWNER_SESSION}`,
  credential: "session",
  params: seatParams,
  body: roleBody,
  success: { status: 200, description: "The seat with its role, and whether it changed.", schema: roleChangedResponse },
  errors: { not_found: "This business has no seat with this id.", seat_revoked: "The seat was revoked." },
  async handler({ env, caller, params, body, now }) {
    const { seat, changed } = await seats.changeSeatRole(env.INDEX_DB, caller.tenant.id, params.seat_id, body.role, caller.actor, now);
    return { seat: seatView(seat), changed };
  },
});

export const revokeSeat = defineEndpoint({
  operationId: "revoke_seat",
  idempotent: true,
  method: "post",
  path: "/api/v1/people/seats/{seat_id}/revoke",
  tag: "people",
  summary: "Revoke a seat",
  description:
    "Stamps the seat revoked (it is kept, listed nowhere live): the person's sessions in this business reach nothing from " +
    "their next request, and their seats elsewhere are untouched. Revoking again answers the revoked seat unchanged. " +
    `Takes no body. ${OWNER_SESSION}`,
  credential: "session",
  params: seatParams,
  success: { status: 200, description: "The seat, revoked.", schema: seatResponse },
  errors: { not_found: "This business has no seat with this id." },
  async handler({ env, caller, params, now }) {
    return { seat: seatView(await seats.revokeSeat(env.INDEX_DB, caller.tenant.id, params.seat_id, caller.actor, now)) };
  },
});
