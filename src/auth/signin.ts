/**
 * Password sign-in, limited so that a guesser is slowed and the tenant's owner is never
 * locked out by someone else's failures (docs/decisions.md, "Sign-in"):
 *
 * - A browser that signed in to a tenant carries a device cookie the tenant's limiter
 *   trusts for 30 days. A trusted browser is limited only by its own failures.
 * - Any other browser is limited per client address (waits that double past 10 failures
 *   an hour), so one guesser is slowed and everyone else still signs in.
 * - Past 30 failures an hour to one tenant from untrusted browsers (guessing from many
 *   addresses), an untrusted browser needs, besides the password, a code texted to the
 *   tenant's enrolled phone. Wrong and right passwords then get the same answer, so the
 *   guesses teach nothing. Where no code can be texted it waits instead.
 */
import type { Env } from "../env";
import { SIGNIN, addressLimiter, tenantLimiter } from "../limits/attempts";
import { makeCode } from "./grants";
import { carrierFor } from "../providers/sms";
import { randomSecret, sha256Hex } from "./crypto";
import { startSession } from "./sessions";
import { findTenant, passwordMatches, type TenantRecord } from "./tenants";

export const DEVICE_COOKIE = "svc_device";

const SECRET_VALUE = /^[A-Za-z0-9_-]{43}$/;

export type SignInOutcome =
  | { kind: "signed_in"; tenant: string; session: { value: string; expiresAt: Date }; device: { value: string; expiresAt: Date } }
  /** The tenant and password do not match (401). */
  | { kind: "refused" }
  /** Over a limit: nothing was checked (429 with Retry-After). */
  | { kind: "wait"; seconds: number; detail: string }
  /** The code step: a code was texted if the password was right; the same answer if not. */
  | { kind: "code"; challenge: string; wrongCode: boolean };

export interface SignInAttempt {
  tenant: string;
  /** The browser's device cookie, if it sent one. */
  device: string | undefined;
  address: string | null;
  now: Date;
  /** Runs the code's text after the answer, so that its time tells nothing about the password. */
  defer: (work: Promise<unknown>) => void;
}

function waitOutcome(seconds: number, whose: string): SignInOutcome {
  return { kind: "wait", seconds, detail: `Too many failed sign-in attempts ${whose} lately; try again in ${seconds} s.` };
}

