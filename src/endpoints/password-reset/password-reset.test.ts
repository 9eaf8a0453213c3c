/**
 * A forgotten password, reset by an emailed link, through the page and through the API, for
 * a person (their own account's, by their email) and for the owner (the tenant's, by its
 * handle): one flow. The link works once and lapses after an hour; the new password ends
 * every session of that account; asking tells nobody whether the account exists, and is
 * limited per client address and per recipient.
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { passwordResetLink } from "../../auth/password-reset";
import { findPersonByEmail } from "../../auth/people";
import { PUBLIC } from "../../limits/attempts";
import { sandboxMailTo } from "../../providers/email/sandbox";
import { accept, invite, seatPerson, sessionSet, uniqueEmail, type Person } from "../../../test/fixtures/people";
import { api, BASE, createTenant, eventually, session, type SandboxTenant } from "../../../test/fixtures/sandbox";

let addresses = 0;
/** A client address no other call of the file uses: asking is limited per address. */
const freshAddress = () => `198.18.${Math.floor(++addresses / 250) % 250}.${(addresses % 250) + 1}`;

function postForm(path: string, fields: Record<string, string>, address = freshAddress()): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE, "cf-connecting-ip": address },
    body: new URLSearchParams(fields).toString(),
  });
}

function askByApi(body: Record<string, string>, address = freshAddress()) {
  return api(undefined, "/api/v1/password-reset", { method: "POST", body, headers: { "cf-connecting-ip": address } });
}

async function resetMails(email: string): Promise<{ text: string; subject: string }[]> {
  return (await sandboxMailTo(env.INDEX_DB, email, 50)).filter((m) => m.text.includes("/password-reset/new?token="));
}

/**
 * Asks for a reset (`ask`) and answers the token of the link it mailed to `email`: the mail
 * goes after the answer, so it is waited for, past the reset mails `email` had before.
 */
async function askedToken(email: string, ask: () => Promise<unknown>): Promise<{ token: string; subject: string }> {
  const before = (await resetMails(email)).length;
  await ask();
  const mail = await eventually(`a reset link mailed to ${email}`, async () => {
    const mails = await resetMails(email);
    return mails.length > before ? mails[0] : undefined;
  });
  return { token: /\/password-reset\/new\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!, subject: mail.subject };
}

const NEW_PASSWORD = "a brand new password";

