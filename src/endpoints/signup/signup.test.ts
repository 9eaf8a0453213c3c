/**
 * Signing up, with the sandbox off: `POST /api/v1/sign-up` and the /signup page make the
 * tenant's object and its index rows together, mail the owner a verification link through
 * the mail API (a fake of it, test/fixtures/fake-mail.ts), refuse taken and reserved
 * handles, are limited per client address, answer a retry with the same key as the first,
 * and leave nothing anyone can reach when they fail half-way. Then the emailed links:
 * verifying the email, resetting the password. And the sandbox's sign-up on the same path.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { purgeEmailLinks } from "../../auth/owner-mail";
import { passwordResetLink } from "../../auth/password-reset";
import { findTenant } from "../../auth/tenants";
import { ledgerOf } from "../../env";
import { PUBLIC } from "../../limits/attempts";
import { ledgerOpening } from "../../ledger/store/schema";
import { FakeMail, MAIL_BASE_URL, MAIL_FROM } from "../../../test/fixtures/fake-mail";
import { restoreOutboundAfterEach, routeOutbound } from "../../../test/fixtures/outbound";
import { api, BASE, createTenant, uniqueSlug } from "../../../test/fixtures/sandbox";
import {
  cookieOf,
  freshAddress,
  linkIn,
  offFetch,
  PASSWORD,
  postForm,
  postSignUp,
  signedUp,
  signInAs,
  signUpBody,
  verifyFromMail,
} from "../../../test/fixtures/sandbox-off";

restoreOutboundAfterEach();

let mail: FakeMail;
beforeEach(() => {
  mail = new FakeMail();
  routeOutbound({ [MAIL_BASE_URL]: mail });
});

const json = async (answer: Response) => ({ status: answer.status, body: (await answer.json()) as any });
const ledgerOpened = (tenant: string) =>
  runInDurableObject(ledgerOf(env, tenant), (instance) => instance.db.select().from(ledgerOpening).all());

describe("sign_up, with the sandbox off", () => {
  it("signs a business up: its ledger opened, its row, a verification link mailed; the owner signs in", async () => {
    const body = signUpBody({ phone: "+15555550123" });
    const answer = await json(await postSignUp(body));
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      tenant: body.tenant,
      business_name: body.business_name,
      tier: "paid",
      owner_email: body.owner_email,
      email_verified: false,
      verification_email: "sent",
      verification_email_problem: null,
      created: true,
      sign_in: `${BASE}/signin`,
    });
    expect(await ledgerOpened(body.tenant)).toEqual([expect.objectContaining({ tenant: body.tenant })]);
    const row = (await findTenant(env.INDEX_DB, body.tenant))!;
    expect(row).toMatchObject({ businessName: body.business_name, ownerEmail: body.owner_email, phone: "+15555550123", tier: "paid", emailVerifiedAt: null });
    expect(row.termsAcceptedAt).not.toBeNull();
    // Hashed as sign-in hashes: PBKDF2 with a salt of its own, never the password.
    expect(row.passwordHash).not.toContain(PASSWORD);
    expect(row.passwordIterations).toBe(100_000);

    expect(mail.sent).toEqual([
      { from: MAIL_FROM, to: body.owner_email, subject: `Verify your email for ${body.tenant}`, text: expect.stringContaining(`${BASE}/verify-email?token=`), stream: "outbound" },
    ]);
    const session = await signInAs({ tenant: body.tenant as string, email: body.owner_email as string, password: PASSWORD });
    const settings = await offFetch("/settings", { headers: { cookie: `svc_session=${session}` } });
    expect(await settings.text()).toContain('data-testid="email-unverified"');
  });

  it("verifies the owner's email by the link, once: the page asks, its button spends the link", async () => {
    const owner = await signedUp();
    const link = linkIn(mail.to(owner.email)[0]!.text);
    // Fetching the link (as a mail client's link checker does) spends nothing.
    for (let i = 0; i < 2; i++) expect(await (await offFetch(link)).text()).toContain(`Verify <code>${owner.email}</code>`);
    const token = new URL(`${BASE}${link}`).searchParams.get("token")!;
    const verified = await postForm("/verify-email", { token });
    expect(verified.status).toBe(200);
    expect(await verified.text()).toContain("is verified");
    expect((await findTenant(env.INDEX_DB, owner.tenant))!.emailVerifiedAt).not.toBeNull();
    expect((await postForm("/verify-email", { token })).status).toBe(404);
    expect((await offFetch(link)).status).toBe(404);
    expect((await postForm("/verify-email", { token: "x".repeat(43) })).status).toBe(404);
    expect((await postForm("/verify-email", { token }, { address: freshAddress() }).then((r) => r.status))).toBe(404);
  });

  it("lists every refused field at once", async () => {
    const answer = await json(
      await postSignUp({ business_name: "", tenant: "Not A Handle", owner_email: "not-an-email", password: "short", tier: "gold", terms_accepted: false, phone: "555", idempotency_key: "k" }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("invalid_request");
    expect(answer.body.errors.map((e: any) => e.field).sort()).toEqual(
      ["body.business_name", "body.idempotency_key", "body.owner_email", "body.password", "body.phone", "body.tenant", "body.terms_accepted", "body.tier"].sort(),
    );
    const missing = await json(await postSignUp({}));
    expect(missing.body.errors.map((e: any) => e.field).sort()).toEqual(
      ["body.business_name", "body.owner_email", "body.password", "body.tenant", "body.terms_accepted", "body.tier"].sort(),
    );
    expect(mail.sent).toEqual([]);
  });

  it("refuses a taken handle (409 tenant_taken) and a reserved one (409 handle_reserved), writing nothing", async () => {
    const owner = await signedUp();
    const taken = await json(await postSignUp(signUpBody({ tenant: owner.tenant })));
    expect(taken).toMatchObject({ status: 409, body: { code: "tenant_taken" } });
    for (const reserved of ["api", "admin", "sandbox", "www", "docs", "signin", "signup"]) {
      const answer = await json(await postSignUp(signUpBody({ tenant: reserved })));
      expect(answer, reserved).toMatchObject({ status: 409, body: { code: "handle_reserved" } });
      expect(await findTenant(env.INDEX_DB, reserved)).toBeUndefined();
    }
    expect(mail.sent).toHaveLength(1);
  });

  it("answers the same sign-up sent again with its idempotency key as it did; another key gets 409", async () => {
    const body = signUpBody({ idempotency_key: `key-${crypto.randomUUID()}` });
    const first = await json(await postSignUp(body));
    const again = await json(await postSignUp(body));
    expect(first).toMatchObject({ status: 201, body: { created: true } });
    expect(again).toMatchObject({ status: 201, body: { ...first.body, created: false } });
    // The retry mails a fresh link (the first answer may never have been seen); both work until used.
    expect(mail.to(body.owner_email as string)).toHaveLength(2);
    const other = await json(await postSignUp({ ...body, idempotency_key: `key-${crypto.randomUUID()}` }));
    expect(other).toMatchObject({ status: 409, body: { code: "tenant_taken" } });
  });

  it("leaves nothing anyone can reach when the index's batch fails, and the retry signs up", async () => {
    const body = signUpBody({ idempotency_key: `key-${crypto.randomUUID()}` });
    // D1 fails the batch that writes the tenant and its link, as an outage would.
    const failingIndex = new Proxy(env.INDEX_DB, {
      get(target, property) {
        if (property === "batch") return () => Promise.reject(new Error("D1_ERROR: Network connection lost."));
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const failed = await postSignUp(body, { vars: { INDEX_DB: failingIndex } });
    expect(failed.status).toBe(500);
    // The object was opened (its first call), but no row names the tenant: no credential resolves to it.
    expect(await ledgerOpened(body.tenant as string)).toHaveLength(1);
    expect(await findTenant(env.INDEX_DB, body.tenant as string)).toBeUndefined();
    expect((await postForm("/signin", { tenant: body.tenant as string, password: PASSWORD })).status).toBe(401);
    expect(mail.sent).toEqual([]);

    const retried = await json(await postSignUp(body));
    expect(retried).toMatchObject({ status: 201, body: { created: true, verification_email: "sent" } });
    // The object's first call answered the same: still one opening.
    expect(await ledgerOpened(body.tenant as string)).toHaveLength(1);
    await signInAs({ tenant: body.tenant as string, email: body.owner_email as string, password: PASSWORD });
  });

  it("writes nothing when the tenant's object cannot be opened", async () => {
    const body = signUpBody();
    const unreachable = { get: () => ({ openLedger: () => Promise.reject(new Error("Durable Object is overloaded.")) }), idFromName: (n: string) => env.TENANT_LEDGER.idFromName(n) };
    expect((await postSignUp(body, { vars: { TENANT_LEDGER: unreachable } })).status).toBe(500);
    expect(await findTenant(env.INDEX_DB, body.tenant as string)).toBeUndefined();
    expect((await postSignUp(body)).status).toBe(201);
  });

  it("is limited per client address: a few an hour, then 429 with Retry-After; another address goes on", async () => {
    const address = freshAddress();
    for (let i = 0; i < PUBLIC.signups.free; i++) expect((await postSignUp(signUpBody(), { address })).status).toBe(201);
    const refused = await postSignUp(signUpBody(), { address });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ code: "rate_limited", detail: expect.stringContaining("too many sign-ups") });
    expect((await postSignUp(signUpBody())).status).toBe(201);
  });

  it("refuses with 503 email_unavailable, writing nothing, where the deployment holds no mail service", async () => {
    const body = signUpBody();
    const answer = await json(await postSignUp(body, { vars: { EMAIL_API_TOKEN: undefined } }));
    expect(answer).toMatchObject({ status: 503, body: { code: "email_unavailable" } });
    expect(await findTenant(env.INDEX_DB, body.tenant as string)).toBeUndefined();
  });

  it("stands when the verification mail does not go, says so, and /settings mails another", async () => {
    mail.refuseWith = () => Response.json({ ErrorCode: 406, Message: "You tried to send to a recipient that has been marked as inactive." }, { status: 422 });
    const body = signUpBody();
    const answer = await json(await postSignUp(body));
    expect(answer).toMatchObject({ status: 201, body: { verification_email: "not_sent", verification_email_problem: expect.stringContaining("406") } });
    mail.refuseWith = undefined;
    const owner = { tenant: body.tenant as string, email: body.owner_email as string, password: PASSWORD };
    const session = await signInAs(owner);
    const again = await postForm("/settings/email/verify", {}, { session });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain(`A new link was mailed to ${owner.email}`);
    await verifyFromMail(mail, owner.email);
    expect((await findTenant(env.INDEX_DB, owner.tenant))!.emailVerifiedAt).not.toBeNull();
  });

  it("is in /openapi.json with no security and no 401, and in /api/v1 as public", async () => {
    const document = (await (await offFetch("/openapi.json")).json()) as any;
    const operation = document.paths["/api/v1/sign-up"].post;
    expect(operation.operationId).toBe("sign_up");
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.responses).sort()).toEqual(["201", "400", "409", "413", "415", "429", "500", "503"]);
    const described = (await (await offFetch("/api/v1")).json()) as any;
    expect(described.endpoints.find((e: any) => e.operation_id === "sign_up")).toMatchObject({ method: "POST", credential: "public" });
  });
});

describe("the /signup page", () => {
  it("signs up with the form and signs the owner in", async () => {
    const form = await offFetch("/signup");
    const page = await form.text();
    expect(page).toContain('action="/signup"');
    const key = /name="idempotency_key" value="([^"]+)"/.exec(page)![1]!;
    const tenant = uniqueSlug("page");
    const answer = await postForm("/signup", {
      idempotency_key: key,
      business_name: "Page Bakery",
      tenant,
      owner_email: `owner@${tenant}.example`,
      password: PASSWORD,
      tier: "free",
      phone: "",
      terms_accepted: "yes",
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/settings");
    const session = cookieOf(answer, "svc_session")!;
    const settings = await (await offFetch("/settings", { headers: { cookie: `svc_session=${session}` } })).text();
    expect(settings).toContain("Page Bakery");
    expect((await findTenant(env.INDEX_DB, tenant))!.tier).toBe("free");
    expect(mail.to(`owner@${tenant}.example`)).toHaveLength(1);
  });

  it("shows every refused field, keeps what was typed, and refuses another origin", async () => {
    const answer = await postForm("/signup", { business_name: "Kept Name", tenant: "BAD", owner_email: "nope", password: "x", tier: "paid" });
    expect(answer.status).toBe(400);
    const page = await answer.text();
    for (const field of ["tenant", "owner email", "password", "terms accepted"]) expect(page).toContain(field);
    expect(page).toContain('value="Kept Name"');
    expect(page).not.toContain('value="x"');
    const foreign = await offFetch("/signup", { method: "POST", headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" }, body: "tenant=x" });
    expect(foreign.status).toBe(403);
  });

  it("shows a taken handle as the page's error", async () => {
    const owner = await signedUp();
    const answer = await postForm("/signup", { business_name: "B", tenant: owner.tenant, owner_email: "a@b.example", password: PASSWORD, tier: "paid", terms_accepted: "yes" });
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain("is taken");
  });
});

describe("password reset by an emailed link", () => {
  async function verifiedOwner() {
    const owner = await signedUp();
    await verifyFromMail(mail, owner.email);
    return owner;
  }

  it("mails a single-use link to the verified owner; the new password works, the old one and every session end", async () => {
    const owner = await verifiedOwner();
    const session = await signInAs(owner);
    const asked = await postForm("/password-reset", { tenant: owner.tenant });
    expect(asked.status).toBe(200);
    const reset = mail.to(owner.email).at(-1)!;
    expect(reset.subject).toBe(`Reset the password of ${owner.tenant}`);
    const link = linkIn(reset.text);
    expect(link).toMatch(/^\/password-reset\/new\?token=/);
    expect(await (await offFetch(link)).text()).toContain('action="/password-reset/new"');
    const token = new URL(`${BASE}${link}`).searchParams.get("token")!;
    expect((await postForm("/password-reset/new", { token, password: "short" })).status).toBe(400);
    const changed = await postForm("/password-reset/new", { token, password: "a brand new password" });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("signed out");
    // The session from before is over; the old password is refused; the new one signs in.
    expect((await offFetch("/api/v1/me", { headers: { cookie: `svc_session=${session}` } })).status).toBe(401);
    expect((await postForm("/signin", { tenant: owner.tenant, password: owner.password })).status).toBe(401);
    await signInAs({ ...owner, password: "a brand new password" });
    // Spent: a second use changes nothing.
    expect((await postForm("/password-reset/new", { token, password: "yet another password" })).status).toBe(404);
    expect((await offFetch(link)).status).toBe(404);
  });

  it("answers the same for an unknown tenant and an unverified email, mailing nothing", async () => {
    const unverified = await signedUp();
    const before = mail.sent.length;
    const pages = await Promise.all([postForm("/password-reset", { tenant: unverified.tenant }), postForm("/password-reset", { tenant: "no-such-tenant-here" })]);
    const texts = await Promise.all(pages.map((p) => p.text()));
    expect(pages.map((p) => p.status)).toEqual([200, 200]);
    expect(texts[0]).toBe(texts[1]);
    expect(mail.sent.length).toBe(before);
  });

  it("refuses a link past its hour", async () => {
    const owner = await verifiedOwner();
    const tenant = (await findTenant(env.INDEX_DB, owner.tenant))!;
    const old = await passwordResetLink(env.INDEX_DB, { tenantId: tenant.id, email: owner.email }, BASE, new Date(Date.now() - 61 * 60_000));
    const token = new URL(`${BASE}${linkIn(old.text)}`).searchParams.get("token")!;
    expect((await postForm("/password-reset/new", { token, password: "a brand new password" })).status).toBe(404);
    await signInAs(owner);
  });

  it("forgets links past their expiry in the daily run", async () => {
    const owner = await verifiedOwner();
    const tenant = (await findTenant(env.INDEX_DB, owner.tenant))!;
    const old = await passwordResetLink(env.INDEX_DB, { tenantId: tenant.id, email: owner.email }, BASE, new Date(Date.now() - 2 * 3_600_000));
    const token = new URL(`${BASE}${linkIn(old.text)}`).searchParams.get("token")!;
    const before = await env.INDEX_DB.prepare("SELECT count(*) AS n FROM email_links WHERE tenant_id = ?").bind(owner.tenant).first<{ n: number }>();
    expect(await purgeEmailLinks(env.INDEX_DB, new Date())).toBeGreaterThanOrEqual(1);
    const after = await env.INDEX_DB.prepare("SELECT count(*) AS n FROM email_links WHERE tenant_id = ?").bind(owner.tenant).first<{ n: number }>();
    // The lapsed reset link is gone; the verification link (72 hours, spent) stays until it lapses.
    expect(after!.n).toBe(before!.n - 1);
    expect((await offFetch(`/password-reset/new?token=${token}`)).status).toBe(404);
  });

  it("is limited per client address", async () => {
    const address = freshAddress();
    for (let i = 0; i < PUBLIC.resets.free; i++) expect((await postForm("/password-reset", { tenant: "nobody-at-all" }, { address })).status).toBe(200);
    const refused = await postForm("/password-reset", { tenant: "nobody-at-all" }, { address });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
  });
});

describe("the sandbox's sign-up, on the same path", () => {
  it("still signs up per sandbox.md, refuses taken and reserved handles, and shows a given email's mail in the outbox", async () => {
    const t = await createTenant({ owner_email: "sandbox-owner@bakery.example", business_name: "Sandbox Bakery" });
    expect(t.tokens.read_write).toMatch(/^lat\./);
    expect((await api({ bearer: t.tokens.read_write }, "/api/v1/me")).status).toBe(200);
    expect(await ledgerOpened(t.tenant)).toHaveLength(1);
    const outbox = (await (await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/mail`)).json()) as any;
    expect(outbox.messages).toEqual([expect.objectContaining({ to: "sandbox-owner@bakery.example", subject: `Verify your email for ${t.tenant}` })]);
    const page = await (await SELF.fetch(`${BASE}/sandbox/mail`)).text();
    expect(page).toContain(`<a href="${BASE}/verify-email?token=`);
    expect(mail.sent).toEqual([]);

    const again = await SELF.fetch(`${BASE}/sandbox/tenants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tenant: t.tenant }) });
    expect(again.status).toBe(409);
    const reserved = await SELF.fetch(`${BASE}/sandbox/tenants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tenant: "admin" }) });
    expect(await reserved.json()).toMatchObject({ status: 409, code: "handle_reserved" });
  });

  it("is not served with the sandbox off", async () => {
    expect((await offFetch("/sandbox/mail")).status).toBe(404);
    expect((await offFetch("/sandbox/tenants", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(404);
  });
});
