/**
 * /app/transactions: the books searched and filtered (dates, category, text, the amount's
 * size, what decided the line), a page at a time; and each line with its history: its
 * lineage (twins, supersessions, retraction), every decision made on it, why it has its
 * category, and the bank's own record. A side-A line is categorised or labelled there.
 */
import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import { isoDateSchema, multiLineText, paramInteger, singleLineText } from "../../endpoints/shared";
import { switchOn } from "../../env";
import { ApiError, settle } from "../../errors";
import { formOf } from "../../http/form-body";
import type { Explanation } from "../../ledger/books/explanation";
import type { DecisionEntry } from "../../ledger/books/history";
import { ENGINES, type FoundRow, type SearchFilter } from "../../ledger/books/search";
import type { Engine } from "../../ledger/books/explanation";
import { access, fromHtmx, type Workspace, type WorkspaceEnv } from "./access";
import { categoryChoices, type CategoryChoices } from "./categories";
import { AppPage, whoOf } from "./layout";
import { ErrorSummary, fieldErrors, filled, lineHref, money, Notice, Pager, percent, query, SelectField, TextField, when, type FieldErrors } from "./ui";

export const transactions = new Hono<WorkspaceEnv>();

export const TRANSACTIONS_PER_PAGE = 50;

export const ENGINE_WORDS: Record<Engine, string> = {
  human: "a person",
  rule: "a rule",
  model: "the local model",
  tail: "the external model",
  none: "nothing yet",
};

/** Dollars as people type them: whole or with cents, no sign (the size of money in or out). */
const dollars = z
  .string()
  .trim()
  .regex(/^[0-9]{1,12}(\.[0-9]{1,2})?$/, "an amount in dollars, such as 25 or 25.50")
  .transform((text) => Math.round(Number(text) * 100));

const searchQuery = z
  .object({
    q: singleLineText().max(200).optional(),
    from: isoDateSchema.optional(),
    to: isoDateSchema.optional(),
    cat: singleLineText().trim().max(100).optional(),
    min: dollars.optional(),
    max: dollars.optional(),
    engine: z.enum(ENGINES as [Engine, ...Engine[]]).optional(),
    page: paramInteger().default(1),
  })
  .superRefine((input, ctx) => {
    if (input.from && input.to && input.from > input.to) ctx.addIssue({ code: "custom", path: ["to"], message: "the last date comes before the first" });
    if (input.min !== undefined && input.max !== undefined && input.min > input.max) ctx.addIssue({ code: "custom", path: ["max"], message: "the largest amount is below the smallest" });
  });

const FILTER_LABELS: Record<string, string> = {
  q: "Description contains",
  from: "Posted from",
  to: "Posted to",
  cat: "Category",
  min: "Amount from",
  max: "Amount up to",
  engine: "Decided by",
  page: "Page",
};

transactions.get("/", access("read"), async (c) => {
  const ws = c.get("workspace");
  const typed = filled(c.req.query());
  const parsed = searchQuery.safeParse(typed);
  if (!parsed.success) return c.html(await SearchPage({ ws, typed, errors: fieldErrors(parsed.error) }), 400);
  const { page, q, from, to, cat, min, max, engine } = parsed.data;
  const filter: SearchFilter = { q, from, to, cat, minCents: min, maxCents: max, engine };
  return c.html(await SearchPage({ ws, typed, filter, page }));
});

