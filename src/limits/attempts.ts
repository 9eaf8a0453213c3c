/**
 * The attempt limits' numbers and keys (docs/decisions.md, "Sign-in" and "Attempt limits").
 * Each key is one AttemptLimiter object; an attempt is counted before its password or code
 * is checked and forgiven when it succeeds. Over a limit the caller waits (429 with
 * `Retry-After`): the waits slow a guesser, and none of them is kept by one tenant's name.
 */
import type { Env } from "../env";
import { ApiError } from "../errors";
import type { Backoff } from "./attempt-limiter";

const HOUR = 3600;
const QUARTER_HOUR = 900;

export const SIGNIN = {
  /** Sign-ins (and sign-in codes) from one client address to any tenant, by browsers the tenant does not trust. */
  address: { free: 10, windowSeconds: HOUR, capSeconds: QUARTER_HOUR } satisfies Backoff,
  /**
   * Failed sign-ins to one tenant from browsers it does not trust. Past `free`, such a
   * browser needs a code texted to the enrolled phone besides the password; where no code
   * can be texted, it waits as for an address instead.
   */
  untrusted: { free: 30, windowSeconds: HOUR, capSeconds: QUARTER_HOUR } satisfies Backoff,
  /** A trusted browser's own failures; past them it is treated as untrusted for the rest of the window. */
  device: { free: 10, windowSeconds: HOUR },
  /** How long a browser stays trusted after its last sign-in. */
  deviceDays: 30,
  /** A texted sign-in code: its life, the wrong answers it takes, and how many a tenant is sent in the window. */
  code: { minutes: 10, maxWrong: 3, textsPerWindow: 5, windowSeconds: HOUR },
} as const;

export const CONFIRM = {
  /** Failed grant confirmations (`code_wrong`, `name_mismatch`) from one client address. */
  address: { free: 20, windowSeconds: HOUR, capSeconds: QUARTER_HOUR } satisfies Backoff,
} as const;

/**
 * The public operations, which take no credential: each client address may sign up a few
 * tenants an hour and ask for a few password resets, then waits doubling from 1 s; and no
 * tenant's owner, nor any person, is sent more than a few of the service's mails an hour,
 * whoever asks.
 */
export const PUBLIC = {
  signups: { free: 5, windowSeconds: HOUR, capSeconds: QUARTER_HOUR } satisfies Backoff,
  resets: { free: 10, windowSeconds: HOUR, capSeconds: QUARTER_HOUR } satisfies Backoff,
  /** Mails to one tenant's owner (verification, reset) in the window. */
  mailsPerTenant: { free: 5, windowSeconds: HOUR },
  /** Invitations to a seat mailed for one tenant in the window (its owner invites; its own budget, apart from the owner's mails). */
  invitationsPerTenant: { free: 20, windowSeconds: HOUR },
  /** Mails to one person about their own account (password reset) in the window. */
  mailsPerPerson: { free: 5, windowSeconds: HOUR },
} as const;

export type AttemptKind = "signin" | "confirm" | "public" | "mail";

export function attemptLimiter(env: Env, key: string): DurableObjectStub<import("./attempt-limiter").AttemptLimiter> {
  return env.ATTEMPT_LIMITER.get(env.ATTEMPT_LIMITER.idFromName(key));
}

/** An unknown address (not trusted, see client-address.ts) counts under one shared key: a guesser cannot leave it. */
export function addressLimiter(env: Env, kind: AttemptKind, address: string | null) {
  return attemptLimiter(env, `${kind}:address:${address ?? "unknown"}`);
}

export function tenantLimiter(env: Env, kind: AttemptKind, tenant: string) {
  return attemptLimiter(env, `${kind}:tenant:${tenant}`);
}

export function tooManyAttempts(what: string, seconds: number): ApiError {
  return ApiError.tooManyAttempts(`Too many failed ${what} lately; try again in ${seconds} s.`, seconds);
}
