/**
 * A Durable Object per guarded key (a client address or a tenant, for sign-in or for grant
 * confirmation) holding the times of its recent failed attempts, in named lists. One
 * object per key is one thread per key: an attempt is counted before its password or code
 * is checked and forgiven if it succeeds, so concurrent guesses are counted exactly across
 * every Worker isolate, which process memory could not do.
 *
 * A tenant's object also keeps the browsers that signed in to it (by the hash of their
 * device cookie) and the sign-in codes it has texted (docs/decisions.md, "Sign-in").
 */
import { DurableObject } from "cloudflare:workers";
import { constantTimeEqual } from "../auth/crypto";

export interface Backoff {
  /** Failures the window allows before any wait. */
  free: number;
  windowSeconds: number;
  /** Past `free`, each attempt waits 1, 2, 4 … seconds after the last failure, up to this. */
  capSeconds: number;
}

/** The wait after the last failure when the window holds `failures`: none under `free`, then doubling from 1 s to the cap. */
export function backoffSeconds(policy: Backoff, failures: number): number {
  if (failures < policy.free) return 0;
  return Math.min(policy.capSeconds, 2 ** (failures - policy.free));
}

/** A browser that signed in: trusted until `until` (ms). */
interface Device {
  until: number;
}

/** A texted sign-in code: the digest of challenge and code, when it lapses, the wrong answers so far. */
interface Challenge {
  digest: string;
  expires: number;
  wrong: number;
}

export const MAX_TRUSTED_DEVICES = 20;

// The bindings are the Worker's global `Cloudflare.Env` (declared in src/env.ts, which names this class).
export class AttemptLimiter extends DurableObject<Cloudflare.Env> {
  private kv() {
    return this.ctx.storage.kv;
  }

  private recent(list: string, windowSeconds: number, nowMs: number): number[] {
    return (this.kv().get<number[]>(`failures:${list}`) ?? []).filter((at) => at > nowMs - windowSeconds * 1000);
  }

  private store(list: string, failures: number[]): void {
    // Only the newest few hundred matter to any limit: the list stays small.
    if (failures.length === 0) this.kv().delete(`failures:${list}`);
    else this.kv().put(`failures:${list}`, failures.slice(-500));
  }

  /** Seconds until another attempt may be made (0: now). */
  retryAfter(list: string, policy: Backoff, nowMs: number): number {
    const failures = this.recent(list, policy.windowSeconds, nowMs);
    const wait = backoffSeconds(policy, failures.length);
    if (wait === 0) return 0;
    return Math.max(0, Math.ceil((failures[failures.length - 1]! + wait * 1000 - nowMs) / 1000));
  }

  /**
   * An attempt, counted as a failure before it is checked: `wait` > 0 refuses it (nothing is
   * counted); otherwise it is counted at `at`, and `failures` is how many the window held before it.
   */
  admit(list: string, policy: Backoff, nowMs: number): { wait: number; failures: number; at: number } {
    const wait = this.retryAfter(list, policy, nowMs);
    const failures = this.recent(list, policy.windowSeconds, nowMs);
    if (wait > 0) return { wait, failures: failures.length, at: nowMs };
    this.store(list, [...failures, nowMs]);
    return { wait: 0, failures: failures.length, at: nowMs };
  }

  /** An attempt counted whatever the window holds: `failures` is how many it held before it. */
  record(list: string, windowSeconds: number, nowMs: number): { failures: number; at: number } {
    const failures = this.recent(list, windowSeconds, nowMs);
    this.store(list, [...failures, nowMs]);
    return { failures: failures.length, at: nowMs };
  }

  /** An attempt counted only while the window holds fewer than `free` failures; refused (nothing counted) otherwise. */
  admitUnder(list: string, free: number, windowSeconds: number, nowMs: number): { admitted: boolean; at: number } {
    const failures = this.recent(list, windowSeconds, nowMs);
    if (failures.length >= free) return { admitted: false, at: nowMs };
    this.store(list, [...failures, nowMs]);
    return { admitted: true, at: nowMs };
  }

  /** An admitted attempt succeeded: it no longer counts. */
  forgive(list: string, at: number): void {
    const failures = this.kv().get<number[]>(`failures:${list}`) ?? [];
    const index = failures.lastIndexOf(at);
    if (index === -1) return;
    failures.splice(index, 1);
    this.store(list, failures);
  }

  /** True when a browser with this device hash signed in here and its trust has not lapsed. */
  trusts(deviceHash: string, nowMs: number): boolean {
    const device = this.kv().get<Device>(`device:${deviceHash}`);
    return device !== undefined && device.until > nowMs;
  }

  /** Trusts a browser until `until`; the oldest are forgotten past MAX_TRUSTED_DEVICES. */
  trust(deviceHash: string, until: number, nowMs: number): void {
    this.kv().put(`device:${deviceHash}`, { until } satisfies Device);
    const devices = [...this.kv().list<Device>({ prefix: "device:" })].sort((a, b) => b[1].until - a[1].until);
    devices.forEach(([key, device], newest) => {
      if (newest >= MAX_TRUSTED_DEVICES || device.until <= nowMs) this.kv().delete(key);
    });
  }

  /**
   * Files a texted sign-in code under the hash of its challenge. False when `maxPerWindow`
   * codes were texted in the last `windowSeconds` (nothing is filed, nothing must be sent).
   */
  openChallenge(challengeHash: string, digest: string, expires: number, maxPerWindow: number, windowSeconds: number, nowMs: number): boolean {
    const texted = this.recent("texted", windowSeconds, nowMs);
    if (texted.length >= maxPerWindow) return false;
    this.store("texted", [...texted, nowMs]);
    for (const [key, challenge] of this.kv().list<Challenge>({ prefix: "challenge:" })) if (challenge.expires <= nowMs) this.kv().delete(key);
    this.kv().put(`challenge:${challengeHash}`, { digest, expires, wrong: 0 } satisfies Challenge);
    return true;
  }

  /** `ok` once (the challenge is used up); `wrong` for a wrong code; after `maxWrong` wrong codes, or when lapsed or unknown, `none`. */
  answerChallenge(challengeHash: string, digest: string, maxWrong: number, nowMs: number): "ok" | "wrong" | "none" {
    const key = `challenge:${challengeHash}`;
    const challenge = this.kv().get<Challenge>(key);
    if (!challenge || challenge.expires <= nowMs || challenge.wrong >= maxWrong) return "none";
    if (constantTimeEqual(challenge.digest, digest)) {
      this.kv().delete(key);
      return "ok";
    }
    this.kv().put(key, { ...challenge, wrong: challenge.wrong + 1 });
    return "wrong";
  }
}
