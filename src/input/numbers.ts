/**
 * Numbers as clients write them where JSON does not type them (a query string, a path),
 * and amounts in dollars: one spelling per value, so that nothing is read as a number
 * the client did not mean.
 */

/** Decimal digits with an optional `-`; no `+`, no leading zero, no spaces, no fraction or exponent. */
const DECIMAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;

/**
 * Why a query or path value is not an integer, or null when it is. JavaScript's Number()
 * would read `0x10` and `1e1` and `16.0` and ` 16` as numbers and `""` as 0; each of them
 * is refused here with what to send instead.
 */
export function integerProblem(value: unknown): string | null {
  if (Array.isArray(value)) return "given more than once; send it once";
  if (typeof value !== "string") return "expected an integer";
  if (!DECIMAL_INTEGER.test(value)) {
    if (/^[+-]?0[0-9]+$/.test(value)) return `expected an integer in decimal digits without leading zeros, got "${value}"`;
    return `expected an integer in decimal digits (e.g. 16), got "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  }
  if (!Number.isSafeInteger(Number(value))) return `expected an integer of at most ${Number.MAX_SAFE_INTEGER} in size`;
  return null;
}

/**
 * A dollar amount with at most two decimal places as JSON wrote it (12.5, 12.50, -3.07).
 * A JSON number reaches us as the shortest decimal that reads back as the same double, so
 * `12.345` stays `12.345` and `0.1 + 0.2` stays `0.30000000000000004`: both hold
 * fractions of a cent and are refused rather than rounded.
 */
export function subCentProblem(dollars: number): string | null {
  if (!Number.isFinite(dollars)) return null; // the field's own check names it
  const written = String(dollars);
  if (/^-?[0-9]+(\.[0-9]{1,2})?$/.test(written)) return null;
  return `${written} holds a fraction of a cent; amounts are whole cents (at most two decimal places)`;
}
