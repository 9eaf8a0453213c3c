/**
 * /app/reports: the rolling P&L (the 7 and 30 days ending on a day, each against the days
 * before), charted and tabled, each line drilling down to the transactions behind it; the
 * parity verdicts with their localisations; and export downloads (export_books: a bundle
 * of four files, or a push to the connected spreadsheet).
 */
import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import { isoDateSchema, paramInteger, singleLineText } from "../../endpoints/shared";
import { ApiError, settle } from "../../errors";
import { exportView, requestExport } from "../../exports/export-books";
import type { Localisation, LocalisationKind } from "../../ledger/reports/parity";
import { SECTIONS, WINDOWS, type SectionName, type WindowName } from "../../ledger/reports/pnl";
import type { PnlViewWindow } from "../../ledger/reports/pnl-view";
import { access, readQuery, type WorkspaceEnv } from "./access";
import { PnlChart } from "./chart";
import { AppPage, whoOf } from "./layout";
import { lineHref, money, Notice, Pager, query, TextField, when } from "./ui";

export const reports = new Hono<WorkspaceEnv>();

export const SECTION_WORDS: Record<SectionName, string> = {
  revenue: "Revenue",
  cogs: "Cost of goods sold",
  gross_margin: "Gross margin",
  biz_expenses: "Business expenses",
  net_income: "Net income",
  owners_draw: "Owner's draw",
};

const WINDOW_WORDS: Record<WindowName, string> = { "7d": "The last 7 days", "30d": "The last 30 days" };

const KIND_WORDS: Record<LocalisationKind, string> = {
  RECATEGORIZED: "categorised differently",
  AMOUNT_DIFF: "a different amount",
  WINDOW_EDGE: "at the window's edge",
  MISSING_ON_LOCAL: "only the oracle has it",
  MISSING_ON_ORACLE: "only the books have it",
};

/** How many filed days the page lists. */
const VERDICTS_SHOWN = 10;
const DRILL_PER_PAGE = 50;

const BASE_SECTIONS: SectionName[] = ["revenue", "cogs", "biz_expenses", "owners_draw"];
const CHARTED: SectionName[] = ["revenue", "cogs", "biz_expenses", "owners_draw", "net_income"];

