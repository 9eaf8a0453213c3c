/**
 * Matching lines against the rules: one rule's matcher, and the whole live rulebook compiled
 * once into "the rule that decides this line" (docs/patterns.md for the pattern syntax).
 * Rules decide only lines nobody has decided: side-A lines in books or pending with no
 * decision fact at all, so a human judgement (even one that put the line back in the
 * queue) is never overridden.
 */
import type { LedgerHandle } from "../store/db";
import { appendMachineDecisions, type MachineDecision } from "../books/machine-decisions";
import { foldDescription } from "./fold";
import { LiteralRanks } from "./literal-ranks";
import { foldForLiterals, matchedPart, readPattern, type Prefilter } from "./pattern";
import { decisionOrder, type Candidate, type Rule } from "./rule";

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

// --- deciding lines ---

/** Each line's decision by the first live rule that matches it (none for a line no rule matches). */
export function ruleDecisions(lines: Candidate[], rules: Rule[]): MachineDecision[] {
  return decisionsBy(compileRulebook(rules), lines);
}

export function decisionsBy(decide: (line: Candidate) => Rule | undefined, lines: Candidate[]): MachineDecision[] {
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
