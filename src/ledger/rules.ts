/**
 * The versioned rulebook (DECISIONS.md, "Categories and decisions").
 *
 * Every change appends a revision; the newest revision of a key is the rule as it
 * stands. Live rules decide in order of priority (lower first), ties by key; a retired
 * rule stays listed and decides nothing. Rules decide only lines nobody has decided:
 * side-A lines in books or pending with no decision fact at all, so a human judgement
 * (even one that put the line back in the queue) is never overridden.
 */
import { desc, eq, inArray, sql } from "drizzle-orm";
import type { LedgerDb, LedgerHandle } from "./db";
import type { Face } from "./face";
import { foldDescription } from "./fold";
import { LiteralRanks } from "./literal-ranks";
import { foldForLiterals, matchedPart, MAX_PATTERN_LENGTH, readPattern, type Prefilter } from "./pattern";
import { isQueueLabel } from "./queue-label";
import { appendMachineDecisions, type MachineDecision } from "./machine-decisions";
import { wordsQueryOf } from "./rule-words";
import { ruleRevisions } from "./schema";
import { inLineRanges, type Pause } from "./turns";
import { queueIsSmall, undecidedLines } from "./undecided";

export type MatchKind = (typeof ruleRevisions.$inferSelect)["matchKind"];
export const MATCH_KINDS: readonly MatchKind[] = ["description_exact", "description_regex", "amount_sign"];
export const DEFAULT_PRIORITY = 100;
export { MAX_MATCHED_LENGTH, MAX_PATTERN_LENGTH } from "./pattern";

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

// --- matching ---

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

const matchesNothing = () => false;

export function matcherOf(rule: Pick<Rule, "match_kind" | "match_value">): (line: Candidate) => boolean {
  switch (rule.match_kind) {
    case "description_exact": {
      const wanted = foldDescription(rule.match_value);
      return (line) => foldDescription(line.description) === wanted;
    }
    case "description_regex": {
      const { pattern } = readPattern(rule.match_value);
      if (!pattern) return matchesNothing;
      return (line) => pattern.regex.test(matchedPart(line.description));
    }
    case "amount_sign":
      return rule.match_value === "in" ? (line) => line.amountCents > 0 : (line) => line.amountCents < 0;
  }
}

/** A pattern or a sign, tried on a line in decision order. */
interface Tried {
  at: number;
  /** Whether the line's text holds what every match holds, by the pieces a scan found; null for a rule tried on every line it reaches. */
  holds: ((found: Uint32Array, stamp: number) => boolean) | null;
  test: (line: Candidate, matched: string) => boolean;
}

/**
 * The live rulebook compiled once for a run: the rule that decides a line, as
 * `decisionOrder(rules).find(matches)` would find it, but cheaply. Every exact description
 * is in one hash (the line's description folded once). Every pattern's literal pieces are
 * in one automaton, which reads the line's folded text once: a pattern that is nothing but
 * text is decided by it alone; any other pattern runs (RE2) only where a piece of its
 * prefilter was found and the whole prefilter holds; patterns with no known piece, and the
 * signs, are tried on every line. They are tried in decision order only until the best hit
 * so far.
 */
