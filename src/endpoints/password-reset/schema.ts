import { z } from "@hono/zod-openapi";
import { PASSWORD_LENGTH } from "../signup/schema";

export const resetRequestBody = z
  .object({
    tenant: z.string().max(40).optional().openapi({ description: "The owner's: the tenant's handle. Give this or `email`, not both.", example: "acme-bakery" }),
    email: z.email("an email address").max(254).optional().openapi({ description: "A person's (a bookkeeper's, a viewer's, anyone invited): their email. Give this or `tenant`, not both.", example: "dana@books.example" }),
  })
  .superRefine((body, ctx) => {
    if ((body.tenant === undefined) === (body.email === undefined)) {
      ctx.addIssue({ code: "custom", message: "give exactly one of `tenant` (the owner's reset) and `email` (a person's)", params: { code: "one_of" } });
    }
  })
  .openapi("PasswordResetRequest");

export const resetRequestedResponse = z
  .object({
    requested: z.literal(true).openapi({ description: "Always true: the answer is the same whether or not there is such an account.", example: true }),
    link_minutes: z.number().int().openapi({ description: "How long a mailed link works (once).", example: 60 }),
    detail: z.string().openapi({ description: "What happened, in words that say nothing of whether the account exists.", example: "If that email is the account of someone invited to a business here, a link to reset the password was mailed to it." }),
  })
  .openapi("PasswordResetRequested");

export const newPasswordBody = z
  .object({
    token: z.string().min(1).max(100).openapi({ description: "The secret of the mailed link: its `token` query parameter.", example: "q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c" }),
    password: z
      .string()
      .min(PASSWORD_LENGTH.min, `at least ${PASSWORD_LENGTH.min} characters`)
      .max(PASSWORD_LENGTH.max)
      .openapi({ description: `The new password (${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters); kept only as a PBKDF2 hash.`, example: "a brand new password" }),
  })
  .openapi("NewPassword");

export const passwordSetResponse = z
  .object({
    account: z.enum(["owner", "person"]).openapi({ description: "Whose password was set: the tenant's owner's, or a person's.", example: "person" }),
    tenant: z.string().nullable().openapi({ description: "The tenant, for the owner's; null for a person's.", example: null }),
    email: z.string().openapi({ description: "Where the link was mailed.", example: "dana@books.example" }),
    sessions_ended: z.literal(true).openapi({ description: "Every session signed in with the old password has ended.", example: true }),
    sign_in: z.string().openapi({ description: "Where to sign in with the new password.", example: "https://ledger.example/signin" }),
  })
  .openapi("PasswordSet");
