/**
 * The pages of an owner's account before and around /settings: /signup (the same sign-up
 * as `POST /api/v1/sign-up`, then signed in), /verify-email (the emailed link, confirmed
 * with a button: a mail client's link checker that fetches the link spends nothing),
 * /password-reset (a link mailed to the owner's verified email, or to a person's own, then
 * a new password), and /settings/email/verify (another verification link).
 */
import { Hono, type Context } from "hono";
import { setCookie } from "hono/cookie";
import { requireSameOrigin } from "../auth/caller";
import { randomSecret } from "../auth/crypto";
import { emailVerificationLink, liveEmailLink, sendOwnerMail, verifyOwnerEmail } from "../auth/owner-mail";
import { askForPasswordReset, resetAskedWords, resetPassword, type ResetAccount } from "../auth/password-reset";
import { SESSION_COOKIE, startSession } from "../auth/sessions";
import { HANDLE_RULE, signUpPublicly } from "../auth/signup";
import { findTenant } from "../auth/tenants";
import { PASSWORD_LENGTH, signUpBody } from "../endpoints/signup/schema";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { formOf } from "../http/form-body";
import { clientAddress } from "../limits/client-address";
import { CONNECTION_CAPS, FREE_TIER_WINDOW_HOURS } from "../tiers";
import { Page } from "./layout";
import { refusalNotice, sessionTenant, Settings } from "./routes";

export const accountPages = new Hono<{ Bindings: Env }>();

interface SignUpForm {
  business_name?: string;
  tenant?: string;
  owner_email?: string;
  tier?: string;
  phone?: string;
}

function SignUpPage(props: { values?: SignUpForm; errors?: string[]; signupKey: string }) {
  const v = props.values ?? {};
  return (
    <Page title="Sign up">
      <h1>Sign up your business</h1>
      {props.errors && props.errors.length > 0 ? (
        <ul class="error" role="alert">
          {props.errors.map((e) => (
            <li>{e}</li>
          ))}
        </ul>
      ) : null}
      <form method="post" action="/signup">
        <input type="hidden" name="idempotency_key" value={props.signupKey} />
        <label for="business-name">Business name</label>
        <input id="business-name" name="business_name" required maxlength={200} value={v.business_name ?? ""} autocomplete="organization" />
        <label for="tenant">Tenant handle ({HANDLE_RULE}; you sign in with it)</label>
        <input id="tenant" name="tenant" required minlength={3} maxlength={40} pattern="[a-z0-9\-]{3,40}" value={v.tenant ?? ""} autocomplete="username" />
        <label for="owner-email">Your email</label>
        <input id="owner-email" name="owner_email" type="email" required maxlength={254} value={v.owner_email ?? ""} autocomplete="email" />
        <label for="password">Password ({PASSWORD_LENGTH.min} characters or more)</label>
        <input id="password" name="password" type="password" required minlength={PASSWORD_LENGTH.min} maxlength={PASSWORD_LENGTH.max} autocomplete="new-password" />
        <label for="tier">Tier</label>
        <select id="tier" name="tier">
          <option value="paid" selected={v.tier !== "free"}>paid: every line, up to {CONNECTION_CAPS.paid} banks</option>
          <option value="free" selected={v.tier === "free"}>free: the last {FREE_TIER_WINDOW_HOURS} hours of lines, {CONNECTION_CAPS.free} bank</option>
        </select>
        <label for="phone">Mobile phone for codes (optional, E.164, e.g. +15555550123)</label>
        <input id="phone" name="phone" type="tel" maxlength={16} value={v.phone ?? ""} autocomplete="tel" />
        <label>
          <input type="checkbox" name="terms_accepted" value="yes" required style="width:auto" /> I accept the terms of service
        </label>
        <button type="submit">Sign up</button>
      </form>
      <p>Signed up already? <a href="/signin">Sign in</a>.</p>
    </Page>
  );
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const address = (c: Context<{ Bindings: Env }>) => clientAddress(c.req.raw, c.env);
const origin = (c: Context) => new URL(c.req.url).origin;

accountPages.get("/signup", (c) => c.html(<SignUpPage signupKey={randomSecret(24)} />));

accountPages.post("/signup", async (c) => {
  requireSameOrigin(c.req.raw);
  const form = await formOf(c);
  const values: SignUpForm = { business_name: text(form.business_name), tenant: text(form.tenant).trim(), owner_email: text(form.owner_email).trim(), tier: text(form.tier), phone: text(form.phone).trim() };
  const key = /^[A-Za-z0-9_.:-]{16,200}$/.test(text(form.idempotency_key)) ? text(form.idempotency_key) : randomSecret(24);
  const parsed = signUpBody.safeParse({
    ...values,
    password: text(form.password),
    terms_accepted: form.terms_accepted === "yes",
    phone: values.phone === "" ? undefined : values.phone,
    idempotency_key: key,
  });
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => `${String(i.path[0] ?? "form").replaceAll("_", " ")}: ${i.message}`);
    return c.html(<SignUpPage values={values} errors={errors} signupKey={key} />, 400);
  }
  const body = parsed.data;
  const now = new Date();
  let tenant = "";
  const outcome = await refusalNotice(async () => {
    const signed = await signUpPublicly(c.env, body, address(c), origin(c), now);
    tenant = signed.tenant.id;
    return "";
  });
  if (outcome.status !== 200) return c.html(<SignUpPage values={values} errors={[outcome.notice]} signupKey={key} />, outcome.status, outcome.headers);
  const session = await startSession(c.env.INDEX_DB, tenant, now);
  setCookie(c, SESSION_COOKIE, session.value, { httpOnly: true, secure: true, sameSite: "Lax", path: "/", expires: session.expiresAt });
  return c.redirect("/settings", 303);
});

