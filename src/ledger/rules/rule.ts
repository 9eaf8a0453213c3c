/**
 * What a rule is: its kinds of match, its input and its standing record, the checks that
 * refuse an input before anything is written, and the two orders of the rulebook (the
 * decision order and the listing). Live rules decide in order of priority (lower first),
 * ties by key; a retired rule stays listed and decides nothing.
 */
import { isQueueLabel } from "../books/queue-label";
import { ruleRevisions } from "../store/schema";
import { MAX_PATTERN_LENGTH, readPattern } from "./pattern";

export type MatchKind = (typeof ruleRevisions.$inferSelect)["matchKind"];
export const MATCH_KINDS: readonly MatchKind[] = ["description_exact", "description_regex", "amount_sign"];
export const DEFAULT_PRIORITY = 100;

export interface RuleInput {
  rule_key: string;
  match_kind: MatchKind;
  match_value: string;
  category: string;
  priority?: number;
}

export interface Rule {
  rule_key: string;
  revision: number;
  match_kind: MatchKind;
  match_value: string;
  category: string;
  priority: number;
  retired: boolean;
  born_from_a_id: number | null;
  actor: string;
  created_at: string;
  /** Null for a rule that can decide; otherwise why it decides nothing (`standingProblem`). */
  pattern_problem: string | null;
}

/** A line as the rules see it. */
export interface Candidate {
  aId: number;
  description: string;
  amountCents: number;
}

/**
 * Why a match value is refused before anything is written (a 400), or null. A regex must
 * be RE2 syntax (src/ledger/pattern.ts): RE2 matches in linear time, so whatever it
 * compiles is accepted, and what it cannot read is refused naming the construct.
 */
export function matchProblem(kind: MatchKind, value: string): string | null {
  if (kind === "amount_sign") return value === "in" || value === "out" ? null : 'amount_sign takes "in" (money in) or "out" (money out)';
  if (kind === "description_exact") return value.trim() === "" ? "the match value is empty" : null;
  if (value === "") return "the pattern is empty; a rule that should take every line is `amount_sign`";
  if (value.length > MAX_PATTERN_LENGTH) return `a pattern is at most ${MAX_PATTERN_LENGTH} characters`;
  return readPattern(value).problem ?? null;
}

/**
 * Why a standing rule decides nothing though it is live, or null: a pattern written under
 * the earlier JavaScript syntax that RE2 cannot read (a lookahead, a backreference). Such
 * a rule matches no line, and list_rules shows why, until a revision replaces or retires it.
 */
export function standingProblem(rule: Pick<Rule, "match_kind" | "match_value">): string | null {
  return rule.match_kind === "description_regex" ? (readPattern(rule.match_value).problem ?? null) : null;
}

/** Why a whole rule input is refused before anything is written, per field, or none. */
export function ruleProblems(input: RuleInput): { field: keyof RuleInput; message: string }[] {
  const problems: { field: keyof RuleInput; message: string }[] = [];
  const match = matchProblem(input.match_kind, input.match_value);
  if (match) problems.push({ field: "match_value", message: match });
  if (isQueueLabel(input.category)) problems.push({ field: "category", message: "a rule cannot decide the queue; name a category" });
  else if (input.category.trim() === "") problems.push({ field: "category", message: "a rule needs a category" });
  return problems;
}
/** Live rules in the order they decide: priority ascending, ties by key. */
export function decisionOrder(rules: Rule[]): Rule[] {
  return rules.filter((r) => !r.retired).sort((a, b) => a.priority - b.priority || compareKeys(a.rule_key, b.rule_key));
}

/** The listing: priority descending, ties by key descending, so the bottom row decides first. */
export function listingOrder(rules: Rule[]): Rule[] {
  return [...rules].sort((a, b) => b.priority - a.priority || compareKeys(b.rule_key, a.rule_key));
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function fromInput(input: RuleInput, bornFromAId: number | null): Omit<Rule, "revision" | "created_at" | "actor" | "pattern_problem"> {
  return {
    rule_key: input.rule_key,
    match_kind: input.match_kind,
    match_value: input.match_value,
    category: input.category,
    priority: input.priority ?? DEFAULT_PRIORITY,
    retired: false,
    born_from_a_id: bornFromAId,
  };
}
