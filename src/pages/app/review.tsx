/**
 * /app/review: the exceptions queue, the longest-waiting first, each line with the local
 * model's suggestion and how sure it is, and why it waits one click away. A line is
 * categorised or labelled (a label also teaches the model) from its row, with one key or
 * with the row's own form; a decision becomes a rule through the pre-filled rule form;
 * selected lines are decided together. Without JavaScript every action is a form posted
 * and answered with a redirect back to the queue; with it, the row is replaced in place.
 */
import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import { ApiError, settle } from "../../errors";
import { formListsOf, formOf } from "../../http/form-body";
import type { Row } from "../../ledger/books/reads";
import type { ReviewLine } from "../../ledger/books/review";
import type { HeldBelow, Suggestion } from "../../ledger/model/suggestions";
import { paramInteger, singleLineText, multiLineText } from "../../endpoints/shared";
import { access, fromHtmx, readQuery, type Workspace, type WorkspaceEnv } from "./access";
import { categoryChoices, type CategoryChoices } from "./categories";
import { AppPage, QueueCount, whoOf } from "./layout";
import { ErrorSummary, fieldErrors, lineHref, money, Notice, Pager, percent, query, type FieldErrors } from "./ui";

export const review = new Hono<WorkspaceEnv>();

export const REVIEW_PER_PAGE = 50;
/** The most lines one bulk action decides: a page of the queue and then some. */
export const BULK_LINES = 100;
/** The most decided lines a redirect names back to the queue. */
const SHOWN_DECIDED = 20;

type Action = "categorise" | "label";

const decision = z.object({
  line: paramInteger(),
  category: singleLineText().trim().min(1, "choose a category").max(100),
  action: z.enum(["categorise", "label"]),
  reason: multiLineText().max(500).optional(),
  page: paramInteger().optional(),
});

const bulkDecision = z
  .object({
    lines: z.array(paramInteger()).min(1, "select at least one line").max(BULK_LINES, `select at most ${BULK_LINES} lines`),
    category: singleLineText().trim().max(100).optional(),
    action: z.enum(["categorise", "label", "accept"]),
    page: paramInteger().optional(),
  })
  .superRefine((input, ctx) => {
    if (input.action !== "accept" && !input.category) ctx.addIssue({ code: "custom", path: ["category"], message: "choose a category for the selected lines" });
  });

const reviewQuery = z.object({
  page: paramInteger().default(1),
  decided: z
    .string()
    .regex(/^[0-9]{1,15}(,[0-9]{1,15}){0,99}$/, "a comma-separated list of line ids")
    .transform((ids) => ids.split(",").map(Number).slice(0, SHOWN_DECIDED))
    .optional(),
  /** A rule just saved from the review, and how many lines it decided. */
  rule: singleLineText().max(100).optional(),
  ruled: paramInteger().optional(),
});

/** Judges one side-A line as a person: categorise, or label (which also teaches the model). */
async function judge(ws: Workspace, aId: number, category: string, action: Action, reason?: string) {
  const outcome =
    action === "label"
      ? await ws.ledger.label(ws.face, "A", aId, { category, reason: reason ?? null }, ws.caller.actor)
      : await ws.ledger.categorize(ws.face, "A", aId, category, ws.caller.actor);
  return outcome;
}

review.get("/", access("read"), async (c) => {
  const ws = c.get("workspace");
  const { page, decided, rule, ruled } = readQuery(c, reviewQuery);
  return c.html(await ReviewPage({ ws, page, decided: decided ?? [], rule: rule === undefined ? undefined : { key: rule, decided: ruled ?? 0 } }));
});