export async function signIn(env: Env, attempt: SignInAttempt & { password: string }): Promise<SignInOutcome> {
  const nowMs = attempt.now.getTime();
  const tenantKey = tenantLimiter(env, "signin", attempt.tenant);
  const deviceHash = attempt.device !== undefined && SECRET_VALUE.test(attempt.device) ? await sha256Hex(attempt.device) : null;

  if (deviceHash !== null && (await tenantKey.trusts(deviceHash, nowMs))) {
    const own = await tenantKey.admitUnder(`device:${deviceHash}`, SIGNIN.device.free, SIGNIN.device.windowSeconds, nowMs);
    if (own.admitted) {
      const tenant = await passwordMatches(await findTenant(env.INDEX_DB, attempt.tenant), attempt.password);
      if (!tenant) return { kind: "refused" };
      await tenantKey.forgive(`device:${deviceHash}`, own.at);
      return signedIn(env, tenant, attempt);
    }
    // Past its own failures the browser is trusted no more this hour: it signs in as any other.
  }

  const addressKey = addressLimiter(env, "signin", attempt.address);
  const byAddress = await addressKey.admit("attempts", SIGNIN.address, nowMs);
  if (byAddress.wait > 0) return waitOutcome(byAddress.wait, "from this client");

  const record = await findTenant(env.INDEX_DB, attempt.tenant);
  // Decided before the password is checked, so that the answer cannot depend on it.
  // A tenant that enrolled no phone (a sign-up may leave it for later) can be texted no code: it waits instead.
  const carrier = record?.phone === "" ? null : carrierFor(env, record ?? { id: attempt.tenant, smsEnabled: true });
  let coded = false;
  let tenantAt: number;
  if (carrier !== null) {
    const untrusted = await tenantKey.record("untrusted", SIGNIN.untrusted.windowSeconds, nowMs);
    coded = untrusted.failures >= SIGNIN.untrusted.free;
    tenantAt = untrusted.at;
  } else {
    const untrusted = await tenantKey.admit("untrusted", SIGNIN.untrusted, nowMs);
    if (untrusted.wait > 0) {
      await addressKey.forgive("attempts", byAddress.at);
      return waitOutcome(untrusted.wait, "to this tenant from browsers it has not seen");
    }
    tenantAt = untrusted.at;
  }

  const tenant = await passwordMatches(record, attempt.password);
  if (coded) {
    // Both attempts stay counted whatever the password: a forgiven one would show in the next answer.
    const challenge = randomSecret(32);
    if (tenant && carrier) {
      const code = makeCode();
      const expires = nowMs + SIGNIN.code.minutes * 60_000;
      const { textsPerWindow, windowSeconds } = SIGNIN.code;
      const filed = await tenantKey.openChallenge(await sha256Hex(challenge), await codeDigest(challenge, code), expires, textsPerWindow, windowSeconds, nowMs);
      if (filed) {
        const body = `Your ledger sign-in code for ${tenant.id}: ${code}. It lets a new browser sign in for ${SIGNIN.code.minutes} minutes. If this was not you, someone knows your password.`;
        attempt.defer(carrier.send({ to: tenant.phone, body }).catch(() => console.error(`a sign-in code for ${tenant.id} could not be texted`)));
      }
    }
    return { kind: "code", challenge, wrongCode: false };
  }
  if (!tenant) return { kind: "refused" };
  await Promise.all([addressKey.forgive("attempts", byAddress.at), tenantKey.forgive("untrusted", tenantAt)]);
  return signedIn(env, tenant, attempt);
}

/** The code step's answer: signed in, or the code form again (the same for a wrong code, a spent one and one never sent). */
export async function answerSignInCode(env: Env, attempt: SignInAttempt & { challenge: string; code: string }): Promise<SignInOutcome> {
  const nowMs = attempt.now.getTime();
  const addressKey = addressLimiter(env, "signin", attempt.address);
  const byAddress = await addressKey.admit("attempts", SIGNIN.address, nowMs);
  if (byAddress.wait > 0) return waitOutcome(byAddress.wait, "from this client");
  const again: SignInOutcome = { kind: "code", challenge: attempt.challenge, wrongCode: true };
  if (!SECRET_VALUE.test(attempt.challenge) || !/^\d{6}$/.test(attempt.code)) return again;
  const tenantKey = tenantLimiter(env, "signin", attempt.tenant);
  const answer = await tenantKey.answerChallenge(await sha256Hex(attempt.challenge), await codeDigest(attempt.challenge, attempt.code), SIGNIN.code.maxWrong, nowMs);
  if (answer !== "ok") return again;
  const tenant = await findTenant(env.INDEX_DB, attempt.tenant);
  if (!tenant) return again;
  await addressKey.forgive("attempts", byAddress.at);
  return signedIn(env, tenant, attempt);
}

/** The code is kept only as a digest salted with the challenge, which only the browser holds. */
function codeDigest(challenge: string, code: string): Promise<string> {
  return sha256Hex(`${challenge}\u0000${code}`);
}

/** A session, and the browser trusted (its device cookie kept, or a new one) for SIGNIN.deviceDays more. */
async function signedIn(env: Env, tenant: TenantRecord, attempt: SignInAttempt): Promise<SignInOutcome> {
  const session = await startSession(env.INDEX_DB, tenant.id, attempt.now);
  const value = attempt.device !== undefined && SECRET_VALUE.test(attempt.device) ? attempt.device : randomSecret(32);
  const expiresAt = new Date(attempt.now.getTime() + SIGNIN.deviceDays * 86_400_000);
  await tenantLimiter(env, "signin", tenant.id).trust(await sha256Hex(value), expiresAt.getTime(), attempt.now.getTime());
  return { kind: "signed_in", tenant: tenant.id, session, device: { value, expiresAt } };
}
