/**
 * The settings the workspace gathers beside tokens, grants and destinations (/settings,
 * served at /app/settings too): the banks' latest sync runs and a sync request, the meter
 * (the external model's spend against the cap, and the bank connections in use against the
 * tier's), and the choice on the shared merchant prior.
 */
import { Hono } from "hono";
import { z } from "zod";
import { chooseSharedPrior } from "../../endpoints/shared-prior/choice";
import { ApiError, settle } from "../../errors";
import { formOf } from "../../http/form-body";
import { contributedWordsQuery } from "../../index-db/shared-prior";
import { drizzle } from "drizzle-orm/d1";
import { grantsQuery, grantView, type GrantView } from "../../auth/grants";
import { tenantQuery, type TenantRecord } from "../../auth/tenants";
import { tokensQuery, type listTokens } from "../../auth/tokens";
import { ledgerOf, type Env } from "../../env";
import { liveDestinationsQuery, viewOf, type DestinationView } from "../../index-db/destinations";
import { meterMonthsOf, meterMonthsQueries, monthOf, type Cap, type MeterMonth } from "../../index-db/meter";
import { oracleSourceQuery, type OracleSource } from "../../index-db/oracle";
import type { listSyncRuns } from "../../ledger/feed/sync-requests";
import type { SettingsView } from "../../ledger/settings-view";
import { faceFor } from "../../ledger/face";
import { CONNECTION_CAPS } from "../../tiers";
import { access, type WorkspaceEnv } from "./access";
import { money, when } from "./ui";

export const settings = new Hono<WorkspaceEnv>();

/** How many sync runs and meter months the page shows. */
const RUNS_SHOWN = 5;
const MONTHS_SHOWN = 12;

settings.post("/sync", access("write"), async (c) => {
  const ws = c.get("workspace");
  const outcome = settle(await ws.ledger.requestSync(ws.caller.tenant.id, ws.caller.actor));
  if (outcome.state === "nothing-connected") throw new ApiError("nothing_connected", "No bank is connected to this tenant, so there is nothing to sync.");
  return c.redirect(`/app/settings?sync=${outcome.state}#bank`, 303);
});

const sharedPriorForm = z.object({ opted_in: z.enum(["yes", "no"]) });

settings.post("/shared-merchant-prior", access("write"), async (c) => {
  const ws = c.get("workspace");
  const parsed = sharedPriorForm.safeParse(await formOf(c));
  if (!parsed.success) throw ApiError.validation("body", parsed.error);
  const choice = await chooseSharedPrior(c.env, ws.ledger, ws.caller.tenant.id, parsed.data.opted_in === "yes", ws.caller.actor);
  return c.redirect(`/app/settings?prior=${choice.opted_in ? "in" : "out"}#prior`, 303);
});

type SyncRun = ReturnType<typeof listSyncRuns>;

export interface GatheredSettings {
  runs: SyncRun;
  connections: number;
  connectionCap: number;
  months: MeterMonth[];
  cap: Cap;
  thisMonth: string;
  /** How many merchant words the tenant contributes to the shared prior now. */
  contributedWords: number;
}

/** How many of the thread's newest messages the page shows. */
export const MESSAGES_SHOWN = 50;

/** What the settings page shows from the index: the tenant, its tokens, oracle, destinations and grants. */
export interface IndexSettings {
  tenant: TenantRecord;
  tokens: Awaited<ReturnType<typeof listTokens>>;
  oracle: OracleSource | undefined;
  destinations: DestinationView[];
  grants: GrantView[];
}

/**
 * What the settings page reads: the index's part in one D1 batch (each read alone was a
 * round trip of its own, which locally wait their turn one after another), then the books'
 * part in one call to the object (`SettingsView`), which needs the tenant's face.
 * undefined when the index holds no such tenant.
 */
export async function gatherSettings(env: Env, tenantId: string, now: Date): Promise<{ index: IndexSettings; books: SettingsView; gathered: GatheredSettings } | undefined> {
  const db = drizzle(env.INDEX_DB);
  const [tenantRows, tokens, oracleRows, destinationRows, grantRows, contributed, ...meterAnswers] = await db.batch([
    tenantQuery(db, tenantId),
    tokensQuery(db, tenantId),
    oracleSourceQuery(db, tenantId),
    liveDestinationsQuery(db, tenantId),
    grantsQuery(db, tenantId),
    contributedWordsQuery(db, tenantId),
    ...meterMonthsQueries(db, tenantId, MONTHS_SHOWN, now),
  ]);
  const tenant = tenantRows[0];
  if (!tenant) return undefined;
  const face = faceFor(tenant, now);
  const books = settle(await ledgerOf(env, tenantId).settingsView(face, { messages: MESSAGES_SHOWN, runs: RUNS_SHOWN }));
  const { months, cap } = meterMonthsOf(meterAnswers);
  return {
    index: { tenant, tokens, oracle: oracleRows[0], destinations: destinationRows.map(viewOf), grants: grantRows.map((g) => grantView(g, now)) },
    books,
    gathered: {
      runs: books.runs,
      connections: books.liveConnections,
      connectionCap: CONNECTION_CAPS[face.tier],
      months,
      cap,
      thisMonth: monthOf(now),
      contributedWords: books.sharedPrior.opted_in ? (contributed[0]?.n ?? 0) : 0,
    },
  };
}

