import { z } from "@hono/zod-openapi";
import { AUDITOR_VIEW_FORMS } from "../../ledger/reports/auditor";
import { E164 } from "../../providers/sms/types";
import { cappedInt, pageSchema, paramInteger, singleLineText } from "../shared";

const viewerName = singleLineText().trim().min(1).max(100).openapi({ description: "Who may look: shown in the customer's audit list.", example: "Dana Whitfield, CPA" });
const viewerChannel = z
  .string()
  .regex(E164, "an E.164 phone number, e.g. +15555550123")
  .openapi({ description: "The viewer's phone in E.164. It is half of the code digest's salt: spell it identically at offer and at confirm.", example: "+15555550123" });

export const offerBody = z.object({ viewer_name: viewerName, viewer_channel: viewerChannel }).openapi("GrantOffer");

export const offerResponse = z
  .object({ request_id: z.number().int().openapi({ description: "The filed request; confirm it with the texted code.", example: 7 }) })
  .openapi("GrantOfferReceipt");

export const requestParams = z.object({
  request_id: paramInteger().openapi({ param: { name: "request_id", in: "path" }, description: "The grant request's id.", example: 7 }),
});

export const confirmBody = z
  .object({
    code: z.string().regex(/^\d{6}$/, "six digits").openapi({ description: "The six-digit code texted to the customer's own phone.", example: "042917" }),
    viewer_name: viewerName,
    viewer_channel: viewerChannel,
  })
  .openapi("GrantConfirm");

export const grantSchema = z
  .object({
    grant_id: z.number().int().openapi({ description: "The grant's id.", example: 3 }),
    viewer_name: z.string().openapi({ description: "Who may look.", example: "Dana Whitfield, CPA" }),
    viewer_channel: z.string().openapi({ description: "The viewer's phone, as offered.", example: "+15555550123" }),
    status: z.enum(["live", "revoked", "expired"]).openapi({ description: "`live` until revoked or its 24 hours end.", example: "live" }),
    created_at: z.string().openapi({ description: "When it was confirmed.", example: "2026-11-22T15:00:00.000Z" }),
    expires_at: z.string().openapi({ description: "When its token stops reading (24 hours after).", example: "2026-11-23T15:00:00.000Z" }),
    revoked_at: z.string().nullable().openapi({ description: "When the customer revoked it; null while not revoked. Never unset.", example: null }),
    last_read_at: z.string().nullable().openapi({ description: "The last read through its token, to the minute (a read within a minute of this time leaves it as it is); null before the first.", example: null }),
  })
  .openapi("AuditorGrant");

export const confirmResponse = z
  .object({
    grant: grantSchema,
    token: z.string().openapi({
      description: "The auditor-scope credential, shown once: valid 24 hours; it reads GET /api/v1/auditor/view and the parity verdicts (GET /api/v1/reports/parity-verdicts and /{as_of}), and nothing else.",
      example: "lat.3f9c1a7e5b2d4c60.q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c",
    }),
  })
  .openapi("GrantConfirmed");

export const grantParams = z.object({
  grant_id: paramInteger().openapi({ param: { name: "grant_id", in: "path" }, description: "The grant's id.", example: 3 }),
});

export const revokeBody = z
  .object({ grant_id: z.number().int().min(1).optional().openapi({ description: "May repeat the path's grant_id; must then be equal.", example: 3 }) })
  .openapi("GrantRevoke");

export const grantResponse = z.object({ grant: grantSchema }).openapi("GrantAnswer");

export const grantsResponse = z.object({ grants: z.array(grantSchema).openapi({ description: "Every grant, newest first." }) }).openapi("AuditorGrants");

const cents = (description: string, example: number) => z.number().int().openapi({ description, example });

/** The most add-backs one page of the auditor view holds. */
export const ADD_BACKS_PER_PAGE_CAP = 500;

export const auditorViewQuery = z.object({
  form: z.enum(AUDITOR_VIEW_FORMS).default("full").openapi({
    description:
      "`full` (the default): the contract's whole view, every add-back with its record (megabytes for a large book). " +
      "`paged`: the months, the add-backs' totals, and one page of the add-backs with their records.",
    example: "paged",
  }),
  page: pageSchema,
  per_page: cappedInt("Add-backs per page (paged form).", 100, ADD_BACKS_PER_PAGE_CAP),
});

export const auditorViewResponse = z
  .object({
    grant_id: z.number().int().openapi({ description: "The grant this token reads under (from the token's label).", example: 3 }),
    form: z.enum(AUDITOR_VIEW_FORMS).openapi({ description: "Which form this is: `paged` or `full`.", example: "paged" }),
    months: z
      .array(
        z.object({
          month: z.string().openapi({ description: "Calendar month, `YYYY-MM`.", example: "2026-11" }),
          money_in_cents: cents("Money in over the month's lines in books.", 1250000),
          money_out_cents: cents("Money out, as a positive number.", 830000),
          net_cents: cents("In minus out.", 420000),
          lines: cents("Lines in books.", 212),
        }),
      )
      .openapi({ description: "Calendar-month totals of the lines in books, newest first." }),
    add_backs: z
      .object({
        lines: cents("Booked lines under `draw` categories, over every page.", 212),
        total_cents: cents("Their total, signed from the business's side (money out negative).", -4200000),
        categories: z
          .array(
            z.object({
              category: z.string().openapi({ description: "A draw category.", example: "Owner draw" }),
              total_cents: cents("Its booked total.", -4200000),
              lines: cents("Its booked lines.", 212),
            }),
          )
          .openapi({ description: "The draw categories the booked lines carry, by name." }),
      })
      .openapi({ description: "The owner add-back list's totals." }),
    page: z.number().int().optional().openapi({ description: "Paged form: the page of add-backs served.", example: 1 }),
    per_page: z.number().int().optional().openapi({ description: "Paged form: add-backs per page, after the cap.", example: 100 }),
    pocket_flagged: z
      .array(
        z.object({
          side: z.enum(["A", "B"]).openapi({ description: "The line's side (lines in books are side A).", example: "A" }),
          src_id: z.number().int().openapi({ description: "Its id on that side.", example: 42 }),
          posted_on: z.string().openapi({ description: "Its date.", example: "2026-11-02" }),
          description: z.string().openapi({ description: "Its description as the bank printed it.", example: "ATM WITHDRAWAL" }),
          amount_cents: z.number().int().openapi({ description: "Signed from the business's side: positive = money in.", example: -20000 }),
          category: z.string().openapi({ description: "Its draw category.", example: "Owner draw" }),
        }),
      )
      .openapi({ description: "The owner add-back list: booked lines under `draw` categories, oldest first (in the paged form, this page of them)." }),
    receipts: z
      .array(
        z.object({
          side: z.enum(["A", "B"]).openapi({ description: "The flagged line's side.", example: "A" }),
          src_id: z.number().int().openapi({ description: "Its id on that side.", example: 42 }),
          raw: z.unknown().openapi({ description: "The provider's record, verbatim." }),
        }),
      )
      .openapi({ description: "The provider's verbatim records of the listed add-backs, in the same order." }),
  })
  .openapi("AuditorView");
