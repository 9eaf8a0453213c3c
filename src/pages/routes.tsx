/**
 * src/pages/ (entry: this file; the workspace at /app has its own, app/routes.tsx): the
 * browser's pages (hono/jsx): sign-in, sign-up and the owner's account pages, /settings
 * with its tokens, oracle, destinations and banks, and the workspace. A face: may import
 * every room below the faces and the endpoints' shared schemas; imported by app.ts and the
 * sandbox (which reuses the pages' frame) (.dependency-cruiser.cjs: faces-on-top).
 */
/**
 * The browser pages: /signin (password -> svc_session), /signout, and /settings, where a
 * signed-in tenant lists, mints and revokes its personal access tokens, sets its parity
 * oracle and connects its spreadsheet destinations.
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { checkRule, requireSameOrigin, resolveCaller, type Caller } from "../auth/caller";
import { endSession, SESSION_COOKIE } from "../auth/sessions";
import { confirmGrant, offerGrant, revokeGrant } from "../auth/grants";
import { answerSignInCode, DEVICE_COOKIE, signIn, type SignInOutcome } from "../auth/signin";
import { findTenant, setPhone } from "../auth/tenants";
import { mintToken, revokeToken, type MintedToken } from "../auth/tokens";
import { ledgerOf, sandboxOn, type Env } from "../env";
import { ApiError, settle } from "../errors";
import { formOf } from "../http/form-body";
import { SIGNIN } from "../limits/attempts";
import { clientAddress } from "../limits/client-address";
import { releaseDraft } from "../messages/sms";
import { carrierFor } from "../providers/sms";
import { E164 } from "../providers/sms/types";
import { connectDestination, disconnectDestination } from "../index-db/destinations";
import { setOracleSource } from "../index-db/oracle";
import { mayLinkBanks } from "../banks/linking";
import { AccountSection } from "./account";
import { BanksSection } from "./banks";
import { missingForDestinations, sealRefreshToken } from "../exports/spreadsheet-access";
import { DestinationsSection, destinationFormProblem } from "./destinations";
import { GrantsSection, PhoneSection, ThreadSection, type PendingOffer } from "./grants";
import { Page } from "./layout";
import { AppPage, RefusalPage } from "./app/layout";
import { gatherSettings, MeterSection, SharedPriorSection, SyncSection } from "./app/settings";
import { textProblem, type TextLines } from "../input/control-characters";
import { integerProblem } from "../input/numbers";

export const pages = new Hono<{ Bindings: Env }>();

/** The sign-in page: the owner's (the tenant's handle and password), and a person's (their email and password). */
export function SignIn(props: { error?: string; tenant?: string; personError?: string; email?: string }) {
  return (
    <Page title="Sign in">
      <h1>Sign in</h1>
      <h2>The owner</h2>
      {props.error ? <p class="error" role="alert">{props.error}</p> : null}
      <form method="post" action="/signin">
        <label for="tenant">Tenant</label>
        <input id="tenant" name="tenant" autocomplete="username" required value={props.tenant ?? ""} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>
      <h2>A bookkeeper, a viewer or anyone invited</h2>
      {props.personError ? <p class="error" role="alert">{props.personError}</p> : null}
      <form method="post" action="/signin/person">
        <label for="person-email">Email</label>
        <input id="person-email" name="email" type="email" autocomplete="username" required value={props.email ?? ""} />
        <label for="person-password">Password</label>
        <input id="person-password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Continue with your email</button>
      </form>
      <p>
        <a href="/password-reset">Forgot the password?</a> · New here? <a href="/signup">Sign up</a>.
      </p>
    </Page>
  );
}

/** The code step of a sign-in from a browser the tenant has not seen, while the tenant sees many failed sign-ins. */
function SignInCode(props: { tenant: string; challenge: string; wrongCode: boolean }) {
  return (
    <Page title="Sign in">
      <h1>Sign in: the texted code</h1>
      <p>
        This tenant sees many failed sign-ins lately, so a browser it has not seen before needs a code besides the
        password. If the password was right, a code was texted to the tenant's enrolled phone.
      </p>
      {props.wrongCode ? (
        <p class="error" role="alert">
          That code does not match, or it can no longer be used (a code takes {SIGNIN.code.maxWrong} tries within{" "}
          {SIGNIN.code.minutes} minutes). <a href="/signin">Sign in again</a> for a new one.
        </p>
      ) : null}
      <form method="post" action="/signin/code">
        <input type="hidden" name="tenant" value={props.tenant} />
        <input type="hidden" name="challenge" value={props.challenge} />
        <label for="code">Code</label>
        <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required />
        <button type="submit">Sign in</button>
      </form>
    </Page>
  );
}

