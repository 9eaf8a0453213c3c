import { z } from "@hono/zod-openapi";

export const booksCurrencyBody = z
  .object({
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "an ISO 4217 currency code: three capital letters, e.g. USD")
      .openapi({ description: "The books' currency, an ISO 4217 code in capitals.", example: "CAD" }),
  })
  .openapi("BooksCurrencySet");

export const booksCurrencyResponse = z
  .object({
    currency: z.string().openapi({ description: "The books' currency (ISO 4217). USD until the tenant sets another.", example: "USD" }),
    set_at: z.string().nullable().openapi({ description: "When it was set; null for the default.", example: "2026-11-20T14:03:11.000Z" }),
    set_by: z.string().nullable().openapi({ description: "Who set it (`human:<tenant>` or `token:<tenant>:<kid>`); null for the default.", example: null }),
  })
  .openapi("BooksCurrency");