reports.get("/", access("read"), async (c) => {
  const ws = c.get("workspace");
  const { as_of } = readQuery(c, z.object({ as_of: isoDateSchema.optional(), exported: paramInteger().optional() }).passthrough());
  const asOf = as_of ?? ws.face.today;
  const [queue, pnl, verdicts, lastRunOutcome] = await Promise.all([
    ws.ledger.queueSize(ws.face),
    ws.ledger.pnlOverview(ws.face, asOf),
    ws.ledger.verdicts({ from: null, to: null, revisions: "latest" }, 1, VERDICTS_SHOWN),
    ws.ledger.lastOracleRun(),
  ]);
  const view = settle(pnl);
  const filed = settle(verdicts).verdicts;
  const lastRun = settle(lastRunOutcome);
  return c.html(
    <AppPage title="Reports" area="reports" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={settle(queue)}>
      <form method="get" action="/app/reports" class="filters" aria-label="The day the report ends on">
        <TextField id="as-of" name="as_of" label="Ending on" type="date" value={asOf} />
        <div class="field">
          <button type="submit">Show</button>
        </div>
      </form>
      <h2>Profit and loss</h2>
      <p>Booked lines only, each category under its header's section; transfers and categories the taxonomy does not hold are in no section.</p>
      {(Object.keys(WINDOWS) as WindowName[]).map((name) => (
        <PnlWindowSection name={name} window={view.windows[name]} asOf={asOf} />
      ))}
      <h2 id="verdicts">Parity verdicts</h2>
      <p>
        Each day the books' P&amp;L is compared with the oracle's for the same bank lines; a verdict ties every difference
        to the lines that explain it.{" "}
        {lastRun ? (
          <>
            The daily run last ran {when(lastRun.ranAt)} for {lastRun.asOf}: {lastRun.status === "filed" ? `verdict filed (revision ${lastRun.revision})` : `failed: ${lastRun.error}`}.
          </>
        ) : (
          <>No oracle has run yet (set one in <a href="/app/settings">Settings</a>).</>
        )}
      </p>
      {filed.length === 0 ? (
        <p>No verdict is filed yet.</p>
      ) : (
        <table>
          <caption class="vh">The latest verdicts, and the days the oracle run failed, the newest day first</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" class="num">Revision</th>
              <th scope="col" class="num">Difference coefficient</th>
              <th scope="col" class="num">Differences found</th>
              <th scope="col">Filed</th>
            </tr>
          </thead>
          <tbody>
            {filed.map((v) =>
              v.status === "failed" ? (
                <tr>
                  <th scope="row">{v.as_of}</th>
                  <td colspan={3}>No verdict: the oracle run failed: {v.error}</td>
                  <td>{when(v.recorded_at)}</td>
                </tr>
              ) : (
                <tr>
                  <th scope="row">
                    <a href={`/app/reports/verdicts/${v.as_of}`}>{v.as_of}</a>
                  </th>
                  <td class="num">{v.revision}</td>
                  <td class="num">{v.coefficient.toFixed(4)}</td>
                  <td class="num">{v.localisation_count}</td>
                  <td>{when(v.filed_at)}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
      <h2 id="exports">Export</h2>
      <p>
        An export is a snapshot of the booked lines: four files to download (transactions, accounts, a bank upload for an
        online accounting package, and an IIF file with the categories), or, with a spreadsheet destination connected in{" "}
        <a href="/app/settings">Settings</a>, a push that rewrites its sheet.
      </p>
      {ws.writes ? (
        <form method="post" action="/app/reports/export">
          <button type="submit">Export the books</button>
        </form>
      ) : (
        <p data-testid="no-export-form">Exports are made by the owner and the bookkeepers.</p>
      )}
    </AppPage>,
  );
});

function change(current: number, prior: number): string {
  return money(current - prior);
}

function PnlWindowSection({ name, window, asOf }: { name: WindowName; window: PnlViewWindow; asOf: string }) {
  const id = `pnl-${name}`;
  const drill = (section: SectionName, category: string | null, period: "current" | "prior") =>
    `/app/reports/lines${query({ as_of: asOf, window: name, section, category: category ?? undefined, period })}`;
  const s = window.sections;
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>
        {WINDOW_WORDS[name]}: {window.from} to {window.to}, against {window.prior_from} to {window.prior_to}
      </h3>
      <PnlChart
        id={`${id}-chart`}
        title={`${WINDOW_WORDS[name]}, current period beside the prior one`}
        description={CHARTED.map((k) => `${SECTION_WORDS[k]} ${money(s[k].current, false)} against ${money(s[k].prior, false)}`).join("; ")}
        groups={CHARTED.map((k) => ({ label: SECTION_WORDS[k], current: s[k].current, prior: s[k].prior }))}
      />
      <ul class="legend" aria-hidden="true">
        <li><span class="swatch swatch-current"></span>{window.from} to {window.to}</li>
        <li><span class="swatch swatch-prior"></span>{window.prior_from} to {window.prior_to}</li>
      </ul>
      <div class="table-wrap">
        <table data-testid={`pnl-${name}`}>
          <caption class="vh">{WINDOW_WORDS[name]} by section and category</caption>
          <thead>
            <tr>
              <th scope="col">Section</th>
              <th scope="col" class="num">{window.from} to {window.to}</th>
              <th scope="col" class="num">{window.prior_from} to {window.prior_to}</th>
              <th scope="col" class="num">Change</th>
            </tr>
          </thead>
          <tbody>
            {SECTIONS.map((section) => (
              <>
                <tr>
                  <th scope="row">{SECTION_WORDS[section]}</th>
                  <td class="num">
                    {BASE_SECTIONS.includes(section) && s[section].lines.length > 0 ? <a href={drill(section, null, "current")}>{money(s[section].current, false)}</a> : money(s[section].current, false)}
                  </td>
                  <td class="num">
                    {BASE_SECTIONS.includes(section) && s[section].lines.length > 0 ? <a href={drill(section, null, "prior")}>{money(s[section].prior, false)}</a> : money(s[section].prior, false)}
                  </td>
                  <td class="num">{change(s[section].current, s[section].prior)}</td>
                </tr>
                {BASE_SECTIONS.includes(section)
                  ? s[section].lines.map((line) => (
                      <tr class="sub">
                        <th scope="row">{line.category}</th>
                        <td class="num">
                          <a href={drill(section, line.category, "current")} aria-label={`${money(line.current, false)}, the ${line.current_lines} ${line.current_lines === 1 ? "line" : "lines"} behind ${line.category}, ${window.from} to ${window.to}`}>
                            {money(line.current, false)}
                          </a>
                        </td>
                        <td class="num">
                          <a href={drill(section, line.category, "prior")} aria-label={`${money(line.prior, false)}, the ${line.prior_lines} ${line.prior_lines === 1 ? "line" : "lines"} behind ${line.category}, ${window.prior_from} to ${window.prior_to}`}>
                            {money(line.prior, false)}
                          </a>
                        </td>
                        <td class="num">{change(line.current, line.prior)}</td>
                      </tr>
                    ))
                  : null}
              </>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const drillQuery = z.object({
  as_of: isoDateSchema,
  window: z.enum(Object.keys(WINDOWS) as [WindowName, ...WindowName[]]),
  section: z.enum(SECTIONS),
  category: singleLineText().max(100).optional(),
  period: z.enum(["current", "prior"]),
  page: paramInteger().default(1),
});

reports.get("/lines", access("read"), async (c) => {
  const ws = c.get("workspace");
  const q = readQuery(c, drillQuery);
  const drill = { window: q.window, section: q.section, category: q.category ?? null, period: q.period };
  const [queue, found] = await Promise.all([ws.ledger.queueSize(ws.face), ws.ledger.pnlContributors(ws.face, q.as_of, drill, q.page, DRILL_PER_PAGE)]);
  const { from, to, transactions, total, cents } = settle(found);
  const what = `${SECTION_WORDS[q.section]}${q.category ? `: ${q.category}` : ""}`;
  return c.html(
    <AppPage title={what} area="reports" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={settle(queue)}>
      <p>
        The {total.toLocaleString("en-US")} booked {total === 1 ? "line" : "lines"} behind {what}, {from} to {to}: {money(cents, false)} as the section counts
        it. <a href={`/app/reports${query({ as_of: q.as_of })}`}>Back to the report</a>
      </p>
      {transactions.length > 0 ? (
        <table>
          <caption class="vh">The lines behind {what}</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Line</th>
              <th scope="col">Category</th>
              <th scope="col" class="num">Amount</th>
            </tr>
          </thead>
          <tbody>
            {transactions.map((t) => (
              <tr>
                <td class="date">{t.posted_on}</td>
                <td>
                  <a href={lineHref(t.side, t.src_id)}>{t.description}</a>
                </td>
                <td>{t.category}</td>
                <td class="num">{money(t.amount_cents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pager page={q.page} perPage={DRILL_PER_PAGE} total={total} href={(p) => `/app/reports/lines${query({ ...c.req.query(), page: p })}`} label="Pages of the lines" />
    </AppPage>,
  );
});

reports.get("/verdicts/:asOf", access("read"), async (c) => {
  const ws = c.get("workspace");
  const parsed = isoDateSchema.safeParse(c.req.param("asOf"));
  if (!parsed.success) throw ApiError.notFound("Nothing is served at this address: a verdict's is /app/reports/verdicts/<YYYY-MM-DD>.");
  const asOf = parsed.data;
  const [queue, filed] = await Promise.all([ws.ledger.queueSize(ws.face), ws.ledger.verdictOn(asOf)]);
  const found = settle(filed);
  if (!found) {
    return c.html(
      <AppPage title={`Verdict for ${asOf}`} area="reports" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={settle(queue)}>
        <p>No verdict is filed for {asOf}. <a href="/app/reports#verdicts">The verdicts</a></p>
      </AppPage>,
      404,
    );
  }
  const { verdict } = found;
  return c.html(
    <AppPage title={`Verdict for ${asOf}`} area="reports" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={settle(queue)}>
      <p>
        Revision {verdict.revision}, filed {when(found.filed_at)} by {found.actor}. Difference coefficient{" "}
        <strong>{verdict.coefficient.toFixed(4)}</strong> (0 when the books and the oracle agree on all twelve numbers).{" "}
        <a href="/app/reports#verdicts">The verdicts</a>
      </p>
      <h2>The twelve numbers</h2>
      <table>
        <caption class="vh">Each number's delta, the books' less the oracle's</caption>
        <thead>
          <tr>
            <th scope="col">Section</th>
            {(Object.keys(WINDOWS) as WindowName[]).map((w) => (
              <th scope="col" class="num">{WINDOW_WORDS[w]}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {SECTIONS.map((section) => (
            <tr>
              <th scope="row">{SECTION_WORDS[section]}</th>
              {(Object.keys(WINDOWS) as WindowName[]).map((w) => (
                <td class="num">{money(verdict.deltas[`${w}.${section}`] ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Where they differ</h2>
      {verdict.localisations.length === 0 ? <p>Every line agrees.</p> : <Localisations localisations={verdict.localisations} />}
    </AppPage>,
  );
});

function Seen({ seen }: { seen: Localisation["local"] }) {
  if (!seen) return <span class="muted">not there</span>;
  return (
    <>
      {SECTION_WORDS[seen.section]}, {seen.category}, {money(seen.amount_cents)}
    </>
  );
}

function Localisations({ localisations }: { localisations: Localisation[] }) {
  return (
    <table data-testid="localisations">
      <caption class="vh">Each difference and the line that explains it</caption>
      <thead>
        <tr>
          <th scope="col">Window</th>
          <th scope="col">Difference</th>
          <th scope="col">Line</th>
          <th scope="col">In the books</th>
          <th scope="col">In the oracle</th>
        </tr>
      </thead>
      <tbody>
        {localisations.map((l) => (
          <tr>
            <td>{l.window}</td>
            <td>{KIND_WORDS[l.kind]}</td>
            <td>
              {l.local ? <a href={lineHref(l.side, l.src_id)}>{l.description}</a> : l.description} <span class="muted">({l.posted_on})</span>
            </td>
            <td><Seen seen={l.local} /></td>
            <td><Seen seen={l.oracle} /></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

reports.post("/export", access("write"), async (c) => {
  const ws = c.get("workspace");
  const made = await requestExport(
    { d1: c.env.INDEX_DB, queue: c.env.JOB_QUEUE, ledger: ws.ledger, tenant: ws.caller.tenant.id, actor: ws.caller.actor, face: ws.face, now: ws.now, origin: new URL(c.req.url).origin },
    undefined,
  );
  return c.redirect(`/app/reports/exports/${made.kind === "bundle" ? made.export_id : made.op_id}`, 303);
});

reports.get("/exports/:id", access("read"), async (c) => {
  const ws = c.get("workspace");
  const parsed = paramInteger().safeParse(c.req.param("id"));
  if (!parsed.success) throw ApiError.notFound("Nothing is served at this address: an export's is /app/reports/exports/<id>.");
  const id = parsed.data;
  const [queue, found] = await Promise.all([ws.ledger.queueSize(ws.face), ws.ledger.exportRecord(id)]);
  const { record, pushes } = settle(found);
  const view = exportView(record, pushes, new URL(c.req.url).origin);
  return c.html(
    <AppPage title={`Export ${id}`} area="reports" tenant={ws.caller.tenant.id} who={whoOf(ws.caller)} queue={settle(queue)}>
      {view.kind === "bundle" ? (
        <>
          <Notice>The books are exported as of {when(view.created_at)}.</Notice>
          {view.destinations === "unreadable" ? <p>The destination list could not be read just now, so this is a bundle; a destination may be connected.</p> : null}
          <table>
            <caption class="vh">The files of export {id}</caption>
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col" class="num">Rows</th>
              </tr>
            </thead>
            <tbody>
              {(Object.keys(view.urls) as (keyof typeof view.urls)[]).map((file) => (
                <tr>
                  <th scope="row">
                    <a href={`/api/v1/exports/${id}/${file}`} download={file}>{file}</a>
                  </th>
                  <td class="num">{view.row_counts[file].toLocaleString("en-US")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <>
          <Notice>
            The books are pushed to destination {view.destination_id}: {view.status}.
          </Notice>
          {view.pushes.length > 0 ? (
            <ul>
              {view.pushes.map((p) => (
                <li>
                  Attempt {p.attempt}, {when(p.at)}: {p.status}
                  {p.error ? ` (${p.error})` : ""}
                </li>
              ))}
            </ul>
          ) : (
            <p>The push is queued; reload this page to see how it went.</p>
          )}
        </>
      )}
      <p>
        <a href="/app/reports#exports">Back to the reports</a>
      </p>
    </AppPage>,
  );
});