pages.get("/signin", (c) => c.html(<SignIn />));

/** The page for a sign-in's outcome; a success sets the session and the device cookie and goes to the workspace. */
function answerSignIn(c: Context<{ Bindings: Env }>, tenantId: string, outcome: SignInOutcome) {
  switch (outcome.kind) {
    case "wait":
      return c.html(<SignIn error={outcome.detail} tenant={tenantId} />, 429, { "retry-after": String(outcome.seconds) });
    case "refused":
      return c.html(<SignIn error="That tenant and password do not match." tenant={tenantId} />, 401);
    case "code":
      return c.html(<SignInCode tenant={tenantId} challenge={outcome.challenge} wrongCode={outcome.wrongCode} />, outcome.wrongCode ? 401 : 200);
    case "signed_in":
      setCookie(c, SESSION_COOKIE, outcome.session.value, { httpOnly: true, secure: true, sameSite: "Lax", path: "/", expires: outcome.session.expiresAt });
      // Sent only to the sign-in forms, and only from this site's own pages.
      setCookie(c, DEVICE_COOKIE, outcome.device.value, { httpOnly: true, secure: true, sameSite: "Strict", path: "/signin", expires: outcome.device.expiresAt });
      return c.redirect("/app/review", 303);
  }
}

function attemptOf(c: Context<{ Bindings: Env }>, tenant: string) {
  return {
    tenant,
    device: getCookie(c, DEVICE_COOKIE),
    address: clientAddress(c.req.raw, c.env),
    now: new Date(),
    defer: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
  };
}

pages.post("/signin", async (c) => {
  requireSameOrigin(c.req.raw);
  const form = await formOf(c);
  const tenantId = String(form.tenant ?? "").trim();
  const password = String(form.password ?? "");
  if (!tenantId || !password) return answerSignIn(c, tenantId, { kind: "refused" });
  return answerSignIn(c, tenantId, await signIn(c.env, { ...attemptOf(c, tenantId), password }));
});

pages.post("/signin/code", async (c) => {
  requireSameOrigin(c.req.raw);
  const form = await formOf(c);
  const tenantId = String(form.tenant ?? "").trim();
  const challenge = String(form.challenge ?? "");
  const code = String(form.code ?? "").trim();
  return answerSignIn(c, tenantId, await answerSignInCode(c.env, { ...attemptOf(c, tenantId), challenge, code }));
});

pages.post("/signout", async (c) => {
  requireSameOrigin(c.req.raw);
  const value = getCookie(c, SESSION_COOKIE);
  if (value) await endSession(c.env.INDEX_DB, value, new Date());
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
  return c.redirect("/signin", 303);
});

/**
 * The signed-in owner's session (the `session` rule of CREDENTIAL_RULES, as the API's
 * owner-only operations): its caller, or undefined without a live session (the page then
 * sends the browser to /signin). Any other role is refused (`role_refused`, 403; the
 * settings pages answer it with a page, `ownerPagesOnly`).
 */
export function sessionCaller(c: Context<{ Bindings: Env }>): Promise<Caller | undefined> {
  // Resolved once a request: the settings pages' guard and their handler both ask.
  let resolved = sessionCallers.get(c.req.raw);
  if (!resolved) sessionCallers.set(c.req.raw, (resolved = resolveSessionCaller(c)));
  return resolved;
}

const sessionCallers = new WeakMap<Request, Promise<Caller | undefined>>();

async function resolveSessionCaller(c: Context<{ Bindings: Env }>): Promise<Caller | undefined> {
  if (!getCookie(c, SESSION_COOKIE)) return undefined;
  const now = new Date();
  let caller: Caller;
  try {
    caller = await resolveCaller(c.req.raw, c.env.INDEX_DB, now);
  } catch (error) {
    if (error instanceof ApiError && (error.code === "credential_refused" || error.code === "credential_missing")) return undefined;
    throw error;
  }
  if (caller.kind !== "session") return undefined;
  checkRule(caller, "session", c.req.raw, now);
  return caller;
}

/** The signed-in owner's tenant, or undefined (sessionCaller). */
export async function sessionTenant(c: Context<{ Bindings: Env }>): Promise<string | undefined> {
  return (await sessionCaller(c))?.tenant.id;
}

