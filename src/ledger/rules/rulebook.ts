/**
 * The versioned rulebook (docs/decisions.md, "Rules, judgements and exceptions"). Every
 * change appends a revision; the newest revision of a key is the rule as it stands.
 */
import { desc, eq, inArray, sql } from "drizzle-orm";
import type { Face } from "../face";
import { notFound, ok, refused, type Outcome } from "../outcome";
import { undecidedLines } from "../books/undecided";
import type { LedgerDb, LedgerHandle } from "../store/db";
import { ruleRevisions } from "../store/schema";
import { decideByRules, matcherOf } from "./matching";
import { decisionOrder, fromInput, listingOrder, standingProblem, type Rule, type RuleInput } from "./rule";
import { wordsQueryOf } from "./rule-words";

// --- the rulebook ---

function toRule(r: typeof ruleRevisions.$inferSelect): Rule {
  return {
    rule_key: r.ruleKey,
    revision: r.revision,
    match_kind: r.matchKind,
    match_value: r.matchValue,
    category: r.category,
    priority: r.priority,
    retired: r.retired,
    born_from_a_id: r.bornFromAId,
    actor: r.actor,
    created_at: r.createdAt,
    pattern_problem: standingProblem({ match_kind: r.matchKind, match_value: r.matchValue }),
  };
}

/** The newest revision of every key, retired ones included. */
export function standingRules(db: LedgerHandle): Rule[] {
  const newest = db.select({ id: sql<number>`max(${ruleRevisions.id})` }).from(ruleRevisions).groupBy(ruleRevisions.ruleKey);
  return db.select().from(ruleRevisions).where(inArray(ruleRevisions.id, newest)).all().map(toRule);
}

/** list-rules: the rulebook as it stands, in the listing's order. */
export function listRules(db: LedgerHandle): Rule[] {
  return listingOrder(standingRules(db));
}

function noSuchRule(ruleKey: string): Outcome<never> {
  return notFound(`The rulebook holds no rule "${ruleKey}"; list_rules shows the keys.`);
}

export function findRule(db: LedgerHandle, ruleKey: string): Rule | undefined {
  const r = db.select().from(ruleRevisions).where(eq(ruleRevisions.ruleKey, ruleKey)).orderBy(desc(ruleRevisions.revision)).limit(1).get();
  return r ? toRule(r) : undefined;
}
/** Every revision of a rule, the newest first. */
export function ruleRevisionsOf(db: LedgerHandle, ruleKey: string): Outcome<Rule[]> {
  const revisions = db.select().from(ruleRevisions).where(eq(ruleRevisions.ruleKey, ruleKey)).orderBy(desc(ruleRevisions.revision)).all();
  return revisions.length === 0 ? noSuchRule(ruleKey) : ok(revisions.map(toRule));
}

/** Appends the next revision of a key (the first for a new key). */
export function appendRevision(
  db: LedgerHandle,
  rule: Omit<Rule, "revision" | "created_at" | "actor" | "pattern_problem">,
  actor: string,
  at: string,
): Rule {
  const previous = findRule(db, rule.rule_key);
  const row = db
    .insert(ruleRevisions)
    .values({
      ruleKey: rule.rule_key,
      revision: (previous?.revision ?? 0) + 1,
      matchKind: rule.match_kind,
      matchValue: rule.match_value,
      category: rule.category.trim(),
      priority: rule.priority,
      retired: rule.retired,
      bornFromAId: rule.born_from_a_id,
      actor,
      createdAt: at,
    })
    .returning()
    .get();
  return toRule(row);
}
/**
 * create-rule: appends the revision, then decides every undecided line it matches (each
 * by the whole rulebook's order, so a rule that decides first still wins). The lines it
 * may match come from the trigram index when the rule names words (`wordsQueryOf`).
 */
export function createRule(db: LedgerDb, input: RuleInput, actor: string, at: string, face: Face | null) {
  return db.transaction((tx) => {
    const rule = appendRevision(tx, fromInput(input, null), actor, at);
    const candidates = undecidedLines(tx, { postedFrom: face?.effectiveFrom, words: wordsQueryOf(rule) });
    const decided = decideByRules(tx, candidates.filter(matcherOf(rule)), standingRules(tx), at);
    return { rule, decided };
  });
}

/** create-rules: appends each row in order; deciding waits for the next run-rules. */
export function createRules(db: LedgerDb, inputs: RuleInput[], actor: string, at: string): Rule[] {
  return db.transaction((tx) => inputs.map((input) => appendRevision(tx, fromInput(input, null), actor, at)));
}
/**
 * move-rule-to-end: a revision with a priority strictly below every other live rule's,
 * so the rule lands at the end of the listing and decides first. A rule that already
 * decides first appends nothing. Decided lines stay as they are.
 */
export function moveRuleToEnd(db: LedgerDb, ruleKey: string, actor: string, at: string): Outcome<{ moved: boolean; rule: Rule }> {
  return db.transaction((tx) => {
    const rule = findRule(tx, ruleKey);
    if (!rule) return noSuchRule(ruleKey);
    if (rule.retired) return refused(`rule "${ruleKey}" is retired: it decides nothing, so it cannot decide first`);
    const live = decisionOrder(standingRules(tx));
    if (live[0]?.rule_key === ruleKey) return ok({ moved: false, rule });
    const lowest = Math.min(...live.filter((r) => r.rule_key !== ruleKey).map((r) => r.priority));
    return ok({ moved: true, rule: appendRevision(tx, { ...rule, priority: lowest - 1 }, actor, at) });
  });
}

/** retire-rule: a revision with `retired: true`; a retired rule appends nothing more. */
export function retireRule(db: LedgerDb, ruleKey: string, actor: string, at: string): Outcome<Rule> {
  return db.transaction((tx) => {
    const rule = findRule(tx, ruleKey);
    if (!rule) return noSuchRule(ruleKey);
    return ok(rule.retired ? rule : appendRevision(tx, { ...rule, retired: true }, actor, at));
  });
}
