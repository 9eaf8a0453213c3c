/**
 * A rule tried before it is saved: the undecided lines it matches, which create_rule would
 * decide, and which rule would decide each of them once it stands in the rulebook (a rule
 * that decides first still wins; a revision of an existing key stands in for the key's
 * current one). Nothing is written.
 */
import type { Face } from "../face";
import { sql, type SQL } from "drizzle-orm";
import { findRow, type Row } from "../books/reads";
import { queueIsSmall, UNDECIDED_ROW } from "../books/undecided";
import type { LedgerHandle } from "../store/db";
import { EXCEPTIONS_QUEUE } from "../store/schema";
import { compileRulebook, matcherOf } from "./matching";
import { decisionOrder, fromInput, type Candidate, type Rule, type RuleInput } from "./rule";
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
  const rulebook = [...standingRules(db).filter((r) => r.rule_key !== rule.rule_key), rule];
  if (rule.match_kind === "amount_sign" && decisionOrder(rulebook)[0] === rule) return signDecidingFirst(db, face, rule, sampleSize);
  const matched = candidatesOf(db, face, rule).filter(matcherOf(rule));
  const decide = compileRulebook(rulebook);
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

/**
 * A sign that no live rule decides before: it decides every undecided line of its sign on
 * the face, so they are counted in SQL, not read one by one (half of a whole pull waiting
 * in the queue, when a new tenant tries its first rule).
 */
function signDecidingFirst(db: LedgerHandle, face: Face, rule: Rule, sampleSize: number): DryRun {
  const where = candidatesWhere(db, face, rule);
  const matches = db.get<{ n: number }>(sql`SELECT count(*) AS n FROM c_rows WHERE ${where}`)!.n;
  const first = db.all<{ aId: number }>(sql`SELECT src_id AS aId FROM c_rows WHERE ${where} ORDER BY src_id LIMIT ${sampleSize}`);
  return { matches, decided_by_it: matches, decided_by_others: [], sample: first.flatMap((line) => findRow(db, face, "A", line.aId) ?? []) };
}

/**
 * The undecided lines on the face a rule may match, in line order, read from relation C
 * alone (`UNDECIDED_ROW`), without the lines' provider records. A
 * sign is tested in SQL, a rule's words on the trigram index. The queue's index names the
 * candidates when the queue is a small part of the books; otherwise the rows are read in
 * key order.
 */
function candidatesOf(db: LedgerHandle, face: Face, rule: Rule): Candidate[] {
  return db.all<Candidate>(sql`
    SELECT src_id AS aId, description, amount_cents AS amountCents FROM c_rows
    WHERE ${candidatesWhere(db, face, rule)}
    ORDER BY src_id`);
}

function candidatesWhere(db: LedgerHandle, face: Face, rule: Rule): SQL {
  const words = wordsQueryOf(rule);
  const sign = rule.match_kind !== "amount_sign" ? sql`` : rule.match_value === "in" ? sql`AND amount_cents > 0` : sql`AND amount_cents < 0`;
  return sql`${UNDECIDED_ROW}
      ${queueIsSmall(db) ? sql`AND ${sql.raw(EXCEPTIONS_QUEUE)}` : sql``}
      ${face.effectiveFrom ? sql`AND posted_on >= ${face.effectiveFrom}` : sql``} ${sign}
      ${words ? sql`AND src_id IN (SELECT rowid >> 1 FROM c_words WHERE c_words MATCH ${words} AND rowid & 1 = 0)` : sql``}`;
}
