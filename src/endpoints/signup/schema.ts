import { z } from "@hono/zod-openapi";
import { HANDLE_RULE } from "../../auth/signup";
import { TENANT_SLUG } from "../../auth/tenants";
import { E164 } from "../../providers/sms/types";
import { TIERS } from "../../tiers";
import { singleLineText } from "../shared";

export const PASSWORD_LENGTH = { min: 10, max: 200 } as const;

export const signUpBody = z
  .object({
    business_name: singleLineText().trim().min(1).max(200).openapi({ description: "The business's name, as the owner wants it shown.", example: "Acme Bakery LLC" }),
    tenant: z
      .string()
      .regex(TENANT_SLUG, `a tenant handle is ${HANDLE_RULE}`)
      .openapi({ description: `The tenant's handle, its name in the service for good (${HANDLE_RULE}); some words are reserved.`, example: "acme-bakery" }),
    owner_email: z.email("an email address").max(254).openapi({ description: "The owner's email: a link to verify it is sent there, and password resets go there.", example: "owner@acme-bakery.example" }),
    password: z
      .string()
      .min(PASSWORD_LENGTH.min, `at least ${PASSWORD_LENGTH.min} characters`)
      .max(PASSWORD_LENGTH.max)
      .openapi({ description: `The owner's password for /signin (${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters); kept only as a PBKDF2 hash.`, example: "correct horse battery staple" }),
    tier: z.enum(TIERS).openapi({ description: "`free` (the last 48 hours of lines, one bank connection) or `paid`.", example: "paid" }),
    terms_accepted: z.literal(true, "the terms must be accepted to sign up").openapi({ description: "The owner accepts the terms of service: must be `true`.", example: true }),
    phone: z
      .string()
      .regex(E164, "an E.164 phone number, e.g. +15555550123")
      .optional()
      .openapi({ description: "The owner's mobile phone (E.164), where grant codes and sign-in codes are texted; can be set later on /settings.", example: "+15555550123" }),
    idempotency_key: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{16,200}$/, "16 to 200 characters: letters, digits, _ . : and -")
      .optional()
      .openapi({
        description:
          "A key of the client's for this sign-up (e.g. a random UUID). Sent again with the same key (a retry after a lost answer), the sign-up answers as it did instead of 409.",
        example: "6f1f7c2a-9a8e-4d1b-b3b4-2f0d6f0e9a51",
      }),
  })
  .openapi("SignUp");

export const signUpResponse = z
  .object({
    tenant: z.string().openapi({ description: "The tenant's handle: sign in at /signin with it and the password.", example: "acme-bakery" }),
    business_name: z.string().openapi({ description: "The business's name, as given.", example: "Acme Bakery LLC" }),
    tier: z.enum(TIERS).openapi({ description: "The tenant's tier.", example: "paid" }),
    owner_email: z.string().openapi({ description: "The owner's email, where the verification link went.", example: "owner@acme-bakery.example" }),
    email_verified: z.boolean().openapi({ description: "Whether the owner's email is verified; connecting a bank waits for it.", example: false }),
    verification_email: z
      .enum(["sent", "not_sent", "not_needed"])
      .openapi({ description: "`sent`: a link to verify the email was mailed; `not_sent`: it could not be (ask for another on /settings); `not_needed`: verified already.", example: "sent" }),
    verification_email_problem: z.string().nullable().openapi({ description: "Why the mail was not sent, or null.", example: null }),
    created: z.boolean().openapi({ description: "False when this answers an earlier sign-up sent with the same `idempotency_key`.", example: true }),
    sign_in: z.string().openapi({ description: "Where the owner signs in.", example: "https://ledger.example/signin" }),
  })
  .openapi("SignedUp");
