/**
 * The browser pages: /signin (password -> svc_session), /signout, and /settings, where a
 * signed-in tenant lists, mints and revokes its personal access tokens, sets its parity
 * oracle and connects its spreadsheet destinations.
 */
import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { requireSameOrigin } from "../auth/caller";
import { endSession, findLiveSession, SESSION_COOKIE, startSession } from "../auth/sessions";
import { checkPassword } from "../auth/tenants";
import { listTokens, mintToken, revokeToken, type MintedToken } from "../auth/tokens";
import type { Env } from "../env";
import { connectDestination, disconnectDestination, liveDestinations } from "../index-db/destinations";
import { lastOracleRun, oracleSourceOf, setOracleSource } from "../index-db/oracle";
import { DestinationsSection, destinationFormProblem } from "./destinations";
import { Page } from "./layout";

export const pages = new Hono<{ Bindings: Env }>();

function SignIn(props: { error?: string; tenant?: string }) {
  return (
    <Page title="Sign in">
      <h1>Sign in</h1>
      {props.error ? <p class="error" role="alert">{props.error}</p> : null}
      <form method="post" action="/signin">
        <label for="tenant">Tenant</label>
        <input id="tenant" name="tenant" autocomplete="username" required value={props.tenant ?? ""} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>
    </Page>
  );
}

pages.get("/signin", (c) => c.html(<SignIn />));

pages.post("/signin", async (c) => {
  requireSameOrigin(c.req.raw);
  const form = await c.req.parseBody();
  const tenantId = String(form.tenant ?? "").trim();
  const password = String(form.password ?? "");
  const tenant = tenantId && password ? await checkPassword(c.env.INDEX_DB, tenantId, password) : undefined;
  if (!tenant) {
    return c.html(<SignIn error="That tenant and password do not match." tenant={tenantId} />, 401);
  }
  const session = await startSession(c.env.INDEX_DB, tenant.id, new Date());
  setCookie(c, SESSION_COOKIE, session.value, {
    httpOnly: true,
    secure: true,
    sameSite: "Lax",
    path: "/",
    expires: session.expiresAt,
  });
  return c.redirect("/settings", 303);
});

pages.post("/signout", async (c) => {
  requireSameOrigin(c.req.raw);
  const value = getCookie(c, SESSION_COOKIE);
  if (value) await endSession(c.env.INDEX_DB, value, new Date());
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
  return c.redirect("/signin", 303);
});

/** The signed-in tenant, or undefined (the page then sends the browser to /signin). */
async function sessionTenant(c: Context<{ Bindings: Env }>): Promise<string | undefined> {
  const value = getCookie(c, SESSION_COOKIE);
  if (!value) return undefined;
  return (await findLiveSession(c.env.INDEX_DB, value, new Date()))?.tenantId;
}