async function SearchPage({ ws, typed, filter, page = 1, errors }: { ws: Workspace; typed: Record<string, string>; filter?: SearchFilter; page?: number; errors?: FieldErrors }) {
  const [queue, choices, found] = await Promise.all([
    ws.ledger.queueSize(ws.face),
    categoryChoices(ws),
    filter ? ws.ledger.searchTransactions(ws.face, filter, page, TRANSACTIONS_PER_PAGE) : null,
  ]);
  const results = found ? settle(found) : null;
  return (
    <AppPage title="Transactions" area="transactions" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={settle(queue)}>
      {errors ? <ErrorSummary errors={errors} labels={FILTER_LABELS} ids={Object.fromEntries(Object.keys(FILTER_LABELS).map((f) => [f, `f-${f}`]))} /> : null}
      <form method="get" action="/app/transactions" role="search" aria-label="Search the books">
        <div class="filters">
          <div class="field">
            <label for="f-q">Description contains</label>
            <input id="f-q" name="q" type="search" value={typed.q ?? ""} data-search aria-keyshortcuts="/" {...invalid(errors, "q")} />
          </div>
          <TextField id="f-from" name="from" label="Posted from" type="date" value={typed.from} errors={errors} />
          <TextField id="f-to" name="to" label="Posted to" type="date" value={typed.to} errors={errors} />
          <SelectField
            id="f-cat"
            name="cat"
            label="Category"
            value={typed.cat}
            errors={errors}
            options={[{ value: "", label: "Any" }, { value: "uncategorised", label: "Uncategorised (the queue)" }, ...choices.names.map((n) => ({ value: n, label: n }))]}
          />
          <TextField id="f-min" name="min" label="Amount from ($)" inputmode="decimal" value={typed.min} errors={errors} />
          <TextField id="f-max" name="max" label="Amount up to ($)" inputmode="decimal" value={typed.max} errors={errors} />
          <SelectField
            id="f-engine"
            name="engine"
            label="Decided by"
            value={typed.engine}
            errors={errors}
            options={[{ value: "", label: "Anything" }, ...ENGINES.map((e) => ({ value: e, label: ENGINE_WORDS[e] }))]}
          />
          <div class="field">
            <button type="submit">Search</button> <a href="/app/transactions">Clear</a>
          </div>
        </div>
        <p class="hint">Amounts are sizes: money in and money out alike. Press <kbd>/</kbd> to search.</p>
      </form>
      {results ? <Results results={results} page={page} typed={typed} /> : null}
    </AppPage>
  );
}

function invalid(errors: FieldErrors | undefined, name: string) {
  return errors?.[name] ? { "aria-invalid": "true", "aria-describedby": `f-${name}-error` } : {};
}

