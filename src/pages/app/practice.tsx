/**
 * /app/practice: the practice dashboard of a person with seats in several businesses. Each
 * business with the person's role there, its queue's size, its last sync and its last
 * parity verdict, and a switch that moves the session to it (the session's tenant is the
 * business the workspace shows). A business where the person holds no live seat is a 404.
 */
import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import { requireSameOrigin } from "../../auth/caller";
import { seatsOf, type HeldSeat } from "../../auth/people";
import { findLiveSession, SESSION_COOKIE, switchSessionTenant } from "../../auth/sessions";
import { TENANT_SLUG } from "../../auth/tenants";
import { ledgerOf } from "../../env";
import { ApiError, settle } from "../../errors";
import { formOf } from "../../http/form-body";
import { faceFor } from "../../ledger/face";
import type { Glance } from "../../ledger/glance";
import type { WorkspaceEnv } from "./access";
import { AppPage } from "./layout";
import { when } from "./ui";

export const practice = new Hono<WorkspaceEnv>();

/** The person's live session, or a redirect: to /signin without one, to the workspace for the owner's session (which is one business's). */
async function personSession(c: Context<WorkspaceEnv>, now: Date) {
  const value = getCookie(c, SESSION_COOKIE);
  const session = value === undefined ? undefined : await findLiveSession(c.env.INDEX_DB, value, now);
  if (!session || value === undefined) return { redirect: c.redirect("/signin", 303) };
  if (session.personId === null || session.person === null) return { redirect: c.redirect("/app/review", 303) };
  return { session, value, person: session.person };
}

function SyncCell({ glance }: { glance: Glance }) {
  const run = glance.lastSync;
  if (!run) return <>never synced</>;
  return <>{when(run.finishedAt)}: {run.status === "ok" ? `${run.added.toLocaleString("en-US")} added` : `failed (${run.error ?? "no reason given"})`}</>;
}

function VerdictCell({ glance }: { glance: Glance }) {
  const verdict = glance.lastVerdict;
  if (!verdict) return <>no verdict yet</>;
  return <>{verdict.asOf}: {verdict.match ? "match" : <strong>mismatch</strong>}</>;
}

practice.get("/", async (c) => {
  const now = new Date();
  const found = await personSession(c, now);
  if ("redirect" in found) return found.redirect;
  const { session, person } = found;
  const held = await seatsOf(c.env.INDEX_DB, person.id);
  // Each business's object is asked once, all at once.
  const glances = await Promise.all(held.map(async (seat: HeldSeat) => settle(await ledgerOf(c.env, seat.tenantId).glance(faceFor(seat, now)))));
  const current = held.findIndex((s) => s.tenantId === session.tenantId);
  const role = current >= 0 ? held[current]!.role : "viewer";
  return c.html(
    <AppPage title="Practice" area="practice" tenant={session.tenantId} who={{ role, person }} queue={current >= 0 ? glances[current]!.queue : 0}>
      <p>
        The businesses where you, {person.name} ({person.email}), hold a seat. The workspace shows one at a time: switch to
        work in another.
      </p>
      {held.length === 0 ? <p data-testid="no-seats">You hold no seat in any business now.</p> : null}
      <table data-testid="practice">
        <caption>Your businesses</caption>
        <thead>
          <tr>
            <th scope="col">Business</th><th scope="col">Your role</th><th scope="col">In the queue</th>
            <th scope="col">Last sync</th><th scope="col">Last verdict</th><th scope="col"><span class="vh">Switch</span></th>
          </tr>
        </thead>
        <tbody>
          {held.map((seat, i) => (
            <tr data-tenant={seat.tenantId}>
              <th scope="row">{seat.business} <span class="quiet">({seat.tenantId})</span></th>
              <td>{seat.role}</td>
              <td class="num" data-testid="queue">{glances[i]!.queue.toLocaleString("en-US")}</td>
              <td><SyncCell glance={glances[i]!} /></td>
              <td><VerdictCell glance={glances[i]!} /></td>
              <td>
                {i === current ? (
                  <span aria-current="true">working here</span>
                ) : (
                  <form method="post" action="/app/practice/switch">
                    <input type="hidden" name="tenant" value={seat.tenantId} />
                    <button type="submit" aria-label={`Switch to ${seat.business}`}>Switch</button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </AppPage>,
  );
});

practice.post("/switch", async (c) => {
  requireSameOrigin(c.req.raw);
  const now = new Date();
  const found = await personSession(c, now);
  if ("redirect" in found) return found.redirect;
  const tenant = String((await formOf(c)).tenant ?? "").trim();
  const moved = TENANT_SLUG.test(tenant) && (await switchSessionTenant(c.env.INDEX_DB, found.value, found.person.id, tenant, now));
  if (!moved) throw ApiError.notFound(`You hold no seat at a business named "${tenant.slice(0, 40)}".`);
  return c.redirect("/app/review", 303);
});