review.post("/decide", access("write"), async (c) => {
  const ws = c.get("workspace");
  const form = await formOf(c);
  const parsed = decision.safeParse(form);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const line = Number(form.line);
    if (errors.line || errors.action || !Number.isSafeInteger(line)) throw ApiError.validation("body", parsed.error);
    if (fromHtmx(c)) return c.html(await lineFragment(ws, line, errors), 400);
    const page = Number(form.page ?? 1);
    return c.html(await ReviewPage({ ws, page: Number.isSafeInteger(page) && page > 0 ? page : 1, decided: [], lineErrors: { line, errors } }), 400);
  }
  const { line, category, action, reason, page } = parsed.data;
  const outcome = await judge(ws, line, category, action, reason);
  if (fromHtmx(c)) {
    if (!outcome.ok) return c.html(await lineFragment(ws, line, { form: outcome.refusal.words }), outcome.refusal.kind === "not_found" ? 404 : 409);
    const queue = settle(await ws.ledger.queueSize(ws.face));
    return c.html(
      <>
        <DecidedRow row={outcome.value.row} action={action} />
        <QueueCount queue={queue} oob />
        <div id="announce" hx-swap-oob="true">
          {outcome.value.row.description} is now {outcome.value.row.category}. {queue.toLocaleString("en-US")} lines wait in the queue.
        </div>
      </>,
    );
  }
  settle(outcome);
  return c.redirect(`/app/review${query({ page: page === 1 ? undefined : page, decided: line })}`, 303);
});

review.post("/bulk", access("write"), async (c) => {
  const ws = c.get("workspace");
  const form = await formListsOf(c);
  const text = (name: string) => (typeof form[name]?.[0] === "string" && form[name][0] !== "" ? (form[name][0] as string) : undefined);
  const parsed = bulkDecision.safeParse({ lines: (form.line ?? []).filter((v) => typeof v === "string"), category: text("category"), action: text("action"), page: text("page") });
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return c.html(await ReviewPage({ ws, page: Number(text("page") ?? 1) || 1, decided: [], bulkErrors: errors }), 400);
  }
  const { lines, category, action, page } = parsed.data;
  const suggested = action === "accept" ? new Map<number, Suggestion>(settle(await ws.ledger.suggestions(ws.face, lines)).map((s) => [s.a_id, s])) : null;
  const decided: number[] = [];
  const refusals: string[] = [];
  for (const line of lines) {
    const chosen = suggested ? suggested.get(line)?.category : category!;
    if (chosen === undefined) {
      refusals.push(`A:${line} has no suggestion to accept; choose its category.`);
      continue;
    }
    const outcome = await judge(ws, line, chosen, action === "label" ? "label" : "categorise");
    if (outcome.ok) decided.push(line);
    else refusals.push(outcome.refusal.words);
  }
  if (refusals.length > 0) return c.html(await ReviewPage({ ws, page: page ?? 1, decided, refusals }), decided.length > 0 ? 200 : 409);
  return c.redirect(`/app/review${query({ page: page === 1 ? undefined : page, decided: decided.join(",") })}`, 303);
});

/** A row of the queue alone (after a refused action in place), or its decided form when it has left the queue. */
async function lineFragment(ws: Workspace, aId: number, errors: FieldErrors) {
  const [detail, choices, suggestions] = await Promise.all([
    ws.ledger.transaction(ws.face, "A", aId),
    categoryChoices(ws),
    ws.ledger.suggestions(ws.face, [aId]),
  ]);
  if (!detail.ok) return <tr id={`line-${aId}`}><td colspan={6} class="error" role="alert">{detail.refusal.words}</td></tr>;
  const row = detail.value.row;
  const found = settle(suggestions).find((s) => s.a_id === aId);
  // The suggestion as the queue holds it: every field but the line's id, so none is dropped.
  let suggestion: Suggestion | null = null;
  if (found) {
    const { a_id: _line, ...fields } = found;
    suggestion = fields;
  }
  const line: ReviewLine = { ...row, a_id: aId, suggestion };
  return <ReviewRow line={line} choices={choices} page={1} writes={ws.writes} errors={errors} />;
}

interface ReviewPageInput {
  ws: Workspace;
  page: number;
  /** Lines just decided, shown with what they are now. */
  decided: number[];
  refusals?: string[];
  bulkErrors?: FieldErrors;
  /** A line's form refused, shown at its row and summed up at the top. */
  lineErrors?: { line: number; errors: FieldErrors };
  /** A rule just saved from a line of the queue. */
  rule?: { key: string; decided: number };
}

