/**
 * /app/rules: the rulebook as it stands, each rule's revisions, retiring a rule and moving
 * one to the end (where it decides first), and the rule form: pre-filled from a line, tried
 * against the books before it is saved (the undecided lines it would decide, and which
 * rule takes each), then saved as create_rule saves it.
 */
import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import { ruleInputSchema } from "../../endpoints/rules/schema";
import { paramInteger, singleLineText } from "../../endpoints/shared";
import { ApiError, settle } from "../../errors";
import { formOf } from "../../http/form-body";
import type { DryRun } from "../../ledger/rules/dry-run";
import { matchProblem, MATCH_KINDS, type MatchKind, type Rule, type RuleInput } from "../../ledger/rules/rule";
import { access, fromHtmx, readQuery, type Workspace, type WorkspaceEnv } from "./access";
import { categoryChoices } from "./categories";
import { AppPage, whoOf } from "./layout";
import { ErrorSummary, fieldErrors, filled, lineHref, money, Notice, query, SelectField, TextField, when, type FieldErrors } from "./ui";

export const rules = new Hono<WorkspaceEnv>();

const KIND_WORDS: Record<MatchKind, string> = {
  description_regex: "A pattern found in the description (RE2)",
  description_exact: "The whole description, exactly",
  amount_sign: "Money in or money out",
};

/** Where a saved rule sends the browser back to. */
const RETURNS = { rules: "/app/rules", review: "/app/review" } as const;
type Return = keyof typeof RETURNS;

const RULE_LABELS: Record<string, string> = {
  rule_key: "Name",
  match_kind: "Matches",
  match_value: "Match value",
  category: "Category",
  priority: "Priority",
};
const RULE_IDS: Record<string, string> = Object.fromEntries(Object.keys(RULE_LABELS).map((f) => [f, `rule-${f}`]));

/** The rule form's fields as create_rule reads them: the priority typed as digits is a number. */
function ruleFromForm(fields: Record<string, string>) {
  const { priority, ...rest } = fields;
  return ruleInputSchema.safeParse({ ...rest, ...(priority === undefined ? {} : { priority: /^-?[0-9]{1,10}$/.test(priority.trim()) ? Number(priority) : priority }) });
}

const listQuery = z.object({
  saved: singleLineText().max(100).optional(),
  decided: paramInteger().optional(),
  retired: singleLineText().max(100).optional(),
  moved: singleLineText().max(100).optional(),
  first: singleLineText().max(100).optional(),
});