/** The settings pages are the owner's: a person of another role gets a refusal page (403 `role_refused`), never the settings. */
export const ownerPagesOnly: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  try {
    await sessionCaller(c);
  } catch (error) {
    if (error instanceof ApiError && error.code === "role_refused") {
      return c.html(<RefusalPage status={403} title="Not allowed" detail={error.detail} />, 403);
    }
    throw error;
  }
  await next();
};

pages.use("/settings", ownerPagesOnly);
pages.use("/settings/*", ownerPagesOnly);
pages.use("/app/settings", ownerPagesOnly);

export interface SettingsProps {
  env: Env;
  tenant: string;
  minted?: MintedToken;
  notice?: string;
  pending?: PendingOffer;
  grantToken?: string;
  /** A sync request's state, after one was made from the page. */
  sync?: string;
  /** The shared merchant prior's choice, after one was made from the page. */
  prior?: string;
}

/** The settings gathered in one place, in the workspace's frame: the account, the banks, their sync runs, the meter and the shared merchant prior, tokens, the oracle, destinations, the phone, grants and the thread. */
export async function Settings(props: SettingsProps) {
  const now = new Date();
  // The session that named the tenant was read from the index in this request.
  const { index, books, gathered } = (await gatherSettings(props.env, props.tenant, now))!;
  const { tenant, tokens, oracle, destinations, grants } = index;
  const { messages: thread, drafts, connections, queue, lastOracleRun: lastRun } = books;
  return (
    <AppPage title={`Settings for ${props.tenant}`} area="settings" tenant={props.tenant} queue={queue}>
      {props.minted ? (
        <section aria-label="New token">
          <h2>Your new token</h2>
          <p>Copy it now: it is shown once and stored only as a hash.</p>
          <p class="secret" data-testid="new-token">{props.minted.token}</p>
        </section>
      ) : null}
      {props.notice ? <p role="status">{props.notice}</p> : null}
      <AccountSection tenant={tenant} />
      <BanksSection connections={connections} tier={tenant.tier} canLink={mayLinkBanks(tenant)} />
      <SyncSection gathered={gathered} sync={props.sync} />
      <MeterSection gathered={gathered} />
      <SharedPriorSection books={books} gathered={gathered} prior={props.prior} />
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
      <DestinationsSection destinations={destinations} sandbox={sandboxOn(props.env)} tenant={props.tenant} />
      <PhoneSection phone={tenant.phone} />
      <GrantsSection grants={grants} pending={props.pending} grantToken={props.grantToken} />
      <ThreadSection messages={thread} drafts={drafts} />
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
    </AppPage>
  );
}

/**
 * A form field refused as the API refuses the same field (src/input): the notice names the
 * field and what was found in it, or null when the text may be saved.
 */
function textNotice(field: string, value: string, lines: TextLines = "single"): string | null {
  const problem = textProblem(value, lines);
  return problem ? `The ${field} ${problem.message}.` : null;
}

/** The id an address names (`/settings/grants/7/revoke`), or null when it is not an integer as the API reads them. */
export function idOf(c: Context<{ Bindings: Env }>): number | null {
  const id = c.req.param("id");
  return integerProblem(id) === null ? Number(id) : null;
}

export const NOT_AN_ID = "The address does not name an id: ids are whole numbers in decimal digits.";

pages.on("GET", ["/settings", "/app/settings"], async (c) => {
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  const [sync, prior] = [c.req.query("sync"), c.req.query("prior")];
  return c.html(
    <Settings
      env={c.env}
      tenant={tenant}
      sync={sync === "recorded" || sync === "already-pending" ? sync : undefined}
      prior={prior === "in" || prior === "out" ? prior : undefined}
    />,
  );
});

pages.post("/settings/tokens", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  const form = await formOf(c);
  const typed = String(form.label ?? "");
  const refused = textNotice("label", typed);
  if (refused) return c.html(<Settings env={c.env} tenant={tenant} notice={refused} />, 400);
  const label = typed.trim().slice(0, 100) || "unnamed token";
  const scope = form.scope === "read_write" ? "read_write" : "read_only";
  const minted = await mintToken(c.env.INDEX_DB, tenant, label, scope, new Date());
  c.header("cache-control", "no-store");
  return c.html(<Settings env={c.env} tenant={tenant} minted={minted} />, 201);
});

