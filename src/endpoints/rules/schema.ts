import { z } from "@hono/zod-openapi";
import { DEFAULT_PRIORITY, MATCH_KINDS, ruleProblems, type MatchKind } from "../../ledger/rules/rule";
import { MAX_MATCHED_LENGTH, MAX_PATTERN_LENGTH } from "../../ledger/rules/pattern";
import { singleLineText } from "../shared";

export const BULK_CAP = 100;

const matchKindSchema = z.enum(MATCH_KINDS as [MatchKind, ...MatchKind[]]).openapi({
  description:
    "`description_exact`: the whole description, case-insensitive, trimmed, inner spaces folded; `description_regex`: an " +
    "RE2 pattern found anywhere in the description, case-insensitively (see `match_value`); `amount_sign`: `in` (money in) " +
    "or `out` (money out).",
  example: "description_regex",
});

/** The pattern syntax as users read it in the API description; docs/patterns.md (served at /docs/patterns) is the full reference. */
const PATTERN_SYNTAX =
  `For \`description_regex\`, a pattern in RE2 syntax (at most ${MAX_PATTERN_LENGTH} characters), matched anywhere in the ` +
  `description's first ${MAX_MATCHED_LENGTH.toLocaleString("en-US")} characters, case-insensitively (Unicode simple case ` +
  "folding), in time linear in the text: literal text (escape `\\ . * + ? ( ) [ ] { } | ^ $` with a backslash, or quote a " +
  "stretch as `\\Q...\\E`), `.` (any character but a newline), classes (`[A-Z0-9]`, `[^,]`, `[[:digit:]]`, `\\d`, `\\w`, " +
  "`\\s`, `\\pL`, `\\p{Greek}`), anchors (`^`, `$`, `\\A`, `\\z`, `\\b`, `\\B`), groups (`(...)`, `(?:...)`, " +
  "`(?P<name>...)`, `(?<name>...)`), alternation (`|`), repetition (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, counts up to 1,000, " +
  "each lazy with a `?` after it), code points (`\\x41`, `\\x{20AC}`) and flags (`(?i)`, `(?-i:...)`, `(?s)`, `(?m)`, `(?U)`). " +
  "RE2 has no backreferences (`\\1`, `\\k<name>`), lookahead (`(?=`, `(?!`), lookbehind (`(?<=`, `(?<!`), possessive " +
  "quantifiers or atomic groups (`a++`, `(?>...)`), nor `\\u` escapes: such a pattern, or a malformed one, is a 400 on " +
  "`match_value` naming the construct. Examples: `GUSTO.*PAYROLL`, `^SQ \\*`, `AMZN MKTP US\\*\\w+`, " +
  "`(UBER|LYFT) (TRIP|RIDE)`, `CHECK #?\\d{4}`. The full reference: `/docs/patterns` on this service.";

const ruleFields = {
  rule_key: singleLineText().trim().min(1).max(100).openapi({ description: "Your name for the rule; an existing key gets a new revision.", example: "coffee-shops" }),
  match_kind: matchKindSchema,
  match_value: singleLineText().max(500).openapi({ description: `What to match, read by \`match_kind\`. ${PATTERN_SYNTAX}`, example: "^(SQ \\*)?BLUE BOTTLE" }),
  category: singleLineText().trim().min(1).max(100).openapi({ description: "The category the rule decides.", example: "Meals" }),
  priority: z
    .number()
    .int()
    .min(-1_000_000_000)
    .max(1_000_000_000)
    .optional()
    .openapi({ description: `Lower decides first; ties by key. Default ${DEFAULT_PRIORITY}.`, example: DEFAULT_PRIORITY }),
};

/** Adds every problem the rulebook would refuse (bad pattern, queue category) as a field issue. */
function withRuleChecks<T extends z.ZodObject<typeof ruleFields>>(schema: T) {
  return schema.superRefine((input, ctx) => {
    for (const problem of ruleProblems(input)) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
  });
}

export const ruleInputSchema = withRuleChecks(z.object(ruleFields)).openapi("RuleInput");

export const ruleSchema = z
  .object({
    rule_key: z.string().openapi({ description: "The caller's name for the rule.", example: "coffee-shops" }),
    revision: z.number().int().openapi({ description: "1 for the first revision of a key; each change appends the next.", example: 2 }),
    match_kind: matchKindSchema,
    match_value: z.string().openapi({ description: "What it matches, read by `match_kind`.", example: "^(SQ \\*)?BLUE BOTTLE" }),
    category: z.string().openapi({ description: "The category it decides.", example: "Meals" }),
    priority: z.number().int().openapi({ description: "Lower decides first.", example: 100 }),
    retired: z.boolean().openapi({ description: "True on a retiring revision: listed, decides nothing.", example: false }),
    born_from_a_id: z.number().int().nullable().openapi({ description: "The exception an adjudication minted this rule from; null otherwise.", example: null }),
    pattern_problem: z.string().nullable().openapi({
      description:
        "Null for a rule that can decide. Otherwise why this rule decides nothing though it is live: its pattern was accepted " +
        "under the earlier JavaScript syntax and RE2 cannot read it (a lookahead, a backreference). Revise it with create_rule " +
        "under the same key, or retire it.",
      example: null,
    }),
    created_at: z.string().openapi({ description: "When this revision was appended.", example: "2026-11-22T15:04:05.000Z" }),
  })
  .openapi("Rule");

export const listRulesResponse = z
  .object({
    rules: z.array(ruleSchema).openapi({
      description: "The newest revision of every key, retired ones included, by priority descending (ties by key): the bottom row decides first.",
    }),
  })
  .openapi("Rulebook");

export const createRuleResponse = z
  .object({
    rule: ruleSchema,
    decided: z.number().int().openapi({ description: "Undecided lines this rule decided at once.", example: 3 }),
  })
  .openapi("CreatedRule");

export const createRulesBody = z.object({
  rules: z.array(ruleInputSchema).min(1).max(BULK_CAP).openapi({ description: `1 to ${BULK_CAP} rules, appended in order.` }),
});

export const createRulesResponse = z
  .object({ created: z.array(ruleSchema).openapi({ description: "The revisions appended, in order." }) })
  .openapi("CreatedRules");

export const runRulesResponse = z
  .object({ decided: z.number().int().openapi({ description: "Lines decided by this run; a second run decides 0.", example: 12 }) })
  .openapi("RulesRun");

export const ruleKeyBody = z.object({
  rule_key: singleLineText().trim().min(1).max(100).openapi({ description: "A key as list_rules shows it.", example: "coffee-shops" }),
});

export const moveRuleResponse = z
  .object({
    rule: ruleSchema,
    moved: z.boolean().openapi({ description: "False when the rule already decided first: nothing was appended.", example: true }),
  })
  .openapi("MovedRule");

export const retireRuleResponse = z.object({ rule: ruleSchema }).openapi("RetiredRule");