function Message(props: { title: string; children: unknown }) {
  return (
    <Page title={props.title}>
      <h1>{props.title}</h1>
      {props.children as never}
    </Page>
  );
}

const SPENT = "This link is unknown, used already or expired.";

accountPages.get("/verify-email", async (c) => {
  const token = c.req.query("token") ?? "";
  const link = await liveEmailLink(c.env.INDEX_DB, token, "verify_email", new Date());
  if (!link) return c.html(<Message title="Verify your email"><p class="error">{SPENT} Sign in and ask for another on Settings.</p></Message>, 404);
  return c.html(
    <Message title="Verify your email">
      {/* A verification link is always a tenant's: only the owner's email is verified. */}
      <p>Verify <code>{link.email}</code> as the owner's email of <strong>{link.tenantId}</strong>?</p>
      <form method="post" action="/verify-email">
        <input type="hidden" name="token" value={token} />
        <button type="submit">Verify my email</button>
      </form>
    </Message>,
  );
});

accountPages.post("/verify-email", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenant = await verifyOwnerEmail(c.env.INDEX_DB, text((await formOf(c)).token), new Date());
  if (!tenant) return c.html(<Message title="Verify your email"><p class="error">{SPENT} Sign in and ask for another on Settings.</p></Message>, 404);
  return c.html(
    <Message title="Your email is verified">
      <p role="status">The owner's email of <strong>{tenant}</strong> is verified. You can connect your bank now.</p>
      <p><a href="/settings">Go to settings</a></p>
    </Message>,
  );
});

accountPages.post("/settings/email/verify", async (c) => {
  requireSameOrigin(c.req.raw);
  const tenantId = await sessionTenant(c);
  if (!tenantId) return c.redirect("/signin", 303);
  const tenant = (await findTenant(c.env.INDEX_DB, tenantId))!;
  if (tenant.ownerEmail === null || tenant.emailVerifiedAt !== null) {
    return c.html(<Settings env={c.env} tenant={tenantId} notice="There is no email to verify." />, 409);
  }
  const link = await emailVerificationLink(c.env.INDEX_DB, tenant.id, tenant.ownerEmail, origin(c), new Date());
  await link.statement;
  const sent = await sendOwnerMail(c.env, tenant, link.mail);
  const notice = sent.sent ? `A new link was mailed to ${tenant.ownerEmail}.` : `The link could not be mailed: ${sent.reason}.`;
  return c.html(<Settings env={c.env} tenant={tenantId} notice={notice} />, sent.sent ? 200 : 503);
});

