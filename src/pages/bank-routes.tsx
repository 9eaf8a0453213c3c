/**
 * The /settings routes of banks: connect one in the aggregator's own flow (its page opens
 * from a link; it sends the browser back to `/settings/banks/linked`), sign in to one
 * again (update mode), disconnect one. Session only, like every /settings form:
 * disconnecting a bank is deliberately not an API operation. Each is recorded as the
 * session's actor: the owner's, or a co-owner's (`person:<id>`).
 */
import { Hono, type Context } from "hono";
import { requireSameOrigin } from "../auth/caller";
import { findTenant } from "../auth/tenants";
import { disconnectBank, finishLinkByState, startLink, wordsOf } from "../banks/linking";
import type { Env } from "../env";
import { ContinueToBank } from "./banks";
import { idOf, NOT_AN_ID, refusalNotice, sessionCaller, Settings } from "./routes";

export const bankPages = new Hono<{ Bindings: Env }>();

/** The signed-in owner's tenant and the actor their session records, or undefined without a live session. */
async function signedIn(c: Context<{ Bindings: Env }>) {
  const caller = await sessionCaller(c);
  const tenant = caller ? await findTenant(c.env.INDEX_DB, caller.tenant.id) : undefined;
  return caller && tenant ? { tenant, actor: caller.actor } : undefined;
}

const origin = (c: Context) => new URL(c.req.url).origin;

bankPages.post("/settings/banks/link", async (c) => {
  requireSameOrigin(c.req.raw);
  const owner = await signedIn(c);
  if (!owner) return c.redirect("/signin", 303);
  const { tenant, actor } = owner;
  let url = "";
  const outcome = await refusalNotice(async () => {
    url = (await startLink(c.env, tenant, null, actor, origin(c), new Date())).url;
    return "";
  });
  if (outcome.status !== 200) return c.html(<Settings env={c.env} tenant={tenant.id} notice={outcome.notice} />, outcome.status, outcome.headers);
  return c.html(<ContinueToBank url={url} repair={false} />);
});

bankPages.post("/settings/banks/:id/reauthorise", async (c) => {
  requireSameOrigin(c.req.raw);
  const owner = await signedIn(c);
  if (!owner) return c.redirect("/signin", 303);
  const { tenant, actor } = owner;
  const id = idOf(c);
  if (id === null) return c.html(<Settings env={c.env} tenant={tenant.id} notice={NOT_AN_ID} />, 400);
  let url = "";
  const outcome = await refusalNotice(async () => {
    url = (await startLink(c.env, tenant, id, actor, origin(c), new Date())).url;
    return "";
  });
  if (outcome.status !== 200) return c.html(<Settings env={c.env} tenant={tenant.id} notice={outcome.notice} />, outcome.status, outcome.headers);
  return c.html(<ContinueToBank url={url} repair={true} />);
});

/** Where the aggregator's page sends the browser back: a top-level navigation from another site, so a GET (the session cookie is `SameSite=Lax`). */
bankPages.get("/settings/banks/linked", async (c) => {
  const owner = await signedIn(c);
  if (!owner) return c.redirect("/signin", 303);
  const { tenant, actor } = owner;
  const state = c.req.query("state") ?? "";
  let status: 200 | 202 | 409 = 200;
  const outcome = await refusalNotice(async () => {
    const linked = await finishLinkByState(c.env, tenant, state, origin(c), new Date());
    if (linked.kind === "pending") status = 202;
    if (linked.kind === "refused" || linked.kind === "expired" || linked.kind === "left") status = 409;
    return wordsOf(linked);
  });
  return c.html(<Settings env={c.env} tenant={tenant.id} notice={outcome.notice} />, outcome.status === 200 ? status : outcome.status, outcome.headers);
});

bankPages.post("/settings/banks/:id/disconnect", async (c) => {
  requireSameOrigin(c.req.raw);
  const owner = await signedIn(c);
  if (!owner) return c.redirect("/signin", 303);
  const { tenant, actor } = owner;
  const id = idOf(c);
  if (id === null) return c.html(<Settings env={c.env} tenant={tenant.id} notice={NOT_AN_ID} />, 400);
  const outcome = await refusalNotice(async () => {
    const done = await disconnectBank(c.env, tenant, id, actor, origin(c), new Date());
    const bank = done.connection.institution ?? `Bank connection ${id}`;
    return `${bank} is disconnected: its feed is pulled no more, and its lines stay in your books.`;
  });
  return c.html(<Settings env={c.env} tenant={tenant.id} notice={outcome.notice} />, outcome.status, outcome.headers);
});