rules.get("/", access("read"), async (c) => {
  const ws = c.get("workspace");
  const notice = readQuery(c, listQuery);
  const [book, queue] = await Promise.all([ws.ledger.listRules(), ws.ledger.queueSize(ws.face)]);
  const rulebook = settle(book);
  return c.html(
    <AppPage title="Rules" area="rules" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={settle(queue)}>
      {notice.saved ? (
        <Notice>
          Rule <strong>{notice.saved}</strong> is saved{notice.decided !== undefined ? `; it decided ${notice.decided.toLocaleString("en-US")} ${notice.decided === 1 ? "line" : "lines"} of the queue` : ""}.
        </Notice>
      ) : null}
      {notice.retired ? <Notice>Rule <strong>{notice.retired}</strong> is retired: it decides nothing more, and the lines it decided keep their categories.</Notice> : null}
      {notice.moved ? <Notice>Rule <strong>{notice.moved}</strong> is moved to the end: it now decides first. Lines already decided stay as they are until rules run again.</Notice> : null}
      {notice.first ? <Notice>Rule <strong>{notice.first}</strong> already decides first; nothing was appended.</Notice> : null}
      <p>
        Listed as the API lists them, by priority: when two live rules match a line, the one lower in the list decides it. A
        retired rule stays listed and decides nothing. {ws.writes ? <><a href="/app/rules/new">Make a new rule</a> ·{" "}</> : null}
        <a href="/docs/patterns">How patterns are written</a>
      </p>
      {rulebook.length === 0 ? (
        <p>The rulebook is empty.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="vh">The rulebook, the rule that decides first at the bottom</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Matches</th>
                <th scope="col">Category</th>
                <th scope="col" class="num">Priority</th>
                <th scope="col" class="num">Revision</th>
                <th scope="col">State</th>
                {ws.writes ? <th scope="col">Change</th> : null}
              </tr>
            </thead>
            <tbody>
              {rulebook.map((r) => (
                <RuleRow rule={r} writes={ws.writes} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AppPage>,
  );
});

/** A rule of the rulebook, and for whom may change the books, the forms that move it to the end or retire it. */
function RuleRow({ rule, writes }: { rule: Rule; writes: boolean }) {
  return (
    <tr data-row>
      <th scope="row">
        <a href={`/app/rules/revisions${query({ key: rule.rule_key })}`} data-row-focus>{rule.rule_key}</a>
      </th>
      <td>
        {KIND_WORDS[rule.match_kind]}: <code>{rule.match_value}</code>
      </td>
      <td>{rule.category}</td>
      <td class="num">{rule.priority}</td>
      <td class="num">{rule.revision}</td>
      <td>{rule.retired ? "retired" : rule.pattern_problem ? <span class="error">decides nothing: {rule.pattern_problem}</span> : "live"}</td>
      {writes ? <RuleChanges rule={rule} /> : null}
    </tr>
  );
}

/** The forms that change a live rule: move it to the end, retire it. */
function RuleChanges({ rule }: { rule: Rule }) {
  return (
    <td>
      {rule.retired ? null : (
        <div class="actions">
          <form method="post" action="/app/rules/move-to-end" class="inline">
            <input type="hidden" name="rule_key" value={rule.rule_key} />
            <button type="submit" class="quiet" aria-label={`Move to end: ${rule.rule_key}`}>Move to end</button>
          </form>
          <form method="post" action="/app/rules/retire" class="inline">
            <input type="hidden" name="rule_key" value={rule.rule_key} />
            <button type="submit" class="quiet" aria-label={`Retire ${rule.rule_key}`}>Retire</button>
          </form>
        </div>
      )}
    </td>
  );
}

rules.get("/revisions", access("read"), async (c) => {
  const ws = c.get("workspace");
  const { key } = readQuery(c, z.object({ key: singleLineText().min(1).max(100) }));
  const [revisions, queue] = await Promise.all([ws.ledger.ruleRevisions(key), ws.ledger.queueSize(ws.face)]);
  const all = settle(revisions);
  return c.html(
    <AppPage title={`Rule ${key}`} area="rules" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={settle(queue)}>
      <p>
        Every revision of the rule, the newest first: the newest is the rule as it stands. <a href="/app/rules">The rulebook</a>
      </p>
      <table>
        <caption class="vh">The revisions of {key}</caption>
        <thead>
          <tr>
            <th scope="col" class="num">Revision</th>
            <th scope="col">Matches</th>
            <th scope="col">Category</th>
            <th scope="col" class="num">Priority</th>
            <th scope="col">State</th>
            <th scope="col">By</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {all.map((r) => (
            <tr>
              <td class="num">{r.revision}</td>
              <td>
                {KIND_WORDS[r.match_kind]}: <code>{r.match_value}</code>
              </td>
              <td>{r.category}</td>
              <td class="num">{r.priority}</td>
              <td>
                {r.retired ? "retired" : "live"}
                {r.born_from_a_id !== null ? <> · made from <a href={lineHref("A", r.born_from_a_id)}>A:{r.born_from_a_id}</a></> : null}
              </td>
              <td>{r.actor}</td>
              <td>{when(r.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {ws.writes && all[0] && !all[0].retired ? (
        <p>
          <a href={`/app/rules/new${query({ rule_key: all[0].rule_key, match_kind: all[0].match_kind, match_value: all[0].match_value, category: all[0].category, priority: all[0].priority })}`}>
            Revise this rule
          </a>
        </p>
      ) : null}
    </AppPage>,
  );
});

const newRuleQuery = z.object({
  from: paramInteger().optional(),
  return: z.enum(["rules", "review"]).optional(),
});

rules.get("/new", access("read"), async (c) => {
  const ws = c.get("workspace");
  const typed = filled(c.req.query());
  const parsed = newRuleQuery.passthrough().safeParse(typed);
  if (!parsed.success) throw ApiError.validation("query", parsed.error);
  const { from, return: back } = parsed.data;
  let fields = typed;
  if (from !== undefined && typed.match_kind === undefined) {
    const proposed = settle(await ws.ledger.proposeRule(ws.face, from, typed.category ?? ""));
    fields = { ...typed, ...textFields(proposed) };
  }
  return c.html(await RuleFormPage({ ws, fields, back: back ?? (from !== undefined ? "review" : "rules"), from }));
});

rules.get("/test", access("read"), async (c) => {
  const ws = c.get("workspace");
  const fields = filled(c.req.query());
  if (!fromHtmx(c)) return c.redirect(`/app/rules/new${query(fields)}`, 303);
  return c.html(await DryRunSection({ ws, fields }));
});

rules.post("/", access("write"), async (c) => {
  const ws = c.get("workspace");
  const fields = filled(await formOf(c));
  const back: Return = fields.return === "review" ? "review" : "rules";
  const from = fields.from !== undefined && /^[0-9]{1,15}$/.test(fields.from) ? Number(fields.from) : undefined;
  const parsed = ruleFromForm(pick(fields, Object.keys(RULE_LABELS)));
  if (!parsed.success) return c.html(await RuleFormPage({ ws, fields, back, from, errors: fieldErrors(parsed.error) }), 400);
  const { rule, decided } = settle(await ws.ledger.createRule(ws.face, parsed.data, ws.caller.actor));
  if (back === "review") return c.redirect(`/app/review${query({ rule: rule.rule_key, ruled: decided })}`, 303);
  return c.redirect(`/app/rules${query({ saved: rule.rule_key, decided })}`, 303);
});

const ruleKeyForm = z.object({ rule_key: singleLineText().min(1).max(100) });

rules.post("/retire", access("write"), async (c) => {
  const ws = c.get("workspace");
  const parsed = ruleKeyForm.safeParse(await formOf(c));
  if (!parsed.success) throw ApiError.validation("body", parsed.error);
  const retired = settle(await ws.ledger.retireRule(parsed.data.rule_key, ws.caller.actor));
  return c.redirect(`/app/rules${query({ retired: retired.rule_key })}`, 303);
});

rules.post("/move-to-end", access("write"), async (c) => {
  const ws = c.get("workspace");
  const parsed = ruleKeyForm.safeParse(await formOf(c));
  if (!parsed.success) throw ApiError.validation("body", parsed.error);
  const { moved, rule } = settle(await ws.ledger.moveRuleToEnd(parsed.data.rule_key, ws.caller.actor));
  return c.redirect(`/app/rules${query(moved ? { moved: rule.rule_key } : { first: rule.rule_key })}`, 303);
});

function textFields(input: RuleInput): Record<string, string> {
  return {
    rule_key: input.rule_key,
    match_kind: input.match_kind,
    match_value: input.match_value,
    ...(input.category ? { category: input.category } : {}),
    ...(input.priority !== undefined ? { priority: String(input.priority) } : {}),
  };
}

function pick(fields: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((n) => (fields[n] === undefined ? [] : [[n, fields[n]]])));
}

interface RuleFormInput {
  ws: Workspace;
  fields: Record<string, string>;
  back: Return;
  from?: number;
  errors?: FieldErrors;
}

async function RuleFormPage({ ws, fields, back, from, errors }: RuleFormInput) {
  const [queue, choices, book] = await Promise.all([ws.ledger.queueSize(ws.face), categoryChoices(ws), ws.ledger.listRules()]);
  const existing = settle(book).find((r) => r.rule_key === fields.rule_key?.trim());
  if (!ws.writes) {
    return (
      <AppPage title="A rule" area="rules" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={settle(queue)}>
        <p data-testid="no-rule-form">Rules are made by the owner and the bookkeepers: there is no rule to make here. <a href="/app/rules">The rulebook</a></p>
      </AppPage>
    );
  }
  return (
    <AppPage title="A rule" area="rules" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={settle(queue)}>
      {errors ? <ErrorSummary errors={errors} labels={RULE_LABELS} ids={RULE_IDS} /> : null}
      <p>
        A rule decides every line in the queue it matches when it is saved, and every matching line that arrives later. Lines
        already decided keep their categories. {from !== undefined ? <>Proposed from <a href={lineHref("A", from)}>A:{from}</a>; change anything before saving.</> : null}
      </p>
      {existing ? (
        <Notice>
          A rule named <strong>{existing.rule_key}</strong> stands at revision {existing.revision}
          {existing.retired ? " (retired)" : ""}: saving appends revision {existing.revision + 1} in its place.
        </Notice>
      ) : null}
      <form method="post" action="/app/rules" id="rule-form">
        <input type="hidden" name="return" value={back} />
        {from !== undefined ? <input type="hidden" name="from" value={String(from)} /> : null}
        <TextField id="rule-rule_key" name="rule_key" label="Name" value={fields.rule_key} errors={errors} maxlength={100} hint="Your name for the rule; an existing name gets a new revision." />
        <SelectField
          id="rule-match_kind"
          name="match_kind"
          label="Matches"
          value={fields.match_kind ?? "description_regex"}
          errors={errors}
          options={MATCH_KINDS.map((k) => ({ value: k, label: KIND_WORDS[k] }))}
        />
        <TextField
          id="rule-match_value"
          name="match_value"
          label="Match value"
          value={fields.match_value}
          errors={errors}
          maxlength={500}
          hint={'A pattern (RE2, any case: GUSTO.*PAYROLL), the whole description, or "in" or "out".'}
        />
        <div class="field">
          <label for="rule-category">Category</label>
          {errors?.category ? <span id="rule-category-error" class="field-error">{errors.category}</span> : null}
          <input
            id="rule-category"
            name="category"
            list="rule-category-names"
            value={fields.category ?? ""}
            autocomplete="off"
            aria-invalid={errors?.category ? "true" : undefined}
            aria-describedby={errors?.category ? "rule-category-error" : undefined}
          />
          <datalist id="rule-category-names">
            {choices.names.map((n) => (
              <option value={n} />
            ))}
          </datalist>
        </div>
        <TextField id="rule-priority" name="priority" label="Priority" inputmode="numeric" value={fields.priority ?? "100"} errors={errors} hint="Lower decides first; ties by name." />
        <div class="actions">
          <button type="submit" formmethod="get" formaction="/app/rules/new" class="quiet" hx-get="/app/rules/test" hx-include="#rule-form" hx-target="#dry-run" hx-swap="outerHTML">
            Test against the books
          </button>
          <button type="submit">Save the rule</button>
        </div>
      </form>
      {await DryRunSection({ ws, fields })}
    </AppPage>
  );
}

/** What the rule would do if saved now; nothing until its match can be read. */
async function DryRunSection({ ws, fields }: { ws: Workspace; fields: Record<string, string> }) {
  const kind = MATCH_KINDS.find((k) => k === fields.match_kind);
  const value = fields.match_value;
  const problem = kind && value !== undefined ? matchProblem(kind, value) : "give the rule what it matches";
  let result: DryRun | null = null;
  if (kind && value !== undefined && problem === null) {
    const input: RuleInput = { rule_key: fields.rule_key?.trim() || "(new rule)", match_kind: kind, match_value: value, category: fields.category?.trim() || "(its category)" };
    result = settle(await ws.ledger.dryRunRule(ws.face, input));
  }
  return (
    <section id="dry-run" aria-labelledby="dry-run-title" aria-live="polite">
      <h2 id="dry-run-title">Against the books now</h2>
      {result === null ? (
        <p data-testid="dry-run">Nothing to test yet: {problem}.</p>
      ) : (
        <DryRunWords result={result} />
      )}
    </section>
  );
}

function DryRunWords({ result }: { result: DryRun }) {
  return (
    <>
      <p data-testid="dry-run">
        {result.matches === 0
          ? "It matches no line waiting in the queue now; saved, it decides the matching lines that arrive later."
          : `Saved now, it would decide ${result.matches.toLocaleString("en-US")} ${result.matches === 1 ? "line" : "lines"} waiting in the queue` +
            (result.decided_by_others.length === 0 ? "." : `: ${result.decided_by_it.toLocaleString("en-US")} by itself, the rest by rules that decide first.`)}
      </p>
      {result.decided_by_others.length > 0 ? (
        <ul>
          {result.decided_by_others.map((o) => (
            <li>
              {o.lines.toLocaleString("en-US")} by <a href={`/app/rules/revisions${query({ key: o.rule_key })}`}>{o.rule_key}</a> ({o.category})
            </li>
          ))}
        </ul>
      ) : null}
      {result.sample.length > 0 ? (
        <table>
          <caption>{result.sample.length < result.matches ? `The first ${result.sample.length} of them` : "The lines"}</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Line</th>
              <th scope="col" class="num">Amount</th>
            </tr>
          </thead>
          <tbody>
            {result.sample.map((r) => (
              <tr>
                <td class="date">{r.posted_on}</td>
                <td>
                  <a href={lineHref(r.side, r.src_id)}>{r.description}</a>
                </td>
                <td class="num">{money(r.amount_cents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
