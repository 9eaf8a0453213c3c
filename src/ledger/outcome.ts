/**
 * What the ledger answers a call: the value asked for, or a refusal in the ledger's own
 * words. A value, not a thrown error, because it crosses the Durable Object's RPC boundary
 * intact; the faces turn a refusal into a problem (`settle` in src/errors.ts).
 */
export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export type Refusal =
  /** The tenant holds no such thing, or the caller's face does not serve it: a 404. */
  | { kind: "not_found"; words: string }
  /** The ledger will not do it: a 409 with its words. A bulk write stopped at `row`, after creating `created`. */
  | { kind: "refused"; words: string; row?: number; created?: unknown[] };

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function notFound(words: string): Outcome<never> {
  return { ok: false, refusal: { kind: "not_found", words } };
}

export function refused(words: string, bulk?: { row: number; created: unknown[] }): Outcome<never> {
  return { ok: false, refusal: { kind: "refused", words, ...bulk } };
}

/** The ledger's words for a line the face does not serve. */
export function noSuchLine(side: "A" | "B", srcId: number): Outcome<never> {
  return notFound(`This tenant holds no line ${side}:${srcId}.`);
}

/** The value of an outcome that cannot be a refusal where it is asked for; a refusal there is a fault. */
export function valueOf<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw new Error(`the ledger refused: ${outcome.refusal.words}`);
}