pages.post("/settings/oracle", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  const form = await formOf(c);
  const refused = textNotice("address", String(form.url ?? "")) ?? textNotice("bearer secret", String(form.secret ?? ""));
  if (refused) return c.html(<Settings env={c.env} tenant={tenant} notice={refused} />, 400);
  const url = String(form.url ?? "").trim();
  const secret = String(form.secret ?? "").trim();
  if (!isHttpsUrl(url)) {
    return c.html(<Settings env={c.env} tenant={tenant} notice="The oracle's address must be an https:// URL." />, 400);
  }
  await setOracleSource(c.env.INDEX_DB, tenant, url, secret === "" ? null : secret.slice(0, 500), new Date());
  return c.html(<Settings env={c.env} tenant={tenant} notice="The oracle is saved; the daily run will use it." />);
});

pages.post("/settings/destinations", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  const form = await formOf(c);
  const refused = textNotice("sheet", String(form.sheet ?? "")) ?? textNotice("refresh token", String(form.refresh_token ?? ""));
  if (refused) return c.html(<Settings env={c.env} tenant={tenant} notice={refused} />, 400);
  const input = {
    spreadsheetId: String(form.spreadsheet_id ?? "").trim(),
    sheet: String(form.sheet ?? "").trim(),
    refreshToken: String(form.refresh_token ?? "").trim(),
  };
  const problem = destinationFormProblem(input);
  if (problem) return c.html(<Settings env={c.env} tenant={tenant} notice={problem} />, 400);
  const missing = missingForDestinations(c.env);
  if (missing) return c.html(<Settings env={c.env} tenant={tenant} notice={`${missing} No destination can be connected; nothing was saved.`} />, 503);
  const sealedRefreshToken = await sealRefreshToken(c.env, tenant, input.refreshToken);
  const connected = await connectDestination(c.env.INDEX_DB, tenant, { spreadsheetId: input.spreadsheetId, sheet: input.sheet, sealedRefreshToken }, new Date());
  return c.html(<Settings env={c.env} tenant={tenant} notice={`Destination ${connected.id} is connected; exports now push to it.`} />, 201);
});

pages.post("/settings/destinations/:id/disconnect", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  const id = idOf(c);
  if (id === null) return c.html(<Settings env={c.env} tenant={tenant} notice={NOT_AN_ID} />, 400);
  const done = await disconnectDestination(c.env.INDEX_DB, tenant, id, new Date());
  const notice = done ? `Destination ${id} is disconnected.` : "No live destination of yours has that id.";
  return c.html(<Settings env={c.env} tenant={tenant} notice={notice} />, done ? 200 : 404);
});

pages.post("/settings/phone", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenant = await sessionTenant(c);
  if (!tenant) return c.redirect("/signin", 303);
  const phone = String((await formOf(c)).phone ?? "").trim();
  if (!E164.test(phone)) return c.html(<Settings env={c.env} tenant={tenant} notice="The phone must be in E.164, e.g. +15555550123." />, 400);
  await setPhone(c.env.INDEX_DB, tenant, phone);
  return c.html(<Settings env={c.env} tenant={tenant} notice="Your phone is changed; codes and replies now go to it." />);
});

export type NoticeStatus = 200 | 400 | 403 | 404 | 409 | 429 | 503;
const NOTICE_STATUSES: number[] = [400, 403, 404, 409, 429, 503];

/** The grant and message forms call the same domain code as the API; a refusal is shown as the page's notice. */
export async function refusalNotice(work: () => Promise<string>): Promise<{ notice: string; status: NoticeStatus; headers: Record<string, string> }> {
  try {
    return { notice: await work(), status: 200, headers: {} };
  } catch (error) {
    if (error instanceof ApiError && NOTICE_STATUSES.includes(error.status)) {
      const headers: Record<string, string> = error.retryAfterSeconds !== undefined ? { "retry-after": String(error.retryAfterSeconds) } : {};
      return { notice: error.detail, status: error.status as NoticeStatus, headers };
    }
    throw error;
  }
}

