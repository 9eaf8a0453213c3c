import { z } from "@hono/zod-openapi";
import { isoDateSchema } from "../shared";

const cents = (description: string, example: number) => z.number().int().openapi({ description, example });

export const pnlQuery = z.object({
  tenant: z.string().min(1).max(40).optional().openapi({
    description: "Must be the credential's own tenant; omit it and the credential decides.",
    example: "acme-bakery",
  }),
  as_of: isoDateSchema.optional().openapi({ description: "The date the windows end on (America/Chicago). Default: today.", example: "2026-11-20" }),
});

export const pnlTransactionSchema = z.object({
  side: z.enum(["A", "B"]),
  src_id: z.number().int(),
  posted_on: z.string().openapi({ example: "2026-11-18" }),
  description: z.string().openapi({ example: "STRIPE PAYOUT" }),
  amount_cents: cents("Signed from the business's side: positive = money in.", 82000),
  period: z.enum(["current", "prior"]).openapi({ description: "Which half of the window it falls in." }),
});

export const pnlLineSchema = z
  .object({
    category: z.string().openapi({ example: "Sales" }),
    current: cents("The category's number in the current period, positive in the section's natural direction.", 82000),
    prior: cents("The same over the prior period.", 61000),
    sign: z.union([z.literal(1), z.literal(-1)]).openapi({ description: "+1, or -1 for a component a derived section subtracts.", example: 1 }),
    transactions: z.array(pnlTransactionSchema).openapi({ description: "Every booked transaction that contributed." }),
  })
  .openapi("PnlLine");

export const pnlSectionSchema = z
  .object({
    current: cents("The section's number for the current period.", 82000),
    prior: cents("The same for the prior period.", 61000),
    derived: z.boolean().openapi({ description: "True for gross_margin and net_income, which re-carry their components' lines.", example: false }),
    lines: z.array(pnlLineSchema),
  })
  .openapi("PnlSection");

const sections = z
  .object({
    revenue: pnlSectionSchema,
    cogs: pnlSectionSchema,
    gross_margin: pnlSectionSchema,
    biz_expenses: pnlSectionSchema,
    net_income: pnlSectionSchema,
    owners_draw: pnlSectionSchema,
  })
  .openapi({ description: "The six sections. The twelve comparison numbers are their `current` in each window; do not also sum the derived sections' lines." });

export const pnlWindowSchema = z
  .object({
    from: z.string().openapi({ description: "First day of the current period.", example: "2026-11-14" }),
    to: z.string().openapi({ description: "Last day: as_of.", example: "2026-11-20" }),
    prior_from: z.string().openapi({ example: "2026-11-07" }),
    prior_to: z.string().openapi({ example: "2026-11-13" }),
    sections,
  })
  .openapi("PnlWindow");

export const pnlReportSchema = z
  .object({
    as_of: z.string().openapi({ example: "2026-11-20" }),
    lineage_basis: z.literal("unreadable").openapi({ description: "The paper-verified lineage cannot be read from this face; no section number depends on it." }),
    lists_source: z.string().openapi({ description: "Which category lists classified the rows.", example: "tenant taxonomy (category -> header)" }),
    windows: z.object({ "7d": pnlWindowSchema, "30d": pnlWindowSchema }),
  })
  .openapi("RollingPnl");
