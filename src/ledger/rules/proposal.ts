/**
 * A rule proposed from one line, for a person to edit and save: a pattern of the line's
 * first words (numbers, codes and one-letter words left out: store numbers, dates and
 * references change from line to line), so the rule takes the merchant's other lines too;
 * the line's exact description where it has no such words.
 */
import { findRow } from "../books/reads";
import type { Face } from "../face";
import { noSuchLine, ok, type Outcome } from "../outcome";
import type { LedgerHandle } from "../store/db";
import { matcherOf } from "./matching";
import type { RuleInput } from "./rule";

/** At most this many of the line's words make the pattern. */
const PATTERN_WORDS = 3;

export function proposeRule(line: { aId: number; description: string; amountCents: number }, category: string): RuleInput {
  // The first run of words: a number or a code after them ends it, one before them is passed over.
  const words: string[] = [];
  for (const token of line.description.split(/[^A-Za-z0-9]+/)) {
    if (/^[A-Za-z]{2,}$/.test(token)) words.push(token.toLowerCase());
    else if (token !== "" && words.length > 0) break;
    if (words.length === PATTERN_WORDS) break;
  }
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