export function compileRulebook(rules: Rule[]): (line: Candidate) => Rule | undefined {
  const ordered = decisionOrder(rules);
  const exact = new Map<string, number>();
  const literals = new LiteralRanks();
  const tried: Tried[] = [];
  /** For each watched piece's key, the rules (their places in `tried`) whose prefilter names it. */
  const triedByKey: number[][] = [];
  ordered.forEach((rule, at) => {
    if (rule.match_kind === "description_exact") {
      const wanted = foldDescription(rule.match_value);
      if (!exact.has(wanted)) exact.set(wanted, at);
    } else if (rule.match_kind === "description_regex") {
      const { pattern } = readPattern(rule.match_value);
      if (!pattern) return; // unreadable under RE2: it decides nothing (standingProblem)
      const test = (_line: Candidate, matched: string) => pattern.regex.test(matched);
      if (pattern.texts !== null) {
        for (const text of pattern.texts) literals.add(text, at);
      } else if (pattern.prefilter === null) {
        tried.push({ at, holds: null, test });
      } else {
        const holds = prefilterTest(pattern.prefilter, (piece) => {
          const key = literals.watch(piece);
          (triedByKey[key] ??= []).push(tried.length);
          return key;
        });
        tried.push({ at, holds, test });
      }
    } else {
      const matches = matcherOf(rule);
      tried.push({ at, holds: null, test: (line) => matches(line) });
    }
  });
  const found = new Uint32Array(literals.watched);
  /** The stamp of the last line where a piece of the rule's prefilter was found. */
  const reached = new Uint32Array(tried.length);
  const newlyFound: number[] = [];
  let stamp = 0;
  return (line) => {
    let best = exact.size > 0 ? (exact.get(foldDescription(line.description)) ?? Infinity) : Infinity;
    const matched = matchedPart(line.description);
    if (literals.size > 0) {
      stamp = stamp === 0xffffffff ? 1 : stamp + 1;
      if (stamp === 1) {
        found.fill(0);
        reached.fill(0);
      }
      newlyFound.length = 0;
      best = Math.min(best, literals.scan(foldForLiterals(matched), found, stamp, newlyFound));
      for (const key of newlyFound) for (const i of triedByKey[key] ?? NONE) reached[i] = stamp;
    }
    for (let i = 0; i < tried.length; i++) {
      const rule = tried[i]!;
      if (rule.at > best) break;
      if (rule.holds !== null && (reached[i] !== stamp || !rule.holds(found, stamp))) continue;
      if (rule.test(line, matched)) return ordered[rule.at];
    }
    return best === Infinity ? undefined : ordered[best];
  };
}

const NONE: number[] = [];

/** A prefilter as a test of the keys a scan found (`found[key] === stamp`), each piece watched under its key. */
function prefilterTest(prefilter: Prefilter, watch: (piece: string) => number): (found: Uint32Array, stamp: number) => boolean {
  if (typeof prefilter === "string") {
    const key = watch(prefilter);
    return (found, stamp) => found[key] === stamp;
  }
  const all = "all" in prefilter;
  const subs = all ? prefilter.all : prefilter.any;
  if (subs.every((sub) => typeof sub === "string")) {
    const keys = subs.map((piece) => watch(piece as string));
    return all
      ? (found, stamp) => {
          for (const key of keys) if (found[key] !== stamp) return false;
          return true;
        }
      : (found, stamp) => {
          for (const key of keys) if (found[key] === stamp) return true;
          return false;
        };
  }
  const parts = subs.map((sub) => prefilterTest(sub, watch));
  return all
    ? (found, stamp) => {
        for (const part of parts) if (!part(found, stamp)) return false;
        return true;
      }
    : (found, stamp) => {
        for (const part of parts) if (part(found, stamp)) return true;
        return false;
      };
}

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