async function Settings(props: { d1: D1Database; tenant: string; minted?: MintedToken; notice?: string }) {
  const tokens = await listTokens(props.d1, props.tenant);
  const oracle = await oracleSourceOf(props.d1, props.tenant);
  const lastRun = await lastOracleRun(props.d1, props.tenant);
  const destinations = await liveDestinations(props.d1, props.tenant);
  return (
    <Page title="Settings">
      <header>
        <h1>Settings for {props.tenant}</h1>
        <form method="post" action="/signout">
          <button type="submit">Sign out</button>
        </form>
      </header>
      {props.minted ? (
        <section aria-label="New token">
          <h2>Your new token</h2>
          <p>Copy it now: it is shown once and stored only as a hash.</p>
          <p class="secret" data-testid="new-token">{props.minted.token}</p>
        </section>
      ) : null}
      {props.notice ? <p role="status">{props.notice}</p> : null}
      <h2>Personal access tokens</h2>
      <table>
        <thead>
          <tr><th>Label</th><th>Scope</th><th>Key id</th><th>Expires</th><th>Status</th><th></th></tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr>
              <td>{t.label}</td>
              <td>{t.scope === "read_write" ? "read-write" : "read-only"}</td>
              <td><code>{t.kid}</code></td>
              <td>{t.expiresAt.slice(0, 10)}</td>
              <td>{t.revokedAt ? `revoked ${t.revokedAt.slice(0, 10)}` : "live"}</td>
              <td>
                {t.revokedAt ? null : (
                  <form method="post" action={`/settings/tokens/${t.kid}/revoke`}>
                    <button type="submit" aria-label={`Revoke ${t.label}`}>Revoke</button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Parity oracle</h2>
      <p>
        Each day the service fetches your reference P&amp;L report from this HTTPS address and files the day's parity
        verdict. {oracle ? <>Now: <code data-testid="oracle-url">{oracle.url}</code>{oracle.bearerSecret ? " (with a bearer secret)" : ""}.</> : "None is set."}
      </p>
      {lastRun ? (
        <p data-testid="oracle-last-run">
          Last run {lastRun.ranAt.slice(0, 16).replace("T", " ")} UTC for {lastRun.asOf}:{" "}
          {lastRun.status === "filed" ? `verdict filed (revision ${lastRun.revision})` : `failed: ${lastRun.error}`}
        </p>
      ) : null}
      <form method="post" action="/settings/oracle">
        <label for="oracle-url">HTTPS address</label>
        <input id="oracle-url" name="url" type="url" required placeholder="https://reports.example.com/pnl.json" />
        <label for="oracle-secret">Bearer secret (optional)</label>
        <input id="oracle-secret" name="secret" type="password" autocomplete="off" />
        <button type="submit">Save the oracle</button>
      </form>
      <DestinationsSection destinations={destinations} />
      <h2>Mint a token</h2>
      <form method="post" action="/settings/tokens">
        <label for="label">Label</label>
        <input id="label" name="label" required maxlength={100} placeholder="e.g. my bookkeeper's script" />
        <label for="scope">Scope</label>
        <select id="scope" name="scope">
          <option value="read_only">read-only</option>
          <option value="read_write">read-write</option>
        </select>
        <button type="submit">Mint token</button>
      </form>
    </Page>
  );
}

pages.get("/settings", async (c) => {
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  return c.html(<Settings d1={c.env.INDEX_DB} tenant={tenant} />);
});

pages.post("/settings/tokens", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  const form = await c.req.parseBody();
  const label = String(form.label ?? "").trim().slice(0, 100) || "unnamed token";
  const scope = form.scope === "read_write" ? "read_write" : "read_only";
  const minted = await mintToken(c.env.INDEX_DB, tenant, label, scope, new Date());
  c.header("cache-control", "no-store");
  return c.html(<Settings d1={c.env.INDEX_DB} tenant={tenant} minted={minted} />, 201);
});

pages.post("/settings/oracle", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  const form = await c.req.parseBody();
  const url = String(form.url ?? "").trim();
  const secret = String(form.secret ?? "").trim();
  if (!isHttpsUrl(url)) {
    return c.html(<Settings d1={c.env.INDEX_DB} tenant={tenant} notice="The oracle's address must be an https:// URL." />, 400);
  }
  await setOracleSource(c.env.INDEX_DB, tenant, url, secret === "" ? null : secret.slice(0, 500), new Date());
  return c.html(<Settings d1={c.env.INDEX_DB} tenant={tenant} notice="The oracle is saved; the daily run will use it." />);
});

pages.post("/settings/destinations", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  const form = await c.req.parseBody();
  const input = {
    spreadsheetId: String(form.spreadsheet_id ?? "").trim(),
    sheet: String(form.sheet ?? "").trim(),
    accessToken: String(form.access_token ?? "").trim(),
  };
  const problem = destinationFormProblem(input);
  if (problem) return c.html(<Settings d1={c.env.INDEX_DB} tenant={tenant} notice={problem} />, 400);
  const connected = await connectDestination(c.env.INDEX_DB, tenant, input, new Date());
  return c.html(<Settings d1={c.env.INDEX_DB} tenant={tenant} notice={`Destination ${connected.id} is connected; exports now push to it.`} />, 201);
});

pages.post("/settings/destinations/:id/disconnect", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  const id = Number(c.req.param("id"));
  const done = Number.isSafeInteger(id) && (await disconnectDestination(c.env.INDEX_DB, tenant, id, new Date()));
  const notice = done ? `Destination ${id} is disconnected.` : "No live destination of yours has that id.";
  return c.html(<Settings d1={c.env.INDEX_DB} tenant={tenant} notice={notice} />, done ? 200 : 404);
});

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === "https:" && value.length <= 2000;
  } catch {
    return false;
  }
}

pages.post("/settings/tokens/:kid/revoke", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  const revoked = await revokeToken(c.env.INDEX_DB, tenant, c.req.param("kid"), new Date());
  const notice = revoked ? "The token is revoked." : "No live token of yours has that key id.";
  return c.html(<Settings d1={c.env.INDEX_DB} tenant={tenant} notice={notice} />, revoked ? 200 : 404);
});
