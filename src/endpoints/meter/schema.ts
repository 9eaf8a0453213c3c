import { z } from "@hono/zod-openapi";
import { cappedInt } from "../shared";

export const METER_MONTHS_CAP = 120;

export const meterQuery = z.object({ months: cappedInt("How many calendar months back, the current one included.", 36, METER_MONTHS_CAP) });

const count = (description: string, example: number) => z.number().int().openapi({ description, example });

export const meterResponse = z
  .object({
    months: z
      .array(
        z.object({
          month: z.string().openapi({ description: "The calendar month, America/Chicago.", example: "2026-11" }),
          calls: count("Calls to the external model, abstentions included.", 14),
          millicents: count("Their cost in millicents ($1 = 100,000), unpriced calls excluded.", 8420),
          unpriced_calls: count("Calls whose cost was absent or unparseable: reported, not dropped.", 1),
          lines_resolved_local: count("Lines the local model decided.", 310),
          lines_sent_to_api: count("Lines sent to the external model.", 41),
          cap_tier: z.string().nullable().openapi({ description: "The tenant's tier.", example: "paid" }),
          cap_millicents_month: z.number().int().nullable().openapi({ description: "The monthly cap in millicents; null when none is known.", example: 1_000_000 }),
          cap_source: z.enum(["tenant_override", "tier_table"]).nullable().openapi({
            description: "Where the cap comes from: the tenant's own override or the tier table; null when none is known.",
            example: "tier_table",
          }),
          mode: z.enum(["interactive", "batched"]).nullable().openapi({
            description: "null when no cap is known (which does not mean under it); `interactive` under the cap; `batched` at or over it.",
            example: "interactive",
          }),
        }),
      )
      .openapi({ description: "Months with any activity, newest first. Each is shown against the cap in force now." }),
  })
  .openapi("Meter");
