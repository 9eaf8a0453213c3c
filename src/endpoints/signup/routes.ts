import { signUpPublicly } from "../../auth/signup";
import { definePublicEndpoint } from "../define";
import { signUpBody, signUpResponse } from "./schema";

export const signUpTenant = definePublicEndpoint({
  operationId: "sign_up",
  method: "post",
  path: "/api/v1/sign-up",
  tag: "sign-up",
  summary: "Sign a business up",
  description:
    "Creates a tenant: its books (empty), its owner with the password given, its tier. Needs no credential; each client " +
    "address may sign up 5 tenants an hour, then waits (429 `rate_limited` with `Retry-After`). A link to verify the " +
    "owner's email is mailed; connecting a bank waits for it. The owner then signs in at /signin (a browser) to connect " +
    "the bank and mint tokens for clients. The handle is the tenant's name for good: a taken one is 409 `tenant_taken`, " +
    "a reserved word 409 `handle_reserved`. Send an `idempotency_key` to make a retry safe: the same sign-up sent again " +
    "answers as it did. Not a tool on the tool face: a person signs up, accepting the terms.",
  idempotent: true,
  body: signUpBody,
  success: { status: 201, description: "The tenant is signed up (or was, by this same sign-up).", schema: signUpResponse },
  errors: {
    tenant_taken: "The handle is another tenant's.",
    handle_reserved: "The handle is a word the service keeps.",
    email_unavailable: "The deployment holds no mail service; nothing was written.",
    rate_limited: "The general rate limit per client address, or this operation's own: 5 sign-ups an hour per client address, then waits doubling from 1 s (with `Retry-After`).",
  },
  async handler({ env, body, origin, address, now }) {
    const signed = await signUpPublicly(env, body, address, origin, now);
    const mail = signed.verificationMail;
    return {
      tenant: signed.tenant.id,
      business_name: signed.tenant.businessName ?? signed.tenant.id,
      tier: signed.tenant.tier,
      owner_email: signed.tenant.ownerEmail ?? body.owner_email,
      email_verified: signed.tenant.emailVerifiedAt !== null,
      verification_email: mail === null ? ("not_needed" as const) : mail.sent ? ("sent" as const) : ("not_sent" as const),
      verification_email_problem: mail !== null && !mail.sent ? mail.reason : null,
      created: signed.created,
      sign_in: `${origin}/signin`,
    };
  },
});
