/**
 * The pages a person reaches without a session: accepting an invitation from its emailed
 * link (/invitations/accept: a new account's name and password, or the password of the
 * account the address has), and a person's sign-in by email (/signin/person). Both end in a
 * person's session; a person with seats in several businesses lands on the practice
 * dashboard.
 */
import { Hono, type Context } from "hono";
import { setCookie } from "hono/cookie";
import { requireSameOrigin } from "../auth/caller";
import { acceptInvitation, emailAddress, openInvitation, signInPerson, type OpenInvitation } from "../auth/people";
import { INVITATION_DAYS } from "../auth/seats";
import { SESSION_COOKIE } from "../auth/sessions";
import { PASSWORD_LENGTH } from "../endpoints/signup/schema";
import type { Env } from "../env";
import { formOf } from "../http/form-body";
import { textProblem } from "../input/control-characters";
import { clientAddress } from "../limits/client-address";
import { Page } from "./layout";
import { SignIn } from "./routes";

export const personPages = new Hono<{ Bindings: Env }>();

const text = (value: unknown) => (typeof value === "string" ? value : "");

const SPENT = `This invitation cannot be used: it was accepted already, withdrawn by the owner, or it lapsed (an invitation lasts ${INVITATION_DAYS} days). Ask the owner for a new one.`;

function SpentPage() {
  return (
    <Page title="Invitation">
      <h1>Invitation</h1>
      <p class="error" role="alert" data-testid="invitation-spent">{SPENT}</p>
    </Page>
  );
}

function AcceptPage(props: { token: string; invitation: OpenInvitation; errors?: string[]; name?: string }) {
  const { invitation } = props;
  return (
    <Page title="Accept the invitation">
      <h1>Accept the invitation</h1>
      <p>
        You are invited to the books of <strong>{invitation.business}</strong> as {invitation.role === "owner" ? "an owner" : `a ${invitation.role}`}, at{" "}
        <code>{invitation.email}</code>.
      </p>
      {props.errors?.length ? (
        <ul class="error" role="alert">
          {props.errors.map((e) => <li>{e}</li>)}
        </ul>
      ) : null}
      <form method="post" action="/invitations/accept">
        <input type="hidden" name="token" value={props.token} />
        {invitation.hasAccount ? (
          <>
            <p>This address has an account already: its password adds the seat to it.</p>
            <label for="password">Your password</label>
            <input id="password" name="password" type="password" required autocomplete="current-password" />
          </>
        ) : (
          <>
            <label for="name">Your name</label>
            <input id="name" name="name" required maxlength={100} autocomplete="name" value={props.name ?? ""} />
            <label for="password">Choose a password ({PASSWORD_LENGTH.min} characters or more)</label>
            <input id="password" name="password" type="password" required minlength={PASSWORD_LENGTH.min} maxlength={PASSWORD_LENGTH.max} autocomplete="new-password" />
          </>
        )}
        <button type="submit">Accept and sign in</button>
      </form>
    </Page>
  );
}

function startPersonSession(c: Context<{ Bindings: Env }>, session: { value: string; expiresAt: Date }) {
  setCookie(c, SESSION_COOKIE, session.value, { httpOnly: true, secure: true, sameSite: "Lax", path: "/", expires: session.expiresAt });
}

personPages.get("/invitations/accept", async (c) => {
  const token = c.req.query("token") ?? "";
  const invitation = await openInvitation(c.env.INDEX_DB, token, new Date());
  if (!invitation) return c.html(<SpentPage />, 404);
  c.header("cache-control", "no-store");
  return c.html(<AcceptPage token={token} invitation={invitation} />);
});

personPages.post("/invitations/accept", async (c) => {
  requireSameOrigin(c.req.raw);
  const form = await formOf(c);
  const token = text(form.token);
  const now = new Date();
  const invitation = await openInvitation(c.env.INDEX_DB, token, now);
  if (!invitation) return c.html(<SpentPage />, 404);
  const name = text(form.name).trim();
  const password = text(form.password);
  const errors: string[] = [];
  if (!invitation.hasAccount) {
    const problem = textProblem(name, "single");
    if (problem) errors.push(`Your name ${problem.message}.`);
    else if (name === "" || name.length > 100) errors.push("Your name: 1 to 100 characters.");
    if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) errors.push(`The password: ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters.`);
  }
  if (errors.length > 0) return c.html(<AcceptPage token={token} invitation={invitation} errors={errors} name={name} />, 400);
  const accepted = await acceptInvitation(c.env, token, { name, password }, now);
  switch (accepted.kind) {
    case "spent":
      return c.html(<SpentPage />, 404);
    case "wrong_password":
      return c.html(<AcceptPage token={token} invitation={invitation} errors={["That is not this account's password."]} />, 401);
    case "seated":
      return c.html(<AcceptPage token={token} invitation={invitation} errors={[`You hold a seat at ${invitation.business} already; sign in at /signin.`]} />, 409);
    case "accepted":
      startPersonSession(c, accepted.session);
      return c.redirect("/app/review", 303);
  }
});

personPages.post("/signin/person", async (c) => {
  requireSameOrigin(c.req.raw);
  const form = await formOf(c);
  const typed = text(form.email).trim();
  const email = emailAddress(typed);
  const password = text(form.password);
  const refused = "That email and password do not match anyone holding a seat.";
  if (email === null || password === "") return c.html(<SignIn personError={refused} email={typed} />, 401);
  const outcome = await signInPerson(c.env, { email, password, address: clientAddress(c.req.raw, c.env), now: new Date() });
  switch (outcome.kind) {
    case "wait":
      return c.html(<SignIn personError={outcome.detail} email={typed} />, 429, { "retry-after": String(outcome.seconds) });
    case "refused":
      return c.html(<SignIn personError={refused} email={typed} />, 401);
    case "signed_in":
      startPersonSession(c, outcome.session);
      return c.redirect(outcome.seats > 1 ? "/app/practice" : "/app/review", 303);
  }
});
