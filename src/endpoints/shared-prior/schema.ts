import { z } from "@hono/zod-openapi";

export const sharedPriorBody = z
  .object({
    opted_in: z.boolean().openapi({ description: "Whether the tenant takes part in the shared merchant prior.", example: true }),
  })
  .openapi("SharedMerchantPriorSet");

export const sharedPriorResponse = z
  .object({
    opted_in: z.boolean().openapi({ description: "Whether the tenant takes part. False until it opts in.", example: true }),
    chosen_at: z.string().nullable().openapi({ description: "When the choice that stands was made; null while the tenant never chose.", example: "2026-11-28T09:12:00.000Z" }),
    chosen_by: z.string().nullable().openapi({ description: "Who made it (`human:<tenant>`, `person:<id>` or `token:<tenant>:<kid>`); null while the tenant never chose.", example: "human:acme" }),
    contributed_words: z
      .number()
      .int()
      .openapi({ description: "How many merchant words the tenant contributes to the pool now (updated by the daily run; 0 when not opted in).", example: 42 }),
  })
  .openapi("SharedMerchantPrior");