function Results({ results, page, typed }: { results: { rows: FoundRow[]; total: number; total_cents: number }; page: number; typed: Record<string, string> }) {
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">
        {results.total.toLocaleString("en-US")} {results.total === 1 ? "line" : "lines"}
      </h2>
      <p data-testid="results-summary">Booked total of the lines that match: {money(results.total_cents)}.</p>
      {results.rows.length === 0 ? (
        <p>No line matches.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="vh">The lines that match{results.total > TRANSACTIONS_PER_PAGE ? `, page ${page}` : ""}</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Line</th>
                <th scope="col" class="num">Amount</th>
                <th scope="col">Category</th>
                <th scope="col">Decided by</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {results.rows.map((r) => (
                <tr data-row>
                  <td class="date">{r.posted_on}</td>
                  <td>
                    <a href={lineHref(r.side, r.src_id)} data-row-focus>{r.description}</a>
                    <span class="muted"> {r.side}:{r.src_id}</span>
                  </td>
                  <td class="num">{money(r.amount_cents)}</td>
                  <td>{r.category}</td>
                  <td>{ENGINE_WORDS[r.engine]}</td>
                  <td>{r.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} perPage={TRANSACTIONS_PER_PAGE} total={results.total} href={(p) => `/app/transactions${query({ ...typed, page: p })}`} label="Pages of the lines" />
    </section>
  );
}

// --- one line ---

const lineParams = z.object({ side: z.enum(["A", "B"]), id: paramInteger() });

function lineOf(c: { req: { param: (name: string) => string | undefined } }) {
  const parsed = lineParams.safeParse({ side: c.req.param("side"), id: c.req.param("id") });
  if (!parsed.success) throw ApiError.notFound("Nothing is served at this address: a line's is /app/transactions/A/<id> or /app/transactions/B/<id>.");
  return parsed.data;
}

transactions.get("/:side/:id", access("read"), async (c) => {
  const ws = c.get("workspace");
  const { side, id } = lineOf(c);
  const decided = c.req.query("decided") === "1";
  return c.html(await LinePage({ ws, side, id, explained: switchOn(c.env.EXPLANATION_READ), notice: decided ? "decided" : undefined }));
});

transactions.get("/:side/:id/why", access("read"), async (c) => {
  const ws = c.get("workspace");
  const { side, id } = lineOf(c);
  if (!fromHtmx(c)) return c.redirect(lineHref(side, id, "#why"), 303);
  if (!switchOn(c.env.EXPLANATION_READ)) return c.html(<p>The explanation is switched off in this deployment.</p>, 404);
  const explanation = await ws.ledger.explanation(ws.face, side, id);
  if (!explanation.ok) return c.html(<p class="error">{explanation.refusal.words}</p>, 404);
  return c.html(<ExplanationWords explanation={explanation.value} />);
});

const lineDecision = z.object({
  category: singleLineText().trim().min(1, "name a category").max(100),
  action: z.enum(["categorise", "label"]),
  reason: multiLineText().max(500).optional(),
});

transactions.post("/:side/:id/decide", access("write"), async (c) => {
  const ws = c.get("workspace");
  const { side, id } = lineOf(c);
  const form = await formOf(c);
  const parsed = lineDecision.safeParse(form);
  const explained = switchOn(c.env.EXPLANATION_READ);
  if (!parsed.success) return c.html(await LinePage({ ws, side, id, explained, errors: fieldErrors(parsed.error), typed: filled(form) }), 400);
  const { category, action } = parsed.data;
  const reason = parsed.data.reason?.trim() || undefined;
  const outcome =
    action === "label"
      ? await ws.ledger.label(ws.face, side, id, { category, reason: reason ?? null }, ws.caller.actor)
      : await ws.ledger.categorize(ws.face, side, id, category, ws.caller.actor);
  if (!outcome.ok && outcome.refusal.kind === "refused") {
    return c.html(await LinePage({ ws, side, id, explained, refusal: outcome.refusal.words, typed: filled(form) }), 409);
  }
  settle(outcome);
  return c.redirect(`${lineHref(side, id)}?decided=1`, 303);
});

interface LinePageInput {
  ws: Workspace;
  side: "A" | "B";
  id: number;
  /** Whether the deployment serves the explanation (EXPLANATION_READ). */
  explained: boolean;
  notice?: "decided";
  refusal?: string;
  errors?: FieldErrors;
  typed?: Record<string, string>;
}

async function LinePage({ ws, side, id, explained, notice, refusal, errors, typed }: LinePageInput) {
  const [detail, explanation, history, queue, choices] = await Promise.all([
    ws.ledger.transaction(ws.face, side, id),
    explained ? ws.ledger.explanation(ws.face, side, id) : null,
    ws.ledger.lineHistory(ws.face, side, id),
    ws.ledger.queueSize(ws.face),
    categoryChoices(ws),
  ]);
  const { row, lineage, raw } = settle(detail);
  const { a_id: aId, decisions } = settle(history);
  return (
    <AppPage title={row.description} area="transactions" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={settle(queue)}>
      {errors ? <ErrorSummary errors={errors} labels={{ category: "Category", reason: "Reason", action: "Action" }} ids={{ category: "line-category", reason: "line-reason", action: "line-category" }} /> : null}
      {refusal ? <Notice tone="error">{refusal}</Notice> : null}
      {notice === "decided" ? (
        <Notice>
          The line is now <strong>{row.category}</strong>.{" "}
          {row.category !== "uncategorised" && side === "A" ? <a href={`/app/rules/new${query({ from: id, category: row.category })}`}>Make a rule from it</a> : null}
        </Notice>
      ) : null}
      <dl class="facts">
        <dt>Line</dt>
        <dd>{side}:{id}{side === "B" ? <> (the archived twin of <a href={lineHref("A", aId)}>A:{aId}</a>)</> : null}</dd>
        <dt>Posted</dt>
        <dd>{row.posted_on}</dd>
        <dt>Amount</dt>
        <dd>{money(row.amount_cents)} ({row.amount_cents < 0 ? "money out" : "money in"})</dd>
        <dt>Account</dt>
        <dd>{row.account_id}</dd>
        <dt>State</dt>
        <dd>{row.state}{row.exclude_reason ? `: ${row.exclude_reason}` : ""}</dd>
        <dt>Category</dt>
        <dd>{row.category}</dd>
      </dl>
      <section aria-labelledby="why">
        <h2 id="why" tabindex={-1}>Why it has this category</h2>
        {explanation === null ? <p>The explanation is switched off in this deployment.</p> : <ExplanationWords explanation={settle(explanation)} />}
      </section>
      {side !== "A" ? (
        <p>An archived twin takes no judgement: decide <a href={lineHref("A", aId)}>A:{aId}</a>.</p>
      ) : ws.writes ? (
        <DecideForm id={id} row={row.category} choices={choices} errors={errors} typed={typed} />
      ) : null}
      <section aria-labelledby="history">
        <h2 id="history">History</h2>
        <h3>The line</h3>
        <ul>{lineage.map((sentence) => <li>{sentence}</li>)}</ul>
        <h3>Decisions</h3>
        <Decisions decisions={decisions} />
      </section>
      {raw !== null ? (
        <section aria-labelledby="raw">
          <h2 id="raw">As the bank sent it</h2>
          <details>
            <summary>The bank's record</summary>
            <pre>{prettyJson(raw)}</pre>
          </details>
        </section>
      ) : null}
    </AppPage>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function DecideForm({ id, row, choices, errors, typed }: { id: number; row: string; choices: CategoryChoices; errors?: FieldErrors; typed?: Record<string, string> }) {
  return (
    <section aria-labelledby="decide">
      <h2 id="decide">Decide</h2>
      <form method="post" action={`/app/transactions/A/${id}/decide`}>
        <div class="field">
          <label for="line-category">Category</label>
          <span id="line-category-hint" class="hint">A category of yours, or a new name. "uncategorised" puts the line back in the queue.</span>
          {errors?.category ? <span id="line-category-error" class="field-error">{errors.category}</span> : null}
          <input
            id="line-category"
            name="category"
            list="category-names"
            value={typed?.category ?? (row === "uncategorised" ? "" : row)}
            aria-describedby={errors?.category ? "line-category-hint line-category-error" : "line-category-hint"}
            aria-invalid={errors?.category ? "true" : undefined}
            autocomplete="off"
          />
          <datalist id="category-names">
            {choices.names.map((n) => (
              <option value={n} />
            ))}
          </datalist>
        </div>
        <TextField id="line-reason" name="reason" label="Reason (kept with a label)" value={typed?.reason} errors={errors} maxlength={500} />
        <div class="actions">
          <button type="submit" name="action" value="categorise">Categorise</button>
          <button type="submit" name="action" value="label" class="quiet">Label (teaches the model)</button>
        </div>
      </form>
    </section>
  );
}

function Decisions({ decisions }: { decisions: DecisionEntry[] }) {
  if (decisions.length === 0) return <p>Nothing has decided this line.</p>;
  return (
    <table>
      <caption class="vh">Every decision made on the line, the oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Op</th>
          <th scope="col">When</th>
          <th scope="col">By</th>
          <th scope="col">Category</th>
          <th scope="col">Evidence</th>
        </tr>
      </thead>
      <tbody>
        {decisions.map((d) => (
          <tr>
            <td class="num">{d.op_seq}</td>
            <td>{when(d.decided_at)}</td>
            <td>{d.engine === "human" ? `${d.actor ?? "a person"}${d.op ? ` (${d.op})` : ""}` : ENGINE_WORDS[d.engine]}</td>
            <td>{d.category ?? "back to the queue"}</td>
            <td>
              {d.rule_key !== null ? (
                <a href={`/app/rules/revisions${query({ key: d.rule_key })}`}>
                  rule {d.rule_key}, revision {d.rule_revision}
                </a>
              ) : null}
              {d.model_version !== null ? `${d.engine === "tail" ? "external model" : "model"} ${d.model_version}${d.confidence !== null ? `, ${percent(d.confidence)} sure` : ""}` : null}
              {d.carried_from_a_id !== null ? <> carried from <a href={lineHref("A", d.carried_from_a_id)}>A:{d.carried_from_a_id}</a></> : null}
              {d.reason ? ` Reason: ${d.reason}` : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The explanation's sentence (or its reported gap) and what it cites. */
export function ExplanationWords({ explanation }: { explanation: Explanation }) {
  return (
    <div data-testid="explanation">
      <p>{explanation.sentence || explanation.defect}</p>
      {explanation.citations.length > 0 ? (
        <ul>
          {explanation.citations.map((c) => {
            switch (c.kind) {
              case "rule":
                return (
                  <li>
                    Rule <a href={`/app/rules/revisions${query({ key: c.rule_key })}`}>{c.rule_key}</a>, revision {c.revision}, decides {c.category}.
                  </li>
                );
              case "human":
                return <li>{c.person ? `${c.person.name} (${c.actor})` : c.actor} decided it{c.op ? ` (${c.op})` : ""} on {when(c.at)}.</li>;
              case "model":
                return <li>The local model {c.model_version}, {percent(c.confidence)} sure.</li>;
              case "duh_band":
                return <li>At or above the duh band's floor, {percent(c.floor)}, the model decides by itself.</li>;
              case "tail":
                return <li>The external model {c.model_version}.</li>;
              case "pocket":
                return <li>{c.category} is under the draw header: the line is on the owner's add-back list.</li>;
            }
          })}
        </ul>
      ) : null}
    </div>
  );
}
