/** Seeded draws for the bank-text generator, over the benchmarks' `prng`. */
import { prng } from "../generator";

export class Rand {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = prng(seed);
  }

  /** In [0, 1). */
  float(): number {
    return this.next();
  }

  /** An integer in [low, high]. */
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** `count` distinct items, in a random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    return pool.slice(0, Math.min(count, pool.length));
  }

  weighted<T>(items: readonly T[], weight: (item: T) => number): T {
    const total = items.reduce((s, item) => s + weight(item), 0);
    let r = this.next() * total;
    for (const item of items) if ((r -= weight(item)) < 0) return item;
    return items[items.length - 1]!;
  }

  /** Spread evenly over orders of magnitude: amounts. */
  logUniform(low: number, high: number): number {
    return low * Math.pow(high / low, this.next());
  }

  digits(count: number): string {
    let s = "";
    for (let i = 0; i < count; i++) s += String(Math.floor(this.next() * 10));
    return s;
  }

  /** Upper-case letters and digits, as reference codes are. */
  code(count: number): string {
    const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
    let s = "";
    for (let i = 0; i < count; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
}
