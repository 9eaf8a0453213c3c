/**
 * The ledger's refusals. A domain function that refuses returns a Refusal carrying the
 * ledger's own words; the endpoint relays them verbatim as a 409. (A value, not a thrown
 * error, because it crosses the Durable Object's RPC boundary intact.)
 */
export interface Refusal {
  refused: string;
}

export function refuse(words: string): Refusal {
  return { refused: words };
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === "object" && value !== null && typeof (value as Refusal).refused === "string";
}
