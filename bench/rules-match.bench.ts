/**
 * `npm run bench:rules`: the compiled rulebook alone, in Node (the same V8 as workerd, none
 * of the object's reading or writing): the benchmark's 200 rules (bench/bench-tenants.ts)
 * over 100,000 generated lines, as run_rules decides them. Prints how the rules split by
 * kind and how the patterns are matched (plain text in the automaton, a prefilter before
 * RE2, RE2 on every line), the time to read the patterns (once per isolate) and to compile
 * the rulebook from them, and the time to decide every line, best of a few rounds.
 * Figures only.
 *
 *   npm run bench:rules            LINES=20000 ROUNDS=5 npm run bench:rules
 */
import { readPattern } from "../src/ledger/rules/pattern";
import { compileRulebook } from "../src/ledger/rules/matching";
import { type Rule } from "../src/ledger/rules/rule";
import { benchRules } from "./bench-tenants";
import { generateLines } from "./generator";

const LINES = Number(process.env.LINES ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const rules: Rule[] = benchRules(200, 7).map((r, i) => ({
  ...r,
  match_kind: r.match_kind as Rule["match_kind"],
  revision: 1,
  retired: false,
  born_from_a_id: null,
  actor: "human:bench",
  created_at: new Date(0).toISOString(),
  pattern_problem: null,
  rule_key: r.rule_key ?? `r${i}`,
}));

let started = performance.now();
for (const rule of rules) if (rule.match_kind === "description_regex") readPattern(rule.match_value);
const readMs = performance.now() - started;

const kinds = new Map<string, number>();
const count = (kind: string) => kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
for (const rule of rules) {
  if (rule.match_kind !== "description_regex") count(rule.match_kind);
  else {
    const { pattern, problem } = readPattern(rule.match_value);
    count(problem ? "description_regex: refused" : pattern!.texts !== null ? "description_regex: plain text (the automaton)" : pattern!.prefilter !== null ? "description_regex: prefilter, then RE2" : "description_regex: RE2 on every line");
  }
}
console.log(`${rules.length} rules:`);
for (const [kind, n] of [...kinds].sort()) console.log(`  ${String(n).padStart(3)}  ${kind}`);
const regexes = rules.filter((r) => r.match_kind === "description_regex").map((r) => r.match_value);
console.log(`  e.g. ${regexes.filter((p) => readPattern(p).pattern?.texts === null).slice(0, 8).join("   ")}`);

const lines = generateLines(LINES, 42).map((l) => ({ aId: l.id, description: l.description, amountCents: l.amountCents }));
started = performance.now();
let decide = compileRulebook(rules);
console.log(`read its patterns (RE2 compilations, once per isolate): ${readMs.toFixed(1)} ms; compile the rulebook from them: ${(performance.now() - started).toFixed(1)} ms`);

let best = Infinity;
let decided = 0;
for (let round = 0; round < ROUNDS; round++) {
  decide = compileRulebook(rules);
  started = performance.now();
  decided = 0;
  for (const line of lines) if (decide(line)) decided++;
  best = Math.min(best, performance.now() - started);
}
const byRegex = lines.filter((l) => decide(l)?.match_kind === "description_regex").length;
console.log(`decide ${LINES.toLocaleString("en-US")} lines: ${best.toFixed(1)} ms (best of ${ROUNDS}); ${decided.toLocaleString("en-US")} decided, ${byRegex.toLocaleString("en-US")} by a pattern`);