export function findRule(db: LedgerHandle, ruleKey: string): Rule | undefined {
  const r = db.select().from(ruleRevisions).where(eq(ruleRevisions.ruleKey, ruleKey)).orderBy(desc(ruleRevisions.revision)).limit(1).get();
  return r ? toRule(r) : undefined;
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

// --- deciding lines ---

/** Each line's decision by the first live rule that matches it (none for a line no rule matches). */
export function ruleDecisions(lines: Candidate[], rules: Rule[]): MachineDecision[] {
  return decisionsBy(compileRulebook(rules), lines);
}

function decisionsBy(decide: (line: Candidate) => Rule | undefined, lines: Candidate[]): MachineDecision[] {
  const decided: MachineDecision[] = [];
  for (const line of lines) {
    const rule = decide(line);
    if (rule) decided.push({ engine: "rule", aId: line.aId, category: rule.category, ruleKey: rule.rule_key, ruleRevision: rule.revision });
  }
  return decided;
}

/** Decides each line by the first live rule that matches it; returns how many were decided. */
export function decideByRules(db: LedgerHandle, lines: Candidate[], rules: Rule[], at: string): number {
  const decided = ruleDecisions(lines, rules);
  appendMachineDecisions(db, decided, at);
  return decided.length;
}

/** How many lines one turn of run-rules decides, in one transaction: 15-25 ms of the object's time at 100,000 lines. */
const RUN_TURN = 2_000;

/**
 * run-rules: every live rule over the undecided lines. A second run decides 0.
 *
 * A run over a whole book takes about a second, so it works in turns with `pause()`
 * between them, where the object answers other calls: the lines are read (in ranges,
 * where most of the book is queued), then decided `linesPerTurn` at a time, each turn one
 * transaction (one transaction of 100,000 decisions costs the object twice the time).
 * Each turn decides by the ledger as it stands then: once anything was written since the
 * run began (SQLite's count of changed rows moved), each turn's lines are read again by
 * the definition of undecided, and the rulebook whenever it may have changed, so a
 * judgement, a supersession or a retired rule that landed meanwhile is respected. A run
 * cut short leaves each decision whole; the next run decides the rest.
 */
export async function runRules(
  db: LedgerDb,
  face: Face | null,
  at: string,
  pause: Pause = () => Promise.resolve(),
  linesPerTurn = RUN_TURN,
): Promise<number> {
  const postedFrom = face?.effectiveFrom;
  let written = totalChanges(db);
  let decide = compileRulebook(standingRules(db));
  const candidates = await undecidedInTurns(db, postedFrom, pause, linesPerTurn * READ_OVER_DECIDE);
  // Whether another call has written since the run began: from then on every turn's lines
  // are asked again (the candidates may be stale), and the rulebook whenever it may have moved.
  let othersWrote = false;
  let decided = 0;
  for (let from = 0; from < candidates.length; from += linesPerTurn) {
    if (from > 0) await pause();
    let lines: Candidate[] = candidates.slice(from, from + linesPerTurn);
    decided += db.transaction((tx) => {
      if (totalChanges(tx) !== written) {
        othersWrote = true;
        decide = compileRulebook(standingRules(tx));
      }
      if (othersWrote) lines = undecidedLines(tx, { postedFrom, among: lines.map((l) => l.aId) });
      const decisions = decisionsBy(decide, lines);
      appendMachineDecisions(tx, decisions, at);
      return decisions.length;
    });
    written = totalChanges(db);
  }
  return decided;
}

/** Reading an undecided line costs run-rules about a fifth of deciding it, so a turn reads this many times the lines a turn decides. */
const READ_OVER_DECIDE = 5;

/**
 * The undecided lines in line order for run-rules. Where most of the book is queued (a
 * first run), they are read in ranges of `linesPerTurn` lines with `pause()` between, not
 * in one statement of a tenth of a second or more; where the queue is small, its index
 * names them in one short read.
 */
async function undecidedInTurns(
  db: LedgerDb,
  postedFrom: string | null | undefined,
  pause: Pause,
  linesPerTurn: number,
): Promise<Candidate[]> {
  if (queueIsSmall(db)) return undecidedLines(db, { postedFrom });
  const lines: Candidate[] = [];
  await inLineRanges(db, linesPerTurn, pause, (after, upTo) => {
    for (const line of undecidedLines(db, { postedFrom, newerThan: after, upTo })) lines.push(line);
  });
  return lines;
}

/** Rows changed by every statement so far on this object's connection (triggers included): a cheap "did anyone write?". */
function totalChanges(db: LedgerHandle): number {
  return db.get<{ n: number }>(sql`SELECT total_changes() AS n`).n;
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

export type MoveOutcome = { found: false } | { found: true; moved: boolean; rule: Rule; retired?: true };

/**
 * move-rule-to-end: a revision with a priority strictly below every other live rule's,
 * so the rule lands at the end of the listing and decides first. A rule that already
 * decides first appends nothing. Decided lines stay as they are.
 */
export function moveRuleToEnd(db: LedgerDb, ruleKey: string, actor: string, at: string): MoveOutcome {
  return db.transaction((tx) => {
    const rule = findRule(tx, ruleKey);
    if (!rule) return { found: false };
    if (rule.retired) return { found: true, moved: false, rule, retired: true };
    const live = decisionOrder(standingRules(tx));
    if (live[0]?.rule_key === ruleKey) return { found: true, moved: false, rule };
    const lowest = Math.min(...live.filter((r) => r.rule_key !== ruleKey).map((r) => r.priority));
    const moved = appendRevision(tx, { ...rule, priority: lowest - 1 }, actor, at);
    return { found: true, moved: true, rule: moved };
  });
}

/** retire-rule: a revision with `retired: true`; a retired rule appends nothing more. */
export function retireRule(db: LedgerDb, ruleKey: string, actor: string, at: string): Rule | undefined {
  return db.transaction((tx) => {
    const rule = findRule(tx, ruleKey);
    if (!rule || rule.retired) return rule;
    return appendRevision(tx, { ...rule, retired: true }, actor, at);
  });
}
