/**
 * The words of a parity mismatch's notice: what the owner reads in the thread and, where
 * SMS is configured, as a text. Short enough for two SMS segments; numbers only, never a
 * line's description, and the path of the verdict to read the rest.
 */

/** What of a verdict its notice tells. */
export interface MismatchFacts {
  as_of: string;
  revision: number;
  coefficient: number;
  deltas: Record<string, number>;
  localisations: readonly unknown[];
  unexplained: readonly unknown[];
}

/** How many of the differing numbers the notice names before counting the rest. */
const NAMED_DELTAS = 3;

export function noticeOfMismatch(verdict: MismatchFacts, source: "manual" | "daily"): string {
  const differing = Object.entries(verdict.deltas).filter(([, cents]) => cents !== 0);
  const named = differing.slice(0, NAMED_DELTAS).map(([key, cents]) => `${key} ${money(cents)}`);
  const more = differing.length > NAMED_DELTAS ? ` (and ${differing.length - NAMED_DELTAS} more)` : "";
  const lines = verdict.localisations.length;
  const explained = `${lines} ${lines === 1 ? "line explains" : "lines explain"} the differences`;
  const left = verdict.unexplained.length;
  const unexplained = left === 0 ? "" : `; ${left} ${left === 1 ? "number is" : "numbers are"} not wholly explained`;
  return (
    `Parity mismatch on ${verdict.as_of} (revision ${verdict.revision}, ${source === "daily" ? "daily oracle" : "filed by hand"}): ` +
    `coefficient ${Number(verdict.coefficient.toPrecision(4))}. Books minus oracle: ${named.join(", ")}${more}. ` +
    `${explained}${unexplained}. Details: GET /api/v1/reports/parity-verdicts/${verdict.as_of}?revision=${verdict.revision}`
  );
}

/** Signed dollars: `+$1,479.00`, `-$12.50`. */
function money(cents: number): string {
  const dollars = (Math.abs(cents) / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${cents < 0 ? "-" : "+"}$${dollars}`;
}