async function ReviewPage({ ws, page, decided, refusals, bulkErrors, lineErrors, rule }: ReviewPageInput) {
  const [queue, choices, ...decidedRows] = await Promise.all([
    ws.ledger.reviewQueue(ws.face, page, REVIEW_PER_PAGE),
    categoryChoices(ws),
    ...decided.map((id) => ws.ledger.transaction(ws.face, "A", id)),
  ]);
  const { lines, total } = settle(queue);
  const justDecided = decidedRows.flatMap((d) => (d.ok ? [d.value.row] : []));
  return (
    <AppPage title="Review" area="review" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={total}>
      {lineErrors ? (
        <ErrorSummary errors={lineErrors.errors} labels={{ category: `Category for A:${lineErrors.line}`, reason: "Reason", page: "Page" }} ids={{ category: `cat-${lineErrors.line}` }} />
      ) : null}
      {bulkErrors ? <ErrorSummary errors={bulkErrors} labels={{ category: "Category for the selected lines", lines: "Lines", action: "Action", page: "Page" }} ids={{ category: "bulk-category", lines: "bulk-category" }} /> : null}
      {refusals && refusals.length > 0 ? (
        <Notice tone="error">
          <p>{refusals.length === 1 ? "One line was not decided:" : `${refusals.length} lines were not decided:`}</p>
          <ul>{refusals.map((words) => <li>{words}</li>)}</ul>
        </Notice>
      ) : null}
      {rule ? (
        <Notice>
          Rule <a href={`/app/rules/revisions${query({ key: rule.key })}`}>{rule.key}</a> is saved; it decided {rule.decided.toLocaleString("en-US")}{" "}
          {rule.decided === 1 ? "line" : "lines"} of the queue.
        </Notice>
      ) : null}
      {justDecided.length > 0 ? (
        <Notice>
          <p>{justDecided.length === 1 ? "Decided:" : `${justDecided.length} lines decided:`}</p>
          <ul>
            {justDecided.map((row) => (
              <li>
                <DecidedWords row={row} />
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}
      <p>
        {total === 0
          ? "Nothing waits in the queue: every line in the books has a category."
          : `${total.toLocaleString("en-US")} ${total === 1 ? "line waits" : "lines wait"} in the queue, the longest-waiting first.`}
      </p>
      {lines.length > 0 ? (
        <>
          <Shortcuts choices={choices} writes={ws.writes} />
          {ws.writes ? <BulkForm choices={choices} page={page} errors={bulkErrors} /> : null}
          <div class="table-wrap">
            <table>
              <caption>
                The queue{total > REVIEW_PER_PAGE ? `, page ${page}` : ""}
              </caption>
              <thead>
                <tr>
                  {ws.writes ? <th scope="col"><span class="vh">Select</span></th> : null}
                  <th scope="col">Date</th>
                  <th scope="col">Line</th>
                  <th scope="col" class="num">Amount</th>
                  <th scope="col">The model's suggestion</th>
                  {ws.writes ? <th scope="col">Decide</th> : null}
                </tr>
              </thead>
              <tbody>
                {lines.map((line) => (
                  <ReviewRow line={line} choices={choices} page={page} writes={ws.writes} errors={lineErrors?.line === line.a_id ? lineErrors.errors : undefined} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} perPage={REVIEW_PER_PAGE} total={total} href={(p) => `/app/review${query({ page: p })}`} label="Pages of the queue" />
        </>
      ) : null}
    </AppPage>
  );
}

/** The keys, always shown: a person needs no help page to find them. Those that change the books only to whom may. */
function Shortcuts({ choices, writes }: { choices: CategoryChoices; writes: boolean }) {
  return (
    <details id="shortcuts" class="keys" open>
      <summary>Keyboard shortcuts</summary>
      <ul>
        <li><kbd>j</kbd> and <kbd>k</kbd>: the next and the previous line</li>
        {writes ? (
          <>
            <li><kbd>a</kbd>: accept the model's suggestion for the line</li>
            <li><kbd>l</kbd>: label the line with the category chosen in its row (labels teach the model)</li>
            <li><kbd>w</kbd>: why the line waits · <kbd>r</kbd>: make a rule from it · <kbd>x</kbd>: select it</li>
          </>
        ) : (
          <li><kbd>w</kbd>: why the line waits</li>
        )}
        <li><kbd>?</kbd>: show or hide this list</li>
      </ul>
      {writes && choices.quick.length > 0 ? (
        <>
          <p id="quick-title">Number keys categorise the line at once:</p>
          <ol id="quick-categories" class="quick" aria-labelledby="quick-title">
            {choices.quick.map((name, i) => (
              <li data-quick={String(i + 1)} data-category={name}>
                <kbd>{i + 1}</kbd> {name}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </details>
  );
}

function CategoryOptions({ choices, selected, placeholder }: { choices: CategoryChoices; selected?: string | null; placeholder: string }) {
  return (
    <>
      <option value="" selected={!selected}>{placeholder}</option>
      {choices.names.map((name) => (
        <option value={name} selected={name === selected}>{name}</option>
      ))}
    </>
  );
}

function BulkForm({ choices, page, errors }: { choices: CategoryChoices; page: number; errors?: FieldErrors }) {
  const error = errors?.category ?? errors?.lines ?? errors?.action;
  return (
    <form id="bulk" method="post" action="/app/review/bulk" class="keys">
      <fieldset>
        <legend>With the lines selected below</legend>
        {error ? <p id="bulk-error" class="field-error" role="alert">{error}</p> : null}
        <div class="actions">
          <label for="bulk-category">Category</label>
          <select id="bulk-category" name="category" aria-describedby={error ? "bulk-error" : undefined} aria-invalid={error ? "true" : undefined}>
            <CategoryOptions choices={choices} placeholder="Choose a category" />
          </select>
          <button type="submit" name="action" value="categorise">Categorise the selected</button>
          <button type="submit" name="action" value="label" class="quiet">Label the selected</button>
          <button type="submit" name="action" value="accept" class="quiet">Accept their suggestions</button>
        </div>
      </fieldset>
      {page > 1 ? <input type="hidden" name="page" value={String(page)} /> : null}
    </form>
  );
}

/** Why a suggestion is held below the band, as the review page says it. */
const HELD_BELOW: Record<HeldBelow, string> = {
  "names-no-party": "the line names nobody the model knows, a check's number or a new account",
  "new-direction": "the money goes the other way from every line of this name the model was taught, a refund or another party of the same name",
  "new-account": "the few lines of this name the model was taught were paid from other accounts than this one",
  "split-history": "the lines of this name the model was taught went to several categories, whatever their amount or card",
  "sells-many-kinds": "the store sells many kinds of things, and your labels of it are not yet enough to say which this is",
};

/** A line's suggestion as the review page shows it, with why it waits where it does. */
export function SuggestionCell({ suggestion }: { suggestion: Suggestion | null }) {
  if (!suggestion) return <span class="muted">none</span>;
  return (
    <>
      <strong>{suggestion.category}</strong>, {percent(suggestion.confidence)} sure{suggestion.byOthers ? ", as other businesses file this merchant" : ""}
      {suggestion.heldBelow ? <span class="muted"> ({HELD_BELOW[suggestion.heldBelow]}: it waits for you or a rule)</span> : null}
      {suggestion.bandNotOpen ? <span class="muted"> (the model decides nothing yet: too few of your labels have been checked against the others; it waits for you or a rule)</span> : null}
    </>
  );
}

/** A line of the queue: what it is and what the model suggests, and for whom may change the books, the forms that decide it. */
function ReviewRow({ line, choices, page, writes, errors }: { line: ReviewLine; choices: CategoryChoices; page: number; writes: boolean; errors?: FieldErrors }) {
  const id = line.a_id;
  const name = `${line.description}, ${line.posted_on}`;
  const error = errors?.category ?? errors?.form ?? errors?.action;
  return (
    <tr id={`line-${id}`} data-row>
      {writes ? (
        <td>
          <input type="checkbox" name="line" value={String(id)} form="bulk" id={`sel-${id}`} data-key="x" aria-keyshortcuts="x" aria-label={`Select ${name}`} />
        </td>
      ) : null}
      <td class="date">{line.posted_on}</td>
      <td class="line">
        <a href={lineHref("A", id)} data-row-focus>{line.description}</a>
        {line.state === "pending" ? <span class="muted"> (pending)</span> : null}
        <div>
          <a
            href={lineHref("A", id, "#why")}
            hx-get={`/app/transactions/A/${id}/why`}
            hx-target={`#why-${id}`}
            aria-controls={`why-${id}`}
            data-key="w"
            aria-keyshortcuts="w"
          >
            Why it waits<kbd aria-hidden="true">w</kbd>
          </a>
          <div id={`why-${id}`} class="why" aria-live="polite"></div>
        </div>
      </td>
      <td class="num">{money(line.amount_cents)}</td>
      <td>
        <SuggestionCell suggestion={line.suggestion} />
      </td>
      {writes ? <DecideCell id={id} name={name} line={line} choices={choices} page={page} error={error} /> : null}
    </tr>
  );
}

/** The forms that decide a line of the queue: accept the suggestion, categorise or label, or make a rule from it. */
function DecideCell({ id, name, line, choices, page, error }: { id: number; name: string; line: ReviewLine; choices: CategoryChoices; page: number; error?: string }) {
  const target = { "hx-post": "/app/review/decide", "hx-target": `#line-${id}`, "hx-swap": "outerHTML" };
  return (
    <td>
      {error ? <p id={`decide-error-${id}`} class="field-error" role="alert">{error}</p> : null}
      <div class="actions">
        {line.suggestion ? (
          <form method="post" action="/app/review/decide" {...target} class="inline">
            <input type="hidden" name="line" value={String(id)} />
            <input type="hidden" name="category" value={line.suggestion.category} />
            {page > 1 ? <input type="hidden" name="page" value={String(page)} /> : null}
            <button type="submit" name="action" value="categorise" data-key="a" aria-keyshortcuts="a">
              Accept {line.suggestion.category}<kbd aria-hidden="true">a</kbd>
            </button>
          </form>
        ) : null}
        <form method="post" action="/app/review/decide" {...target} class="decide">
          <input type="hidden" name="line" value={String(id)} />
          {page > 1 ? <input type="hidden" name="page" value={String(page)} /> : null}
          <label for={`cat-${id}`} class="vh">Category for {name}</label>
          <select
            id={`cat-${id}`}
            name="category"
            data-category
            aria-invalid={error ? "true" : undefined}
            aria-describedby={error ? `decide-error-${id}` : undefined}
          >
            <CategoryOptions choices={choices} selected={line.suggestion?.category} placeholder="Choose a category" />
          </select>{" "}
          <button type="submit" name="action" value="categorise" data-categorise aria-keyshortcuts="1 2 3 4 5 6 7 8 9">
            Categorise<kbd aria-hidden="true">1–9</kbd>
          </button>{" "}
          <button type="submit" name="action" value="label" class="quiet" data-key="l" aria-keyshortcuts="l">
            Label<kbd aria-hidden="true">l</kbd>
          </button>
        </form>
        <a href={`/app/rules/new${query({ from: id, category: line.suggestion?.category })}`} data-key="r" aria-keyshortcuts="r">
          Make a rule<kbd aria-hidden="true">r</kbd>
        </a>
      </div>
    </td>
  );
}

/** What a decided line is now, with its why and the rule it could become. */
function DecidedWords({ row }: { row: Row }) {
  return (
    <>
      <a href={lineHref(row.side, row.src_id)}>{row.description}</a> ({row.posted_on}, {money(row.amount_cents)}) is now{" "}
      <strong>{row.category}</strong>. <a href={lineHref(row.side, row.src_id, "#why")}>Why</a> ·{" "}
      <a href={`/app/rules/new${query({ from: row.src_id, category: row.category === "uncategorised" ? undefined : row.category })}`}>Make a rule from it</a>
    </>
  );
}

/** The row of a line decided in place. */
function DecidedRow({ row, action }: { row: Row; action: Action }) {
  return (
    <tr id={`line-${row.src_id}`} class="done">
      <td colspan={6}>
        {action === "label" ? "Labelled: " : "Categorised: "}
        <DecidedWords row={row} />
      </td>
    </tr>
  );
}
