import { z } from "@hono/zod-openapi";

export const accountsResponse = z
  .object({
    accounts: z
      .array(
      z.object({
        account_id: z.string().openapi({ description: "The bank's sub-account id.", example: "acc_checking" }),
        name: z.string().openapi({ description: "The account's name as the bank gives it.", example: "Business Checking" }),
        mask: z.string().nullable().openapi({ description: "Last digits of the account number.", example: "0042" }),
        type: z.string().nullable().openapi({ description: "The account type as the bank gives it (`depository`, `credit`, ...); null when it gave none.", example: "depository" }),
        subtype: z.string().nullable().openapi({ description: "The subtype as the bank gives it (`checking`, `credit card`, ...); null when it gave none.", example: "checking" }),
        lines: z.number().int().openapi({ description: "Rows of this account the face serves.", example: 88 }),
        booked: z.number().int().openapi({ description: "Rows in the books.", example: 80 }),
        pending: z.number().int().openapi({ description: "Lines the feed still holds as pending (a posted line is not counted).", example: 1 }),
        booked_cents: z.number().int().openapi({ description: "Sum of booked amounts.", example: -120033 }),
      }),
      )
      .openapi({ description: "The sub-accounts the feed has delivered lines for, on this face, by account id." }),
  })
  .openapi("Accounts");
