/**
 * Failed sign-ins and grant confirmations are limited per tenant and per client address
 * (a fixed window of failures per key, kept in an AttemptLimiter object per key). A caller
 * over a limit is refused with 429 and `Retry-After` before the password or the code is
 * even checked; success never counts.
 */
import type { Env } from "../env";
import { ApiError } from "../errors";

export const ATTEMPT_POLICIES = {
  signin: { perTenant: 10, perAddress: 50, windowSeconds: 15 * 60 },
  confirm: { perTenant: 20, perAddress: 50, windowSeconds: 15 * 60 },
} as const;
export type AttemptKind = keyof typeof ATTEMPT_POLICIES;

/** The client's address as the platform reports it (unknown locally). */
export function clientAddress(request: Request): string {
  return request.headers.get("cf-connecting-ip") ?? "unknown";
}

function limiters(env: Env, kind: AttemptKind, tenant: string, address: string) {
  const policy = ATTEMPT_POLICIES[kind];
  const of = (name: string) => env.ATTEMPT_LIMITER.get(env.ATTEMPT_LIMITER.idFromName(name));
  return [
    { stub: of(`${kind}:tenant:${tenant}`), limit: policy.perTenant },
    { stub: of(`${kind}:address:${address}`), limit: policy.perAddress },
  ];
}

/** Throws 429 when the tenant or the address has failed too often lately. */
export async function guardAttempt(env: Env, kind: AttemptKind, tenant: string, address: string, now: Date): Promise<void> {
  const window = ATTEMPT_POLICIES[kind].windowSeconds;
  const waits = await Promise.all(limiters(env, kind, tenant, address).map((l) => l.stub.retryAfter(l.limit, window, now.getTime())));
  const wait = Math.max(...waits);
  if (wait > 0) {
    const what = kind === "signin" ? "sign-in" : "grant confirmation";
    throw ApiError.tooManyAttempts(`Too many failed ${what} attempts lately; try again in ${wait} s.`, wait);
  }
}

export async function recordFailedAttempt(env: Env, kind: AttemptKind, tenant: string, address: string, now: Date): Promise<void> {
  const window = ATTEMPT_POLICIES[kind].windowSeconds;
  await Promise.all(limiters(env, kind, tenant, address).map((l) => l.stub.recordFailure(window, now.getTime())));
}
