import { z } from "@hono/zod-openapi";
import { cappedInt } from "../shared";
import { TIERS } from "../../tiers";

export const USAGE_DAYS_CAP = 365;

/** Bank connections each tier may hold. */

export const usageQuery = z.object({ days: cappedInt("Trailing window of the volume meter, in days, ending today.", 30, USAGE_DAYS_CAP) });

export const usageResponse = z
  .object({
    connections: z
      .object({
        in_use: z.number().int().openapi({ description: "Bank connections held.", example: 1 }),
        cap: z.number().int().openapi({ description: "Connections this tier may hold.", example: 5 }),
        tier: z.enum(TIERS).openapi({ description: "The tenant's tier, which sets the cap.", example: "paid" }),
      })
      .openapi({ description: "Bank connections in use against the cap this surface enforces." }),
    volume: z
      .object({
        days: z.number().int().openapi({ description: "The trailing window, after the cap.", example: 30 }),
        from: z.string().openapi({ description: "First day of the window (America/Chicago).", example: "2026-10-24" }),
        to: z.string().openapi({ description: "Last day of the window: today.", example: "2026-11-22" }),
        lines: z.number().int().openapi({ description: "Booked rows in the window.", example: 61 }),
        money_in_cents: z.number().int().openapi({ description: "Money in over the window.", example: 1250000 }),
        money_out_cents: z.number().int().openapi({ description: "Money out over the window, as a positive number.", example: 830500 }),
        volume_cents: z.number().int().openapi({
          description: "The larger of money in and money out: never their sum, never the net.",
          example: 1250000,
        }),
      })
      .openapi({ description: "Transaction volume over the trailing window, booked rows on this face." }),
  })
  .openapi("Usage");
