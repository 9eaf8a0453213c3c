/**
 * A rule tried before it is saved: the undecided lines it matches, which create_rule would
 * decide, and which rule would decide each of them once it stands in the rulebook (a rule
 * that decides first still wins; a revision of an existing key stands in for the key's
 * current one). Nothing is written.
 */
import type { Face } from "../face";
import { findRow, type Row } from "../books/reads";
import { undecidedLines } from "../books/undecided";
import type { LedgerHandle } from "../store/db";
import { compileRulebook, matcherOf } from "./matching";
import { fromInput, type Rule, type RuleInput } from "./rule";
import { findRule, standingRules } from "./rulebook";
import { wordsQueryOf } from "./rule-words";

export interface DryRun {
  /** Undecided lines on the face the rule matches: create_rule decides every one of them. */
  matches: number;
  /** Of those, how many the rule itself would decide; the rest go to a rule that decides first. */
  decided_by_it: number;
  /** The rules that decide first, with how many of the matched lines each would take. */
  decided_by_others: { rule_key: string; category: string; lines: number }[];
  /** The first matched lines, in the order they arrived. */
  sample: Row[];
}

export const DRY_RUN_SAMPLE = 10;

export function dryRunRule(db: LedgerHandle, face: Face, input: RuleInput, sampleSize = DRY_RUN_SAMPLE): DryRun {
  const previous = findRule(db, input.rule_key);
  const rule: Rule = {
    ...fromInput(input, null),
    revision: (previous?.revision ?? 0) + 1,
    actor: "",
    created_at: "",
    pattern_problem: null,
  };
  const matched = undecidedLines(db, { postedFrom: face.effectiveFrom, words: wordsQueryOf(rule) }).filter(matcherOf(rule));
  const decide = compileRulebook([...standingRules(db).filter((r) => r.rule_key !== rule.rule_key), rule]);
  const others = new Map<string, { rule_key: string; category: string; lines: number }>();
  let decidedByIt = 0;
  for (const line of matched) {
    const decider = decide(line)!;
    if (decider.rule_key === rule.rule_key) {
      decidedByIt += 1;
      continue;
    }
    const other = others.get(decider.rule_key) ?? { rule_key: decider.rule_key, category: decider.category, lines: 0 };
    other.lines += 1;
    others.set(decider.rule_key, other);
  }
  return {
    matches: matched.length,
    decided_by_it: decidedByIt,
    decided_by_others: [...others.values()].sort((a, b) => b.lines - a.lines || (a.rule_key < b.rule_key ? -1 : 1)),
    sample: matched.slice(0, sampleSize).flatMap((line) => findRow(db, face, "A", line.aId) ?? []),
  };
}