function ResetRequestPage(props: { notice?: string; error?: string }) {
  return (
    <Page title="Reset your password">
      <h1>Reset your password</h1>
      {props.notice ? <p role="status">{props.notice}</p> : null}
      {props.error ? <p class="error" role="alert">{props.error}</p> : null}
      <h2>The owner</h2>
      <form method="post" action="/password-reset">
        <label for="tenant">Tenant handle</label>
        <input id="tenant" name="tenant" required autocomplete="username" />
        <button type="submit">Mail me a link</button>
      </form>
      <h2>A bookkeeper, a viewer or anyone invited</h2>
      <form method="post" action="/password-reset">
        <label for="reset-email">Your email</label>
        <input id="reset-email" name="email" type="email" required autocomplete="username" />
        <button type="submit">Mail me a link</button>
      </form>
      <p><a href="/signin">Sign in</a></p>
    </Page>
  );
}

accountPages.get("/password-reset", (c) => c.html(<ResetRequestPage />));

accountPages.post("/password-reset", async (c) => {
  requireSameOrigin(c.req.raw);
  const form = await formOf(c);
  // The person's form sends an email; the owner's a tenant handle.
  const account: ResetAccount = form.email !== undefined ? { email: text(form.email).trim() } : { tenant: text(form.tenant).trim() };
  try {
    await askForPasswordReset(c.env, account, { address: address(c), origin: origin(c), now: new Date(), defer: (work) => c.executionCtx.waitUntil(work) });
  } catch (error) {
    if (!(error instanceof ApiError) || error.retryAfterSeconds === undefined) throw error;
    return c.html(<ResetRequestPage error={error.detail} />, 429, { "retry-after": String(error.retryAfterSeconds) });
  }
  return c.html(<ResetRequestPage notice={resetAskedWords(account)} />);
});

function NewPasswordPage(props: { token: string; whose: string; error?: string }) {
  return (
    <Page title="Choose a new password">
      <h1>Choose a new password</h1>
      <p>For {props.whose}.</p>
      {props.error ? <p class="error" role="alert">{props.error}</p> : null}
      <form method="post" action="/password-reset/new">
        <input type="hidden" name="token" value={props.token} />
        <label for="password">New password ({PASSWORD_LENGTH.min} characters or more)</label>
        <input id="password" name="password" type="password" required minlength={PASSWORD_LENGTH.min} maxlength={PASSWORD_LENGTH.max} autocomplete="new-password" />
        <button type="submit">Set the password</button>
      </form>
    </Page>
  );
}

/** Whose password a reset link sets, in words. */
const whoseWords = (link: { tenantId: string | null; email: string }) => (link.tenantId !== null ? `the owner of ${link.tenantId}` : link.email);

accountPages.get("/password-reset/new", async (c) => {
  const token = c.req.query("token") ?? "";
  const link = await liveEmailLink(c.env.INDEX_DB, token, "reset_password", new Date());
  if (!link) return c.html(<ResetRequestPage error={`${SPENT} Ask for another.`} />, 404);
  c.header("cache-control", "no-store");
  return c.html(<NewPasswordPage token={token} whose={whoseWords(link)} />);
});

accountPages.post("/password-reset/new", async (c) => {
  requireSameOrigin(c.req.raw);
  const form = await formOf(c);
  const token = text(form.token);
  const password = text(form.password);
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) {
    const link = await liveEmailLink(c.env.INDEX_DB, token, "reset_password", new Date());
    if (!link) return c.html(<ResetRequestPage error={`${SPENT} Ask for another.`} />, 404);
    return c.html(<NewPasswordPage token={token} whose={whoseWords(link)} error={`A password is ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters.`} />, 400);
  }
  const set = await resetPassword(c.env.INDEX_DB, token, password, new Date());
  if (!set) return c.html(<ResetRequestPage error={`${SPENT} Ask for another.`} />, 404);
  const whose = set.account === "owner" ? set.tenantId : set.email;
  return c.html(
    <Message title="Your password is changed">
      <p role="status">The password of <strong>{whose}</strong> is changed, and every browser signed in with it was signed out.</p>
      <p><a href="/signin">Sign in</a></p>
    </Message>,
  );
});