describe("a person's password reset", () => {
  let first: SandboxTenant;
  let second: SandboxTenant;
  let person: Person;
  beforeAll(async () => {
    [first, second] = await Promise.all([createTenant(), createTenant()]);
    person = await seatPerson(first, "bookkeeper", "Rae Reset");
    // A seat in a second business too: the reset is the account's, and ends its sessions everywhere.
    person.session = await accept(await invite(second, person.email, "viewer"), { password: person.password });
  });

  it("by the page: the link mailed to the person's email sets a new password once; every session of theirs ends", async () => {
    const { token, subject } = await askedToken(person.email, async () => expect((await postForm("/password-reset", { email: person.email.toUpperCase() })).status).toBe(200));
    expect(subject).toBe("Reset your password");
    const form = await SELF.fetch(`${BASE}/password-reset/new?token=${token}`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain(`For ${person.email}.`);
    const earlier = person.session;
    expect((await api({ session: earlier }, "/api/v1/me")).status).toBe(200);

    expect((await postForm("/password-reset/new", { token, password: "short" })).status).toBe(400);
    const changed = await postForm("/password-reset/new", { token, password: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain(`The password of <strong>${person.email}</strong> is changed`);
    // The person's session (working in the second business) has ended; the owners' have not.
    expect((await api({ session: earlier }, "/api/v1/me")).status).toBe(401);
    expect((await api(session(first), "/api/v1/me")).status).toBe(200);
    expect((await postForm("/signin/person", { email: person.email, password: person.password })).status).toBe(401);
    const signedIn = await postForm("/signin/person", { email: person.email, password: NEW_PASSWORD });
    expect(signedIn.status).toBe(303);
    person.password = NEW_PASSWORD;
    person.session = sessionSet(signedIn)!;
    // Spent: it opens nothing more, and changes nothing.
    expect((await postForm("/password-reset/new", { token, password: "yet another password" })).status).toBe(404);
    expect((await SELF.fetch(`${BASE}/password-reset/new?token=${token}`)).status).toBe(404);
  });

  it("by the API: request_password_reset mails the link, reset_password spends it once", async () => {
    const { token } = await askedToken(person.email, async () => {
      const asked = await askByApi({ email: person.email });
      expect(asked.status).toBe(200);
      expect(asked.body).toMatchObject({ requested: true, link_minutes: 60 });
    });
    const short = await api(undefined, "/api/v1/password-reset/new", { method: "POST", body: { token, password: "short" } });
    expect(short.status).toBe(400);
    expect(short.body.errors.map((e: any) => e.field)).toEqual(["body.password"]);
    const set = await api(undefined, "/api/v1/password-reset/new", { method: "POST", body: { token, password: "the API's new password" } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ account: "person", tenant: null, email: person.email, sessions_ended: true, sign_in: `${BASE}/signin` });
    expect((await api({ session: person.session }, "/api/v1/me")).status).toBe(401);
    expect((await postForm("/signin/person", { email: person.email, password: "the API's new password" })).status).toBe(303);
    const again = await api(undefined, "/api/v1/password-reset/new", { method: "POST", body: { token, password: "a third new password" } });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("not_found");
  });

  it("tells nobody whether the account exists: the same answer, and no mail for an unknown email", async () => {
    const unknown = uniqueEmail("nobody");
    const [known, none] = await Promise.all([askByApi({ email: person.email }), askByApi({ email: unknown })]);
    expect(none.status).toBe(200);
    expect(none.body).toEqual(known.body);
    const pages = await Promise.all([postForm("/password-reset", { email: person.email }), postForm("/password-reset", { email: unknown })]);
    expect(pages.map((p) => p.status)).toEqual([200, 200]);
    expect(await pages[1]!.text()).toBe(await pages[0]!.text());
    expect(await sandboxMailTo(env.INDEX_DB, unknown, 5)).toEqual([]);
  });

  it("refuses a link past its hour, and an unknown one", async () => {
    const account = (await findPersonByEmail(env.INDEX_DB, person.email))!;
    const old = await passwordResetLink(env.INDEX_DB, { personId: account.id, email: account.email }, BASE, new Date(Date.now() - 61 * 60_000));
    const token = /token=([A-Za-z0-9_-]{43})/.exec(old.text)![1]!;
    expect((await api(undefined, "/api/v1/password-reset/new", { method: "POST", body: { token, password: NEW_PASSWORD } })).status).toBe(404);
    expect((await SELF.fetch(`${BASE}/password-reset/new?token=${token}`)).status).toBe(404);
    expect((await api(undefined, "/api/v1/password-reset/new", { method: "POST", body: { token: "A".repeat(43), password: NEW_PASSWORD } })).status).toBe(404);
  });

  it("mails one person at most a few links an hour, whatever addresses ask", async () => {
    const flooded = await seatPerson(first, "viewer");
    for (let i = 0; i < PUBLIC.mailsPerPerson.free; i++) await askedToken(flooded.email, () => askByApi({ email: flooded.email }));
    // Past the budget the answer is the same, and no mail goes: the asked-for mail's work is done when a later budget-free mail lands.
    for (let i = 0; i < 2; i++) expect((await askByApi({ email: flooded.email })).status).toBe(200);
    const other = await seatPerson(first, "viewer");
    await askedToken(other.email, () => askByApi({ email: other.email }));
    expect(await resetMails(flooded.email)).toHaveLength(PUBLIC.mailsPerPerson.free);
  });
});

describe("asking for a reset", () => {
  it("takes exactly one of tenant and email, and a well-formed email", async () => {
    for (const body of [{}, { tenant: "acme-bakery", email: "dana@books.example" }] as Record<string, string>[]) {
      const answer = await askByApi(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errors[0]).toMatchObject({ field: "body", code: "one_of" });
    }
    expect((await askByApi({ email: "not an address" })).body.errors.map((e: any) => e.field)).toEqual(["body.email"]);
  });

  it("is limited per client address, the page and the API together", async () => {
    const address = freshAddress();
    for (let i = 0; i < PUBLIC.resets.free; i++) {
      const answer = i % 2 === 0 ? (await askByApi({ email: uniqueEmail("limit") }, address)).status : (await postForm("/password-reset", { email: uniqueEmail("limit") }, address)).status;
      expect(answer).toBe(200);
    }
    const refused = await askByApi({ tenant: "nobody-at-all" }, address);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect((await postForm("/password-reset", { email: uniqueEmail("limit") }, address)).status).toBe(429);
  });
});

describe("the owner's password reset, on the same flow", () => {
  it("through the API: the link goes to the verified owner's email, and the new password ends the owner's sessions only", async () => {
    const ownerEmail = uniqueEmail("owner");
    const owner = await createTenant({ owner_email: ownerEmail });
    const bookkeeper = await seatPerson(owner, "bookkeeper");
    // Not verified yet: nothing is mailed.
    await askByApi({ tenant: owner.tenant });
    const verify = /\/verify-email\?token=([A-Za-z0-9_-]{43})/.exec((await sandboxMailTo(env.INDEX_DB, ownerEmail, 1))[0]!.text)![1]!;
    expect((await postForm("/verify-email", { token: verify })).status).toBe(200);

    const { token, subject } = await askedToken(ownerEmail, () => askByApi({ tenant: owner.tenant }));
    // The one reset mail is the one asked for once verified.
    expect(await resetMails(ownerEmail)).toHaveLength(1);
    expect(subject).toBe(`Reset the password of ${owner.tenant}`);
    const set = await api(undefined, "/api/v1/password-reset/new", { method: "POST", body: { token, password: NEW_PASSWORD } });
    expect(set.body).toMatchObject({ account: "owner", tenant: owner.tenant, email: ownerEmail });
    expect((await api(session(owner), "/api/v1/me")).status).toBe(401);
    expect((await api({ session: bookkeeper.session }, "/api/v1/me")).status).toBe(200);
    expect((await postForm("/signin", { tenant: owner.tenant, password: NEW_PASSWORD })).status).toBe(303);
  });
});
