/**
 * A rule proposed from one line, for a person to edit and save: a pattern of the
 * merchant's words as the local model reads them (processor prefixes, store numbers and
 * reference codes left out), so the rule takes the merchant's other lines too; the line's
 * exact description where no such words match it.
 */
import { findRow } from "../books/reads";
import type { Face } from "../face";
import { normaliseDescription } from "../model/features";
import { noSuchLine, ok, type Outcome } from "../outcome";
import type { LedgerHandle } from "../store/db";
import { matcherOf } from "./matching";
import type { RuleInput } from "./rule";

/** At most this many of the merchant's words make the pattern. */
const PATTERN_WORDS = 3;

export function proposeRule(line: { aId: number; description: string; amountCents: number }, category: string): RuleInput {
  const words = normaliseDescription(line.description)
    .split(" ")
    .filter((w) => w.length >= 2)
    .slice(0, PATTERN_WORDS);
  if (words.length > 0) {
    // The words as written between any non-word characters: "BLUE-BOTTLE" and "BLUE BOTTLE" alike.
    const pattern = { match_kind: "description_regex" as const, match_value: words.map((w) => w.toUpperCase()).join("\\W+") };
    if (matcherOf(pattern)(line)) return { rule_key: words.join("-"), ...pattern, category };
  }
  const key = line.description.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40);
  return { rule_key: key || `line-${line.aId}`, match_kind: "description_exact", match_value: line.description, category };
}

/** The rule proposed from a side-A line the face serves. */
export function proposeRuleFor(db: LedgerHandle, face: Face, aId: number, category: string): Outcome<RuleInput> {
  const row = findRow(db, face, "A", aId);
  if (!row) return noSuchLine("A", aId);
  return ok(proposeRule({ aId, description: row.description, amountCents: row.amount_cents }, category));
}
