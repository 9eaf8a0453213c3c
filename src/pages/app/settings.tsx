/**
 * The settings the workspace gathers beside tokens, grants and destinations (/settings,
 * served at /app/settings too): the banks' latest sync runs and a sync request, and the meter (the external model's spend against the cap, and the bank
 * connections in use against the tier's).
 */
import { Hono } from "hono";
import { ApiError, settle } from "../../errors";
import { capFor, meterMonths, monthOf, type Cap, type MeterMonth } from "../../index-db/meter";
import type { listSyncRuns } from "../../ledger/feed/sync-requests";
import type { SettingsView } from "../../ledger/settings-view";
import type { Face } from "../../ledger/face";
import type { TenantLedger } from "../../ledger/tenant-ledger";
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

type SyncRun = ReturnType<typeof listSyncRuns>;

export interface GatheredSettings {
  runs: SyncRun;
  connections: number;
  connectionCap: number;
  months: MeterMonth[];
  cap: Cap;
  thisMonth: string;
}

/** How many of the thread's newest messages the page shows. */
export const MESSAGES_SHOWN = 50;

/**
 * What the settings page reads: the books' part in one call to the object (`SettingsView`),
 * and the meter from the index, all at once.
 */
export async function gatherSettings(d1: D1Database, ledger: DurableObjectStub<TenantLedger>, tenant: string, face: Face, now: Date): Promise<{ books: SettingsView; gathered: GatheredSettings }> {
  const [view, months, cap] = await Promise.all([ledger.settingsView(face, { messages: MESSAGES_SHOWN, runs: RUNS_SHOWN }), meterMonths(d1, tenant, MONTHS_SHOWN, now), capFor(d1, tenant)]);
  const books = settle(view);
  return {
    books,
    gathered: { runs: books.runs, connections: books.liveConnections, connectionCap: CONNECTION_CAPS[face.tier], months, cap, thisMonth: monthOf(now) },
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
