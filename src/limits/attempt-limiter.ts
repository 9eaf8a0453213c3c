/**
 * A Durable Object per guarded key (a tenant or a client address, for sign-in or for grant
 * confirmation) holding the times of its recent failed attempts. One object per key is
 * one thread per key: concurrent guesses are counted exactly, across every Worker
 * isolate, which process memory could not do.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

export class AttemptLimiter extends DurableObject<Env> {
  private failures(windowMs: number, nowMs: number): number[] {
    const stored = (this.ctx.storage.kv.get<number[]>("failures") ?? []).filter((at) => at > nowMs - windowMs);
    return stored;
  }

  /** 0 when another attempt may be made now; otherwise the seconds until one may. */
  retryAfter(limit: number, windowSeconds: number, nowMs: number): number {
    const failures = this.failures(windowSeconds * 1000, nowMs);
    if (failures.length < limit) return 0;
    const oldestCounted = failures[failures.length - limit]!;
    return Math.max(1, Math.ceil((oldestCounted + windowSeconds * 1000 - nowMs) / 1000));
  }

  recordFailure(windowSeconds: number, nowMs: number): void {
    const failures = this.failures(windowSeconds * 1000, nowMs);
    failures.push(nowMs);
    // Only the newest few hundred matter to any limit: the list stays small.
    this.ctx.storage.kv.put("failures", failures.slice(-500));
  }
}