pages.post("/settings/grants", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenantId = await sessionTenant(c);
  if (!tenantId) return c.redirect("/signin", 303);
  const form = await formOf(c);
  const refused = textNotice("viewer's name", String(form.viewer_name ?? ""));
  if (refused) return c.html(<Settings env={c.env} tenant={tenantId} notice={refused} />, 400);
  const offer = { viewer_name: String(form.viewer_name ?? "").trim().slice(0, 100), viewer_channel: String(form.viewer_channel ?? "").trim() };
  if (offer.viewer_name === "" || !E164.test(offer.viewer_channel)) {
    return c.html(<Settings env={c.env} tenant={tenantId} notice="Name the viewer and give their phone in E.164." />, 400);
  }
  const tenant = (await findTenant(c.env.INDEX_DB, tenantId))!;
  let requestId = 0;
  const outcome = await refusalNotice(async () => {
    requestId = (await offerGrant(c.env, tenant, carrierFor(c.env, tenant), offer, new Date())).request_id;
    return "A code was texted to your phone.";
  });
  const pending = outcome.status === 200 ? { requestId, viewerName: offer.viewer_name, viewerChannel: offer.viewer_channel } : undefined;
  return c.html(<Settings env={c.env} tenant={tenantId} notice={outcome.notice} pending={pending} />, outcome.status);
});

pages.post("/settings/grants/:id/confirm", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenantId = await sessionTenant(c);
  if (!tenantId) return c.redirect("/signin", 303);
  const form = await formOf(c);
  const input = { code: String(form.code ?? "").trim(), viewer_name: String(form.viewer_name ?? ""), viewer_channel: String(form.viewer_channel ?? "") };
  const requestId = idOf(c);
  if (requestId === null) return c.html(<Settings env={c.env} tenant={tenantId} notice={NOT_AN_ID} />, 400);
  const refused = textNotice("viewer's name", input.viewer_name);
  if (refused) return c.html(<Settings env={c.env} tenant={tenantId} notice={refused} />, 400);
  let token: string | undefined;
  const outcome = await refusalNotice(async () => {
    const confirmed = await confirmGrant(c.env, tenantId, requestId, input, new Date(), clientAddress(c.req.raw, c.env));
    token = confirmed.token;
    return `The grant to ${confirmed.grant.viewer_name} is live for 24 hours.`;
  });
  const retry = outcome.status === 403 || outcome.status === 429 ? { requestId, viewerName: input.viewer_name, viewerChannel: input.viewer_channel } : undefined;
  c.header("cache-control", "no-store");
  return c.html(<Settings env={c.env} tenant={tenantId} notice={outcome.notice} grantToken={token} pending={retry} />, outcome.status, outcome.headers);
});

pages.post("/settings/grants/:id/revoke", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenantId = await sessionTenant(c);
  if (!tenantId) return c.redirect("/signin", 303);
  const grantId = idOf(c);
  if (grantId === null) return c.html(<Settings env={c.env} tenant={tenantId} notice={NOT_AN_ID} />, 400);
  const grant = await revokeGrant(c.env.INDEX_DB, tenantId, grantId, new Date());
  const notice = grant ? `The grant to ${grant.viewer_name} is revoked.` : "You have no such grant.";
  return c.html(<Settings env={c.env} tenant={tenantId} notice={notice} />, grant ? 200 : 404);
});

pages.post("/settings/messages", async (c) => {
  requireSameOrigin(c.req.raw);
  const caller = await sessionCaller(c);
  if (!caller) return c.redirect("/signin", 303);
  const tenantId = caller.tenant.id;
  const typed = String((await formOf(c)).body ?? "");
  const refused = textNotice("reply", typed, "multi");
  if (refused) return c.html(<Settings env={c.env} tenant={tenantId} notice={refused} />, 400);
  const body = typed.trim().slice(0, 1600);
  if (body === "") return c.html(<Settings env={c.env} tenant={tenantId} notice="Write the reply first." />, 400);
  settle(await ledgerOf(c.env, tenantId).draftReply(body, caller.actor));
  return c.html(<Settings env={c.env} tenant={tenantId} notice="The draft is saved; it is sent only when you release it." />, 201);
});

pages.post("/settings/messages/:id/release", async (c) => {
  requireSameOrigin(c.req.raw);
  const caller = await sessionCaller(c);
  if (!caller) return c.redirect("/signin", 303);
  const tenantId = caller.tenant.id;
  const messageId = idOf(c);
  if (messageId === null) return c.html(<Settings env={c.env} tenant={tenantId} notice={NOT_AN_ID} />, 400);
  const outcome = await refusalNotice(async () => {
    const sent = await releaseDraft(c.env, tenantId, messageId, caller.actor);
    return sent === "sent" ? "The reply is sent." : "The reply could not be sent; it is listed as failed.";
  });
  return c.html(<Settings env={c.env} tenant={tenantId} notice={outcome.notice} />, outcome.status);
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
  return c.html(<Settings env={c.env} tenant={tenant} notice={notice} />, revoked ? 200 : 404);
});