/** Millicents (thousandths of a cent) as dollars. */
function spend(millicents: number): string {
  return money(Math.round(millicents / 1000), false);
}

/** The sync runs over the banks connected (listed above it, by `BanksSection`), and a sync request. */
export function SyncSection({ gathered, sync }: { gathered: GatheredSettings; sync?: string }) {
  const { runs } = gathered;
  return (
    <section aria-labelledby="bank">
      <h2 id="bank">Sync</h2>
      {sync === "recorded" ? <p role="status">A sync is requested; its run is listed below once the watcher has made it.</p> : null}
      {sync === "already-pending" ? <p role="status">A sync is already waiting; its run is listed below once the watcher has made it.</p> : null}
      {gathered.connections > 0 ? (
        <form method="post" action="/app/settings/sync">
          <button type="submit">Sync now</button>
        </form>
      ) : (
        <p data-testid="bank-connection">No bank is connected, so there is nothing to sync.</p>
      )}
      {runs.length > 0 ? (
        <table>
          <caption>The latest sync runs</caption>
          <thead>
            <tr>
              <th scope="col">Finished</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">Added</th>
              <th scope="col" class="num">Modified</th>
              <th scope="col" class="num">Removed</th>
              <th scope="col" class="num">Duplicates</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr>
                <td>{when(r.finishedAt)}</td>
                <td>
                  {r.status === "ok" ? "ok" : `failed${r.final ? "" : ", to be tried again"}`}
                  {r.error ? `: ${r.error}` : ""}
                </td>
                <td class="num">{r.added.toLocaleString("en-US")}</td>
                <td class="num">{r.modified.toLocaleString("en-US")}</td>
                <td class="num">{r.removed.toLocaleString("en-US")}</td>
                <td class="num">{r.duplicates.toLocaleString("en-US")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

/** The tenant's choice on the shared merchant prior, and a form that changes it. */
export function SharedPriorSection({ books, gathered, prior }: { books: SettingsView; gathered: GatheredSettings; prior?: string }) {
  const choice = books.sharedPrior;
  return (
    <section aria-labelledby="prior">
      <h2 id="prior">Shared merchant prior</h2>
      {prior === "in" ? <p role="status">You take part in the shared merchant prior from now on.</p> : null}
      {prior === "out" ? <p role="status">You no longer take part: your contribution is removed, and your local model stops reading the pool.</p> : null}
      <p>
        What other businesses that take part say of merchants, pooled where at least five of them agree: a merchant they split across categories stays with a person while your own few labels
        of it agree, and for a merchant your labels do not show yet, the review suggests the category most of them file it under, where you keep a category of that name (a suggestion only: it decides nothing; a merchant first seen today, from tomorrow). You contribute, per merchant word
        of your labelled lines, how far its lines agree and the name of the category they are in; never a line, a label or an amount.
      </p>
      <p data-testid="shared-prior-state">
        {choice.opted_in
          ? `You take part (since ${when(choice.chosen_at!)}), contributing ${gathered.contributedWords.toLocaleString("en-US")} merchant words as of the last daily run.`
          : "You do not take part."}
      </p>
      <form method="post" action="/app/settings/shared-merchant-prior">
        <input type="hidden" name="opted_in" value={choice.opted_in ? "no" : "yes"} />
        <button type="submit">{choice.opted_in ? "Stop taking part" : "Take part"}</button>
      </form>
    </section>
  );
}

export function MeterSection({ gathered }: { gathered: GatheredSettings }) {
  const { cap, months, thisMonth } = gathered;
  const current = months.find((m) => m.month === thisMonth);
  const spent = current?.millicents ?? 0;
  return (
    <section aria-labelledby="meter">
      <h2 id="meter">Meter</h2>
      <p>What the external model (asked about the lines neither your rules nor the local model decide) costs each month, against the cap.</p>
      {cap.cap_millicents_month === null ? (
        <p data-testid="meter-now">This month: {spend(spent)}. No cap is known, which does not mean the spend is under one.</p>
      ) : (
        <>
          <p id="meter-now" data-testid="meter-now">
            This month: {spend(spent)} of the {spend(cap.cap_millicents_month)} cap ({cap.cap_source === "tenant_override" ? "set for you" : `the ${cap.cap_tier} tier's`}).{" "}
            {spent < cap.cap_millicents_month
              ? "Under it, the external model is asked as lines arrive."
              : "At or over it, waiting lines go to the external model once a day."}
          </p>
          <meter min={0} max={cap.cap_millicents_month} value={Math.min(spent, cap.cap_millicents_month)} aria-labelledby="meter-now">
            {spend(spent)}
          </meter>
        </>
      )}
      {months.length > 0 ? (
        <table>
          <caption>The months with activity, the newest first</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col" class="num">Calls</th>
              <th scope="col" class="num">Cost</th>
              <th scope="col" class="num">Unpriced calls</th>
              <th scope="col" class="num">Lines decided here</th>
              <th scope="col" class="num">Lines sent out</th>
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr>
                <th scope="row">{m.month}</th>
                <td class="num">{m.calls.toLocaleString("en-US")}</td>
                <td class="num">{spend(m.millicents)}</td>
                <td class="num">{m.unpriced_calls.toLocaleString("en-US")}</td>
                <td class="num">{m.lines_resolved_local.toLocaleString("en-US")}</td>
                <td class="num">{m.lines_sent_to_api.toLocaleString("en-US")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>Nothing is metered yet.</p>
      )}
    </section>
  );
}
