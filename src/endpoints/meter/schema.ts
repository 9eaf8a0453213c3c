import { z } from "@hono/zod-openapi";
import { TAIL_SPEND_CAPS } from "../../tiers";
import { cappedInt } from "../shared";

export const METER_MONTHS_CAP = 120;

export const meterQuery = z.object({ months: cappedInt("How many calendar months back, the current one included.", 36, METER_MONTHS_CAP) });

const count = (description: string, example: number) => z.number().int().openapi({ description, example });

const meterMonthSchema = z
  .object({
    month: z.string().openapi({ description: "The calendar month, America/Chicago (`YYYY-MM`).", example: "2026-11" }),
    calls: count("Calls to the external model, abstentions included.", 14),
    millicents: count("Their cost in millicents ($1 = 100,000), unpriced calls excluded.", 8420),
    unpriced_calls: count("Calls whose cost was absent or unparseable: reported, not dropped. Each call is priced or unpriced.", 1),
    lines_resolved_local: count("Lines the local model decided.", 310),
    lines_sent_to_api: count("Lines sent to the external model.", 41),
    cap_tier: z.string().nullable().openapi({ description: "The tenant's tier (`free` or `paid`); null when unknown.", example: "paid" }),
    cap_millicents_month: z
      .number()
      .int()
      .nullable()
      .openapi({ description: `The monthly cap in force now, in millicents (free ${TAIL_SPEND_CAPS.free.toLocaleString("en-US")}, paid ${TAIL_SPEND_CAPS.paid.toLocaleString("en-US")} unless overridden); null when none is known.`, example: TAIL_SPEND_CAPS.paid }),
    cap_source: z.enum(["tenant_override", "tier_table"]).nullable().openapi({
      description: "Where the cap comes from: `tenant_override` (an operator set this tenant's own cap) or `tier_table` (the tier's cap); null when none is known.",
      example: "tier_table",
    }),
    mode: z.enum(["interactive", "batched"]).nullable().openapi({
      description:
        "This month's spend against the cap: `interactive` under it (lines go to the external model as they arrive), `batched` at or over it (they wait for the daily batch); null when no cap is known, which does not mean under it.",
      example: "interactive",
    }),
  })
  .openapi("MeterMonth");

const EXAMPLE_MONTH = {
  month: "2026-11",
  calls: 14,
  millicents: 8420,
  unpriced_calls: 1,
  lines_resolved_local: 310,
  lines_sent_to_api: 41,
  cap_tier: "paid",
  cap_millicents_month: TAIL_SPEND_CAPS.paid,
  cap_source: "tier_table" as const,
  mode: "interactive" as const,
};

export const meterResponse = z
  .object({
    months: z.array(meterMonthSchema).openapi({
      description:
        "Months with activity within the last `months`, newest first; a missing month spent nothing. Each is shown against the cap in force now.",
      example: [EXAMPLE_MONTH],
    }),
  })
  .openapi("Meter");
