/**
 * src/limits/ (no single entry; app.ts and the faces call this file, auth/ the attempt limits
 * in attempts.ts): counting calls: the rate limits, the attempt limits (one AttemptLimiter
 * object per key, attempt-limiter.ts) and the client's address. May import env.ts,
 * errors.ts, auth/crypto.ts and the ground floor (.dependency-cruiser.cjs:
 * limits-are-plumbing); imported by app.ts, the faces and auth/.
 */
/**
 * The general rate limits, through the platform's Rate Limiting bindings (miniflare
 * simulates them in wrangler dev and in the tests): requests per client address, counted
 * before anything else is done, and requests per credential, counted once the credential
 * is verified (so nobody can spend another's budget by naming its key id). A refused call
 * is 429 `rate_limited` with `Retry-After` and has done nothing.
 */
import type { MiddlewareHandler } from "hono";
import { sandboxOn, type Env } from "../env";
import { ApiError } from "../errors";
import { clientAddress } from "./client-address";

/** Keep in step with wrangler.toml's `[[ratelimits]]` (a Node-side test compares them). */
export const RATE_LIMITS = {
  credential: { binding: "RATE_LIMIT_CREDENTIAL", limit: 600, periodSeconds: 10 },
  address: { binding: "RATE_LIMIT_ADDRESS", limit: 1200, periodSeconds: 10 },
} as const;

/** Paths outside the address limit: the sandbox (a local and test surface) and the carrier's signed webhook. */
const UNLIMITED = /^\/(sandbox|hooks)(\/|$)/;

export function rateLimitsOn(env: Pick<Env, "RATE_LIMITS" | "SANDBOX">): boolean {
  return !(env.RATE_LIMITS === "off" && sandboxOn(env));
}

async function spend(env: Env, which: keyof typeof RATE_LIMITS, key: string, whose: string): Promise<void> {
  const { binding, limit, periodSeconds } = RATE_LIMITS[which];
  const { success } = await env[binding].limit({ key });
  if (success) return;
  // The binding does not say where its period stands: one whole period is always enough.
  throw ApiError.rateLimited(
    `${whose} made more than ${limit.toLocaleString("en-US")} requests in ${periodSeconds} s; try again in ${periodSeconds} s.`,
    periodSeconds,
  );
}

/** Counts a verified credential's call (`token:<kid>`, `grant:<id>`, `session:<hash>`). */
export async function limitCredential(env: Env, credentialKey: string): Promise<void> {
  if (rateLimitsOn(env)) await spend(env, "credential", credentialKey, "This credential");
}

/**
 * Counts every request by its client's address before anything reads it. A tool call's own
 * request, which the tool face builds with the Authorization header and nothing else, has
 * no address: it is counted once, as its /mcp request. An unknown address is not counted
 * here: one bucket for every caller without an address would be a cap on the whole
 * deployment that any one of them could spend (the credential limit still holds).
 */
export const limitAddresses: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  const request = c.req.raw;
  if (rateLimitsOn(c.env) && !UNLIMITED.test(new URL(request.url).pathname)) {
    const address = clientAddress(request, c.env);
    if (address !== null) await spend(c.env, "address", `address:${address}`, "This client address");
  }
  await next();
};
