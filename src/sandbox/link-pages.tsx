/**
 * The sandbox's stand-ins that are pages: the aggregator's hosted link page
 * (`/sandbox/link/{link_token}`: fake institutions and their accounts; choosing one links it
 * and sends the browser back to the service, as the aggregator's page does; in update mode
 * it signs in to the item's bank again), and the mail outbox (`/sandbox/mail`: every mail
 * the sandbox mail service was asked to send, newest first, its links clickable).
 */
import { Hono } from "hono";
import { sandboxOn, type Env } from "../env";
import { ApiError } from "../errors";
import { formOf } from "../http/form-body";
import { Page } from "../pages/layout";
import { finishSandboxLink, institutionOf, SANDBOX_INSTITUTIONS, sandboxItem, sandboxLinkSession } from "../providers/bank/sandbox-link";
import { sandboxMailTo } from "../providers/email/sandbox";

export const sandboxLinkPages = new Hono<{ Bindings: Env }>();

for (const path of ["/link/*", "/mail"]) {
  sandboxLinkPages.use(path, async (c, next) => {
    if (!sandboxOn(c.env)) throw ApiError.notFound("The sandbox is off on this deployment.");
    await next();
  });
}

function Gone() {
  return (
    <Page title="Sandbox bank link">
      <h1>Sandbox bank link</h1>
      <p class="error" role="alert">This link is unknown, finished or expired. Go back to the service and start again.</p>
    </Page>
  );
}

sandboxLinkPages.get("/link/:token", async (c) => {
  const token = c.req.param("token");
  const session = await sandboxLinkSession(c.env.INDEX_DB, token);
  if (!session || session.outcome !== null || Date.parse(session.expiresAt) <= Date.now()) return c.html(<Gone />, 404);
  const repairing = session.itemId === null ? undefined : await sandboxItem(c.env.INDEX_DB, session.itemId);
  return c.html(
    <Page title="Sandbox bank link">
      <h1>Sandbox bank link</h1>
      <p>
        This page stands in for the aggregator's own: a real deployment sends you to the aggregator, where you choose your
        bank and sign in to it. Here the banks are made up and every sign-in works.
      </p>
      {repairing ? (
        <section aria-label="Sign in again">
          <h2>Sign in to {institutionOf(repairing.institutionId)?.name ?? "your bank"} again</h2>
          <form method="post" action={`/sandbox/link/${token}`}>
            <input type="hidden" name="choice" value="repair" />
            <button type="submit">Sign in again</button>
          </form>
        </section>
      ) : (
        SANDBOX_INSTITUTIONS.map((institution) => (
          <section aria-label={institution.name} data-testid="institution">
            <h2>{institution.name}</h2>
            <ul>
              {institution.accounts.map((a) => (
                <li>
                  {a.name} ····{a.mask} ({a.subtype})
                </li>
              ))}
            </ul>
            <form method="post" action={`/sandbox/link/${token}`}>
              <input type="hidden" name="choice" value={institution.institution_id} />
              <button type="submit" aria-label={`Connect ${institution.name}`}>Connect {institution.name}</button>
            </form>
          </section>
        ))
      )}
      <form method="post" action={`/sandbox/link/${token}`}>
        <input type="hidden" name="choice" value="leave" />
        <button type="submit">Leave without connecting</button>
      </form>
    </Page>,
  );
});

sandboxLinkPages.post("/link/:token", async (c) => {
  const choice = String((await formOf(c)).choice ?? "");
  const next = await finishSandboxLink(
    c.env.INDEX_DB,
    c.req.param("token"),
    choice === "repair" ? { repair: true } : choice === "leave" ? { leave: true } : { institutionId: choice },
  );
  if (next === null) return c.html(<Gone />, 404);
  return c.redirect(next, 303);
});

sandboxLinkPages.get("/mail", async (c) => {
  const mails = await sandboxMailTo(c.env.INDEX_DB, null);
  return c.html(
    <Page title="Sandbox mail">
      <h1>Sandbox mail</h1>
      <p>The mail the sandbox mail service was asked to send, newest first. Nothing here left this machine.</p>
      {mails.length === 0 ? <p>No mail yet.</p> : null}
      {mails.map((m) => (
        <article data-testid="mail">
          <h2>{m.subject}</h2>
          <p>
            To <code>{m.to}</code> at {m.at.slice(0, 19).replace("T", " ")} UTC
          </p>
          <pre style="white-space: pre-wrap">
            {m.text.split(/(https?:\/\/\S+)/).map((part) => (/^https?:\/\//.test(part) ? <a href={part}>{part}</a> : part))}
          </pre>
        </article>
      ))}
    </Page>,
  );
});
