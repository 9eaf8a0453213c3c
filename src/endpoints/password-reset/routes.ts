import * as reset from "../../auth/password-reset";
import { ApiError } from "../../errors";
import { definePublicEndpoint } from "../define";
import { newPasswordBody, passwordSetResponse, resetRequestBody, resetRequestedResponse } from "./schema";

const NOT_A_TOOL = "Not a tool on the tool face: it is for someone who cannot sign in, and its limit is per client address.";

export const requestPasswordReset = definePublicEndpoint({
  operationId: "request_password_reset",
  method: "post",
  path: "/api/v1/password-reset",
  tag: "sign-in",
  summary: "Ask for a password reset link",
  description:
    "Mails a single-use link to reset a password, which works for an hour: the owner's (give the tenant's handle; the " +
    "link goes only to the owner's verified email) or a person's (give their email). Needs no credential. The answer is " +
    "the same whether or not there is such an account, so it tells nobody who has one. Each client address may ask 10 " +
    "times an hour, then waits (429 `rate_limited` with `Retry-After`); no account is mailed more than 5 times an hour. " +
    `Then reset_password (POST /api/v1/password-reset/new) with the link's token, or follow the link in a browser. ${NOT_A_TOOL}`,
  body: resetRequestBody,
  success: { status: 200, description: "Asked (whether or not a link went).", schema: resetRequestedResponse },
  errors: {
    rate_limited: "The general rate limit per client address, or this operation's own: 10 password resets an hour per client address, then waits doubling from 1 s (with `Retry-After`).",
  },
  async handler({ env, body, address, origin, now, defer }) {
    const account = body.email !== undefined ? { email: body.email } : { tenant: body.tenant!.trim() };
    await reset.askForPasswordReset(env, account, { address, origin, now, defer });
    return { requested: true as const, link_minutes: reset.RESET_LINK_MINUTES, detail: reset.resetAskedWords(account) };
  },
});

export const resetPassword = definePublicEndpoint({
  operationId: "reset_password",
  method: "post",
  path: "/api/v1/password-reset/new",
  tag: "sign-in",
  summary: "Set a new password with a reset link's token",
  description:
    "Spends a reset link (its `token`) and sets the new password of its account, the owner's or a person's; every " +
    "session signed in with the old password ends (a person's in every business). Needs no credential: the token is " +
    "the proof. A token unknown, used already or past its hour is 404, and nothing changes. " +
    NOT_A_TOOL,
  body: newPasswordBody,
  success: { status: 200, description: "The password is set.", schema: passwordSetResponse },
  errors: { not_found: "The link is unknown, used already or past its hour." },
  async handler({ env, body, origin, now }) {
    const set = await reset.resetPassword(env.INDEX_DB, body.token, body.password, now);
    if (!set) throw ApiError.notFound("This reset link is unknown, used already or past its hour; ask for another.");
    return {
      account: set.account,
      tenant: set.account === "owner" ? set.tenantId : null,
      email: set.email,
      sessions_ended: true as const,
      sign_in: `${origin}/signin`,
    };
  },
});
