import { z } from "@hono/zod-openapi";
import { ROLES } from "../../index-db/schema";
import { paramInteger } from "../shared";

const roleSchema = z.enum(ROLES).openapi({
  description: "`owner`: everything; `bookkeeper`: the books, rules and reports, no tokens, grants, people, settings or banks; `viewer`: reads only.",
  example: "bookkeeper",
});

const actor = (description: string, example: string | null = "human:acme-bakery") => z.string().nullable().openapi({ description, example });

export const seatSchema = z
  .object({
    seat_id: z.number().int().openapi({ description: "The seat's id in the service.", example: 12 }),
    person_id: z.string().openapi({ description: "The person's id; their actor is `person:<person_id>`.", example: "p3f9c1a7e5b2d4c60" }),
    name: z.string().openapi({ description: "The person's name, as they gave it when they accepted their first invitation.", example: "Dana Reyes" }),
    email: z.string().openapi({ description: "The person's email (lower-cased): where their invitations and password resets go.", example: "dana@books.example" }),
    role: roleSchema,
    since: z.string().openapi({ description: "When the seat was taken (the invitation accepted).", example: "2026-11-20T15:04:05.000Z" }),
    revoked_at: z.string().nullable().openapi({ description: "When the seat was revoked; null while it is live. Never unset.", example: null }),
    revoked_by: actor("Who revoked it: `human:<tenant>` (the owner's session) or `person:<id>` (a co-owner's); null while it is live.", null),
    roles: z
      .array(
        z.object({
          role: roleSchema,
          at: z.string().openapi({ description: "From when.", example: "2026-11-20T15:04:05.000Z" }),
          by: z.string().openapi({ description: "Whose act: for the first, who sent the invitation; then who changed the role.", example: "human:acme-bakery" }),
        }),
      )
      .openapi({ description: "Every role the seat held, oldest first: the role it was taken with, then each change. The last is `role`." }),
  })
  .openapi("Seat");

export const invitationSchema = z
  .object({
    invitation_id: z.number().int().openapi({ description: "The invitation's id.", example: 5 }),
    email: z.string().openapi({ description: "Where it was mailed (lower-cased).", example: "dana@books.example" }),
    role: roleSchema,
    status: z.enum(["pending", "accepted", "withdrawn", "lapsed"]).openapi({
      description: "`pending`: its link can be accepted; `accepted`: its person holds the seat; `withdrawn`: its link opens nothing; `lapsed`: its 7 days passed.",
      example: "pending",
    }),
    invited_by: z.string().openapi({ description: "Who sent it: `human:<tenant>` or `person:<id>`.", example: "human:acme-bakery" }),
    created_at: z.string().openapi({ description: "When it was sent.", example: "2026-11-20T15:04:05.000Z" }),
    expires_at: z.string().openapi({ description: "When its link lapses, unless accepted or withdrawn first.", example: "2026-11-27T15:04:05.000Z" }),
    accepted_at: z.string().nullable().openapi({ description: "When it was accepted; null until then.", example: null }),
    withdrawn_at: z.string().nullable().openapi({ description: "When it was withdrawn (by the owner, or by a newer invitation to the same address); null until then.", example: null }),
    withdrawn_by: actor("Who withdrew it (or sent the newer invitation that did); null until then.", null),
  })
  .openapi("Invitation");

export const peopleResponse = z
  .object({
    owner: z
      .object({
        email: z.string().nullable().openapi({ description: "The owner's email (a sandbox sign-up may have none).", example: "owner@acme-bakery.example" }),
        email_verified: z.boolean().openapi({ description: "Whether a link mailed to it was followed.", example: true }),
      })
      .openapi({ description: "The tenant's owner, who signs in with the tenant's handle and password: always an owner, never a seat." }),
    people: z.array(seatSchema).openapi({ description: "The live seats, oldest first." }),
    invitations: z.array(invitationSchema).openapi({ description: "The invitations still pending, newest first." }),
  })
  .openapi("People");

export const inviteBody = z
  .object({
    email: z.email("an email address").max(254).openapi({ description: "Where to mail the invitation; compared lower-cased.", example: "dana@books.example" }),
    role: roleSchema,
  })
  .openapi("InvitePerson");

export const invitedResponse = z
  .object({
    invitation: invitationSchema,
    invitation_email: z.enum(["sent", "not_sent"]).openapi({
      description: "`sent`: the link was mailed; `not_sent`: it could not be (the invitation stays pending: withdraw it and invite again later).",
      example: "sent",
    }),
    invitation_email_problem: z.string().nullable().openapi({ description: "Why the mail was not sent, or null.", example: null }),
  })
  .openapi("Invited");

export const invitationParams = z.object({
  invitation_id: paramInteger().openapi({ param: { name: "invitation_id", in: "path" }, description: "The invitation's id.", example: 97 }),
});

export const invitationResponse = z.object({ invitation: invitationSchema }).openapi("InvitationAnswer");

export const seatParams = z.object({
  seat_id: paramInteger().openapi({ param: { name: "seat_id", in: "path" }, description: "The seat's id.", example: 97 }),
});

export const roleBody = z.object({ role: roleSchema }).openapi("SeatRoleChange");

export const roleChangedResponse = z
  .object({
    seat: seatSchema,
    changed: z.boolean().openapi({ description: "False when the seat held that role already (nothing was appended).", example: true }),
  })
  .openapi("SeatRoleChanged");

export const seatResponse = z.object({ seat: seatSchema }).openapi("SeatAnswer");
