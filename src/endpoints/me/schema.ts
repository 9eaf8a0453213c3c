import { z } from "@hono/zod-openapi";
import { TIERS } from "../../tiers";

const count = (description: string, example: number) => z.number().int().openapi({ description, example });

export const booksSummaryResponse = z
  .object({
    lines: count("Rows this face serves, in every state.", 134),
    booked: count("Rows in the books.", 120),
    archived: count("Side-B rows (duplicate arrivals).", 3),
    pending: count("Rows listed but not yet posted; in no total.", 2),
    superseded: count("Rows replaced by a later line.", 7),
    retracted: count("Rows the bank removed.", 2),
    total_cents: z.number().int().openapi({ description: "Sum of `amount_cents` over booked rows.", example: -482311 }),
    by_category: z
      .array(
        z.object({
          category: z.string().openapi({ description: "The label; `uncategorised` is the queue.", example: "Software" }),
          total_cents: z.number().int().openapi({ description: "Booked total of the label.", example: -12999 }),
          lines: count("Booked rows carrying the label.", 4),
        }),
      )
      .openapi({ description: "Booked totals per category, most money (absolute) first." }),
    auth: z
      .object({
        kind: z.enum(["session", "token"]).openapi({ description: "Which credential let the caller in.", example: "token" }),
        scope: z.enum(["read_only", "read_write"]).openapi({ description: "What the credential may do.", example: "read_write" }),
        kid: z.string().nullable().openapi({ description: "The token's key id; null for a session.", example: "9f3b2c1d0a4e5f67" }),
        actor: z.string().openapi({ description: "The actor recorded for this caller's writes.", example: "token:acme-bakery:9f3b2c1d0a4e5f67" }),
        role: z.enum(["owner", "bookkeeper", "viewer"]).openapi({
          description:
            "The caller's role in the tenant, which the credential rules read: a person's session has its seat's role; the owner's session and a personal access token (which only the owner mints) are the owner's.",
          example: "owner",
        }),
      })
      .openapi({ description: "Which credential let the caller in." }),
    visible_from: z.string().nullable().openapi({ description: "The floor stored at sign-up; null when none.", example: "2026-01-01" }),
    vault_rows: count("Every row held, seen or not.", 140),
    visible_rows: count("Rows this face serves (equal to `lines`).", 134),
  })
  .openapi("BooksSummary");

export const visibilityResponse = z
  .object({
    visible_from: z.string().nullable().openapi({ description: "Floor stored at sign-up; it never moves.", example: "2026-01-01" }),
    tier: z.enum(TIERS).openapi({ description: "The tenant's tier.", example: "paid" }),
    window_hours: z.number().int().nullable().openapi({ description: "The free tier's rolling window (48), or null.", example: null }),
    effective_from: z.string().nullable().openapi({
      description: "The floor in force: whichever of `visible_from` and the window's start is later; null = no floor.",
      example: "2026-01-01",
    }),
    oldest_visible_row: z
      .object({
        side: z.enum(["A", "B"]).openapi({ description: "The row's side.", example: "A" }),
        src_id: z.number().int().openapi({ description: "Its id on that side.", example: 3 }),
        posted_on: z.string().openapi({ description: "Its date: the earliest the face serves.", example: "2026-09-01" }),
      })
      .nullable()
      .openapi({ description: "The oldest row served; null when none is." }),
    vault_rows: z.number().int().openapi({ description: "Every row held. Nothing is deleted to shrink a view.", example: 140 }),
    visible_rows: z.number().int().openapi({ description: "Rows this face serves.", example: 134 }),
  })
  .openapi("Visibility");
