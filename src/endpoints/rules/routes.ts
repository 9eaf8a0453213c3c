import { settle } from "../../errors";
import { defineEndpoint } from "../define";
import {
  createRuleResponse,
  createRulesBody,
  createRulesResponse,
  listRulesResponse,
  moveRuleResponse,
  retireRuleResponse,
  ruleInputSchema,
  ruleKeyBody,
  runRulesResponse,
} from "./schema";

export const listRules = defineEndpoint({
  operationId: "list_rules",
  method: "get",
  path: "/api/v1/rules",
  tag: "rules",
  summary: "List the rulebook",
  description:
    "The rulebook as it stands: the newest revision of every rule key, retired ones included, ordered by priority " +
    "descending (ties by key), so the bottom row is the one that decides first when two rules match. To add rules: " +
    "create_rule (POST /api/v1/create-rule) or create_rules (POST /api/v1/create-rules); a POST here is 405 naming them.",
  credential: "read",
  addedBy: ["create_rule", "create_rules"],
  success: { status: 200, description: "The rulebook.", schema: listRulesResponse },
  async handler({ ledger }) {
    return { rules: settle(await ledger.listRules()) };
  },
});

export const createRule = defineEndpoint({
  operationId: "create_rule",
  method: "post",
  path: "/api/v1/create-rule",
  tag: "rules",
  summary: "Create or revise a rule",
  description:
    "Appends a rule revision (a new key starts at revision 1; an existing key gets the next revision; earlier revisions " +
    "never change). Decides every undecided line it matches at once, and every future match as lines arrive. Rules never " +
    "override a human judgement.",
  credential: "write",
  body: ruleInputSchema,
  success: { status: 200, description: "The revision appended and the lines it decided.", schema: createRuleResponse },
  async handler({ ledger, face, body, caller }) {
    return settle(await ledger.createRule(face, body, caller.actor));
  },
});

export const createRules = defineEndpoint({
  operationId: "create_rules",
  method: "post",
  path: "/api/v1/create-rules",
  tag: "rules",
  summary: "Create rules in bulk",
  description:
    "Validates every row (at most 100) before writing anything, then appends them in order. Existing lines are decided " +
    "by the next run_rules; new lines from the feed are decided as they arrive.",
  credential: "write",
  body: createRulesBody,
  success: { status: 200, description: "The revisions appended.", schema: createRulesResponse },
  async handler({ ledger, body, caller }) {
    return { created: settle(await ledger.createRules(body.rules, caller.actor)) };
  },
});

export const runRules = defineEndpoint({
  operationId: "run_rules",
  idempotent: true,
  method: "post",
  path: "/api/v1/run-rules",
  tag: "rules",
  summary: "Run the rulebook",
  description:
    "Runs every live rule over the lines nobody has decided and returns how many it decided. Idempotent: a second run " +
    "decides 0. It decides in slices and other calls are answered meanwhile; a line judged, or a rule changed, while it " +
    "runs is respected by the slices after. Takes no body (or an empty object).",
  credential: "write",
  success: { status: 200, description: "How many lines were decided.", schema: runRulesResponse },
  async handler({ ledger, face }) {
    return { decided: settle(await ledger.runRules(face)) };
  },
});

export const moveRuleToEnd = defineEndpoint({
  operationId: "move_rule_to_end",
  idempotent: true,
  method: "post",
  path: "/api/v1/move-rule-to-end",
  tag: "rules",
  summary: "Make a rule decide first",
  description:
    "Appends a revision whose priority is below every other live rule's, so the rule lands at the end of list_rules and " +
    "decides first. A rule that already decides first appends nothing (`moved: false`). Lines already decided keep their " +
    "categories until the next run_rules. 409 for a retired rule.",
  credential: "write",
  body: ruleKeyBody,
  success: { status: 200, description: "The rule as it now stands.", schema: moveRuleResponse },
  errors: { not_found: "No rule has that key.", ledger_refusal: "The rule is retired." },
  async handler({ ledger, body, caller }) {
    const outcome = settle(await ledger.moveRuleToEnd(body.rule_key, caller.actor));
    return { rule: outcome.rule, moved: outcome.moved };
  },
});

export const retireRule = defineEndpoint({
  operationId: "retire_rule",
  method: "post",
  path: "/api/v1/retire-rule",
  tag: "rules",
  summary: "Retire a rule",
  description:
    "Appends a revision with `retired: true`. The rule stays listed and decides nothing more; lines it decided keep their " +
    "categories. Retiring a retired rule appends nothing. A new create_rule with the key revives it.",
  credential: "write",
  body: ruleKeyBody,
  success: { status: 200, description: "The retired rule.", schema: retireRuleResponse },
  errors: { not_found: "No rule has that key." },
  async handler({ ledger, body, caller }) {
    const rule = settle(await ledger.retireRule(body.rule_key, caller.actor));
    return { rule };
  },
});
