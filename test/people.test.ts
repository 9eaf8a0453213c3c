/**
 * People and roles end to end in workerd: the owner invites by email, the link is accepted
 * once (a new account, or a seat added to an existing one), a person signs in by email,
 * works in one business at a time and switches between them on the practice dashboard;
 * roles refused as the credential rules say, in the API and on the pages; every judgement
 * names its person; another business's seat is a 404.
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { invitePerson } from "../src/auth/seats";
import { findTenant } from "../src/auth/tenants";
import { sandboxMailTo } from "../src/providers/email/sandbox";
import { accept, as, invite, postForm, seatPerson, sessionSet, uniqueEmail, type Person } from "./fixtures/people";
import { api, BASE, createTenant, session, type SandboxTenant } from "./fixtures/sandbox";
import { bakery, page, queueIds, textOf } from "./fixtures/workspace";

const PASSWORD = "a long enough password";

describe("inviting a person and accepting the invitation", () => {
  let owner: SandboxTenant;
  beforeAll(async () => {
    owner = await createTenant();
  });

  it("mails a single-use link, lists it pending, and accepting makes the person, the seat and a session", async () => {
    const email = uniqueEmail("dana");
    const secret = await invite(owner, email, "bookkeeper");
    const [mail] = await sandboxMailTo(env.INDEX_DB, email, 1);
    expect(mail!.subject).toContain(owner.tenant);
    expect(mail!.text).toContain("as a bookkeeper");

    const listed = await page(owner, "/app/people");
    expect(listed.status).toBe(200);
    expect(textOf(listed.html)).toContain(`${email} bookkeeper`);

    const form = await SELF.fetch(`${BASE}/invitations/accept?token=${secret}`);
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('name="name"');
    expect(html).toContain(email);

    const value = await accept(secret, { name: "Dana Reyes", password: PASSWORD });
    const me = await api({ session: value }, "/api/v1/me");
    expect(me.status).toBe(200);
    expect(me.body.auth).toMatchObject({ kind: "session", scope: "read_write", kid: null });
    expect(me.body.auth.actor).toMatch(/^person:p[0-9a-f]{16}$/);

    const after = textOf((await page(owner, "/app/people")).html);
    expect(after).toContain(`Dana Reyes ${email} bookkeeper`);
    expect(after).toContain("No invitation is pending.");

    // Used once: the link opens nothing more, and a second acceptance makes nothing.
    expect((await SELF.fetch(`${BASE}/invitations/accept?token=${secret}`)).status).toBe(404);
    const again = await postForm("/invitations/accept", { token: secret, name: "Someone Else", password: PASSWORD });
    expect(again.status).toBe(404);
    expect(sessionSet(again)).toBeUndefined();
  });

  it("refuses a lapsed invitation and a withdrawn one, and an unknown token", async () => {
    const tenant = (await findTenant(env.INDEX_DB, owner.tenant))!;
    const lapsedEmail = uniqueEmail("lapsed");
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    const lapsed = await invitePerson(env, tenant, { email: lapsedEmail, role: "viewer" }, `human:${owner.tenant}`, BASE, eightDaysAgo);
    expect(lapsed.invitation.status).toBe("pending");
    const lapsedSecret = /token=([A-Za-z0-9_-]{43})/.exec((await sandboxMailTo(env.INDEX_DB, lapsedEmail, 1))[0]!.text)![1]!;
    const refused = await SELF.fetch(`${BASE}/invitations/accept?token=${lapsedSecret}`);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain("lapsed");
    expect((await postForm("/invitations/accept", { token: lapsedSecret, name: "Late", password: PASSWORD })).status).toBe(404);
    // A lapsed invitation is not listed as pending.
    expect((await page(owner, "/app/people")).html).not.toContain(lapsedEmail);

    const withdrawnEmail = uniqueEmail("withdrawn");
    const secret = await invite(owner, withdrawnEmail, "viewer");
    const id = /data-invitation="(\d+)"/.exec((await page(owner, "/app/people")).html)![1];
    const withdrawn = await page(owner, `/app/people/invitations/${id}/withdraw`, { form: {} });
    expect(withdrawn.status).toBe(303);
    expect((await postForm("/invitations/accept", { token: secret, name: "Too Late", password: PASSWORD })).status).toBe(404);

    expect((await SELF.fetch(`${BASE}/invitations/accept?token=${"A".repeat(43)}`)).status).toBe(404);
    expect((await SELF.fetch(`${BASE}/invitations/accept?token=nonsense`)).status).toBe(404);
  });

  it("a second invitation to the same address withdraws the first", async () => {
    const email = uniqueEmail("twice");
    const first = await invite(owner, email, "viewer");
    const second = await invite(owner, email, "bookkeeper");
    expect((await SELF.fetch(`${BASE}/invitations/accept?token=${first}`)).status).toBe(404);
    const value = await accept(second, { name: "Twice Asked", password: PASSWORD });
    expect((await api({ session: value }, "/api/v1/create-rule", { method: "POST", body: {} })).status).toBe(400);
  });

  it("refuses a malformed email, an unknown role, and a person seated already", async () => {
    const bad = await page(owner, "/app/people/invite", { form: { email: "not an address", role: "admin" } });
    expect(bad.status).toBe(400);
    expect(textOf(bad.html)).toContain("There are 2 problems");
    const seated = await seatPerson(owner, "viewer");
    const again = await page(owner, "/app/people/invite", { form: { email: seated.email, role: "bookkeeper" } });
    expect(again.status).toBe(409);
    expect(textOf(again.html)).toContain("holds a seat here already");
  });

  it("refuses a new account's short password and a name with control characters, and keeps the link live", async () => {
    const secret = await invite(owner, uniqueEmail("short"), "viewer");
    const short = await postForm("/invitations/accept", { token: secret, name: "Short", password: "short" });
    expect(short.status).toBe(400);
    const control = await postForm("/invitations/accept", { token: secret, name: "Bell\u0007", password: PASSWORD });
    expect(control.status).toBe(400);
    expect((await SELF.fetch(`${BASE}/invitations/accept?token=${secret}`)).status).toBe(200);
  });

  it("accepts from another origin never", async () => {
    const secret = await invite(owner, uniqueEmail("origin"), "viewer");
    const foreign = await SELF.fetch(`${BASE}/invitations/accept`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ token: secret, name: "Evil", password: PASSWORD }).toString(),
    });
    expect(foreign.status).toBe(403);
    expect((await SELF.fetch(`${BASE}/invitations/accept?token=${secret}`)).status).toBe(200);
  });
});

describe("a person's sign-in by email", () => {
  let owner: SandboxTenant;
  let person: Person;
  beforeAll(async () => {
    owner = await createTenant();
    person = await seatPerson(owner, "bookkeeper", "Sam Ortiz");
  });

  it("signs in with the email (any case) and password into the business of the seat", async () => {
    const answer = await postForm("/signin/person", { email: person.email.toUpperCase(), password: person.password });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/app/review");
    const me = await api({ session: sessionSet(answer)! }, "/api/v1/me");
    expect(me.status).toBe(200);
    expect(me.body.auth.actor).toMatch(/^person:/);
  });

  it("refuses a wrong password and an unknown email with the same answer", async () => {
    const wrong = await postForm("/signin/person", { email: person.email, password: "not the password at all" });
    const unknown = await postForm("/signin/person", { email: uniqueEmail("nobody"), password: person.password });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(textOf(await wrong.text())).toContain("do not match anyone holding a seat");
    expect(sessionSet(wrong)).toBeUndefined();
  });

  it("keeps the owner's sign-in by the tenant's password, and its actor", async () => {
    const answer = await postForm("/signin", { tenant: owner.tenant, password: owner.password });
    expect(answer.status).toBe(303);
    expect((await api({ session: sessionSet(answer)! }, "/api/v1/me")).body.auth.actor).toBe(`human:${owner.tenant}`);
  });

  it("refuses a person whose every seat was revoked", async () => {
    const gone = await seatPerson(owner, "viewer");
    const seatId = new RegExp(`data-seat="(\\d+)"><td>${gone.name}`).exec((await page(owner, "/app/people")).html)![1];
    expect((await page(owner, `/app/people/seats/${seatId}/revoke`, { form: {} })).status).toBe(303);
    expect((await postForm("/signin/person", { email: gone.email, password: gone.password })).status).toBe(401);
  });
});

describe("roles, by the credential rules", () => {
  let owner: SandboxTenant;
  let bookkeeper: Person;
  let viewer: Person;
  let lines: number[];
  beforeAll(async () => {
    owner = await bakery();
    bookkeeper = await seatPerson(owner, "bookkeeper", "Dana Reyes");
    viewer = await seatPerson(owner, "viewer", "Val Viewer");
    lines = queueIds((await page(owner, "/app/review")).html);
  });

  it("a viewer reads the books and is refused every write: 403 role_refused", async () => {
    const v = { session: viewer.session };
    expect((await api(v, "/api/v1/transactions")).status).toBe(200);
    expect((await api(v, "/api/v1/reports/pnl-rolling")).status).toBe(200);
    for (const [path, body] of [
      ["/api/v1/categorize", { side: "A", src_id: lines[0], category: "Meals" }],
      [`/api/v1/transactions/A/${lines[0]}/label`, { category: "Meals" }],
      ["/api/v1/create-rule", { rule_key: "v", match_kind: "amount_sign", match_value: "out", category: "Meals" }],
      ["/api/v1/sync-now", undefined],
    ] as const) {
      const answer = await api(v, path, { method: "POST", body });
      expect(answer.status, path).toBe(403);
      expect(answer.body.code, path).toBe("role_refused");
      expect(answer.body.detail).toContain("viewer");
    }
    // The pages: reads are served (with the viewer's notice), an action is the same refusal as a page.
    const review = await page(as(viewer), "/app/review");
    expect(review.status).toBe(200);
    expect(review.html).toContain('data-testid="viewer-notice"');
    expect(review.html).not.toContain('href="/app/settings"');
    const action = await page(as(viewer), "/app/review/decide", { form: { line: String(lines[0]), category: "Meals", action: "categorise" } });
    expect(action.status).toBe(403);
    expect(textOf(action.html)).toContain("viewer");
  });

  it("a bookkeeper categorises, labels and writes rules; mints no token, offers no grant, reaches no settings or people", async () => {
    const b = { session: bookkeeper.session };
    expect((await api(b, "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: lines[0], category: "Meals" } })).status).toBe(200);
    expect((await api(b, "/api/v1/create-rule", { method: "POST", body: { rule_key: "bk-rule", match_kind: "description_regex", match_value: "GITHUB", category: "Software" } })).status).toBe(200);

    const grant = await api(b, "/api/v1/auditor/grants", { method: "POST", body: { viewer_name: "X", viewer_channel: "+15555550123" } });
    expect(grant.status).toBe(403);
    expect(grant.body.code).toBe("role_refused");
    expect(grant.body.detail).toContain("bookkeeper");

    const mint = await page(as(bookkeeper), "/settings/tokens", { form: { label: "mine", scope: "read_write" } });
    expect(mint.status).toBe(403);
    expect(mint.html).not.toContain("lat.");
    expect(textOf(mint.html)).toContain("bookkeeper");
    for (const path of ["/settings", "/app/settings", "/app/people"]) expect((await page(as(bookkeeper), path)).status, path).toBe(403);
    expect((await page(as(bookkeeper), "/app/people/invite", { form: { email: uniqueEmail("x"), role: "owner" } })).status).toBe(403);
    for (const path of ["/settings/phone", "/settings/destinations", "/settings/banks/link", "/settings/oracle"]) {
      expect((await page(as(bookkeeper), path, { form: { phone: "+15555550199" } })).status, path).toBe(403);
    }
    // The workspace's frame shows who is signed in, and no Settings or People.
    const review = await page(as(bookkeeper), "/app/review");
    expect(textOf(review.html)).toContain("Dana Reyes, bookkeeper");
    expect(review.html).not.toContain('href="/app/people"');
  });

  it("every judgement and rule names its person: the actor person:<id>, and the why names them", async () => {
    const b = { session: bookkeeper.session };
    const actor = (await api(b, "/api/v1/me")).body.auth.actor as string;
    const labelled = await api(b, `/api/v1/transactions/A/${lines[1]}/label`, { method: "POST", body: { category: "Meals", reason: "team lunch" } });
    expect(labelled.status, JSON.stringify(labelled.body)).toBe(200);
    const why = await api(b, `/api/v1/transactions/A/${lines[1]}/why`);
    expect(why.status).toBe(200);
    expect(why.body.citations[0]).toMatchObject({ kind: "human", actor, op: "label", person: { id: actor.slice("person:".length), name: "Dana Reyes", email: bookkeeper.email } });
    expect(why.body.sentence).toContain(`by Dana Reyes (${actor}) via label`);
    // The owner reads the same names.
    expect((await api(session(owner), `/api/v1/transactions/A/${lines[1]}/why`)).body.sentence).toContain("Dana Reyes");
    // The rule's revision records its person, and the rule's page shows it.
    expect((await page(owner, "/app/rules/revisions?key=bk-rule")).html).toContain(`<td>${actor}</td>`);
    // The owner's own judgement is still the owner's.
    await api(session(owner), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: lines[2], category: "Meals" } });
    const owners = await api(session(owner), `/api/v1/transactions/A/${lines[2]}/why`);
    expect(owners.body.citations[0]).toMatchObject({ actor: `human:${owner.tenant}`, person: null });
    // And the line's page says who.
    expect(textOf((await page(owner, `/app/transactions/A/${lines[1]}`)).html)).toContain("Dana Reyes");
  });

  it("a revoked seat reaches nothing: the API is 401 and a page goes to the practice dashboard", async () => {
    const leaving = await seatPerson(owner, "bookkeeper", "Lee Leaving");
    expect((await api({ session: leaving.session }, "/api/v1/me")).status).toBe(200);
    const seatId = new RegExp(`data-seat="(\\d+)"><td>Lee Leaving`).exec((await page(owner, "/app/people")).html)![1];
    const revoked = await page(owner, `/app/people/seats/${seatId}/revoke`, { form: {} });
    expect(revoked.status).toBe(303);
    expect(textOf((await page(owner, revoked.location!)).html)).toContain("Lee Leaving");
    const me = await api({ session: leaving.session }, "/api/v1/me");
    expect(me.status).toBe(401);
    expect(me.body.detail).toContain("revoked");
    const review = await page(as(leaving), "/app/review");
    expect(review.status).toBe(303);
    expect(review.location).toBe("/app/practice");
    // Revoked once: a second revoke answers the seat as it stands, its stamp kept, and it stays revoked.
    const stamped = (await api(session(owner), `/api/v1/people/seats/${seatId}/revoke`, { method: "POST" })).body.seat.revoked_at;
    expect((await page(owner, `/app/people/seats/${seatId}/revoke`, { form: {} })).status).toBe(303);
    expect((await api(session(owner), `/api/v1/people/seats/${seatId}/revoke`, { method: "POST" })).body.seat.revoked_at).toBe(stamped);
    expect((await api({ session: leaving.session }, "/api/v1/me")).status).toBe(401);
  });

  it("another business's seat and invitation are 404 to this owner", async () => {
    const other = await createTenant();
    const theirs = await seatPerson(other, "viewer", "Other Person");
    const seatId = new RegExp(`data-seat="(\\d+)"><td>Other Person`).exec((await page(other, "/app/people")).html)![1];
    expect((await page(owner, `/app/people/seats/${seatId}/revoke`, { form: {} })).status).toBe(404);
    expect((await api({ session: theirs.session }, "/api/v1/me")).status).toBe(200);
    await invite(other, uniqueEmail("pending"), "viewer");
    const invitationId = /data-invitation="(\d+)"/.exec((await page(other, "/app/people")).html)![1];
    expect((await page(owner, `/app/people/invitations/${invitationId}/withdraw`, { form: {} })).status).toBe(404);
    expect((await page(other, "/app/people")).html).toContain(`data-invitation="${invitationId}"`);
    // A person sees only their own business's books.
    expect((await api({ session: theirs.session }, `/api/v1/transactions/A/${lines[0]}`)).status).toBe(404);
  });
});

describe("one bookkeeper over many businesses: the practice dashboard", () => {
  let first: SandboxTenant;
  let second: SandboxTenant;
  let stranger: SandboxTenant;
  let bookkeeper: Person;
  beforeAll(async () => {
    // The dashboard shows each business's last sync: their lines come through the queue.
    [first, second, stranger] = await Promise.all([bakery({ lines: 6, syncedThroughQueue: true }), bakery({ lines: 3, syncedThroughQueue: true }), createTenant()]);
    bookkeeper = await seatPerson(first, "bookkeeper", "Pat Practice");
    // Invited to a second business: the address has an account, so its password adds the seat.
    const secret = await invite(second, bookkeeper.email, "viewer");
    const form = await (await SELF.fetch(`${BASE}/invitations/accept?token=${secret}`)).text();
    expect(form).toContain("has an account already");
    expect(form).not.toContain('name="name"');
    const wrong = await postForm("/invitations/accept", { token: secret, password: "not the password at all" });
    expect(wrong.status).toBe(401);
    bookkeeper.session = await accept(secret, { password: bookkeeper.password });
  });

  it("signing in lands on the dashboard: each business with its role, queue, last sync and last verdict", async () => {
    const signedIn = await postForm("/signin/person", { email: bookkeeper.email, password: bookkeeper.password });
    expect(signedIn.headers.get("location")).toBe("/app/practice");
    bookkeeper.session = sessionSet(signedIn)!;
    const dashboard = await page(as(bookkeeper), "/app/practice");
    expect(dashboard.status).toBe(200);
    const text = textOf(dashboard.html);
    expect(text).toContain(`(${first.tenant}) bookkeeper 6`);
    expect(text).toContain(`(${second.tenant}) viewer 3`);
    expect(text).toContain("added");
    expect(text).toContain("no verdict yet");
    expect(dashboard.html).not.toContain(stranger.tenant);
  });

  it("switches the session between businesses; the role follows the seat", async () => {
    const b = as(bookkeeper);
    const me = async () => (await api({ session: bookkeeper.session }, "/api/v1/me")).body;
    const switched = await page(b, "/app/practice/switch", { form: { tenant: second.tenant } });
    expect(switched.status).toBe(303);
    expect(switched.location).toBe("/app/review");
    expect((await me()).auth.actor).toMatch(/^person:/);
    const write = await api({ session: bookkeeper.session }, "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: 1, category: "Meals" } });
    expect(write.body.code).toBe("role_refused");
    expect(queueIds((await page(b, "/app/review")).html)).toHaveLength(3);

    expect((await page(b, "/app/practice/switch", { form: { tenant: first.tenant } })).status).toBe(303);
    expect(queueIds((await page(b, "/app/review")).html)).toHaveLength(6);
    const judged = await api({ session: bookkeeper.session }, "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: queueIds((await page(b, "/app/review")).html)[0], category: "Meals" } });
    expect(judged.status).toBe(200);
  });

  it("a business where the person holds no seat is a 404, and the session stays where it was", async () => {
    const b = as(bookkeeper);
    const refused = await page(b, "/app/practice/switch", { form: { tenant: stranger.tenant } });
    expect(refused.status).toBe(404);
    expect((await page(b, "/app/practice/switch", { form: { tenant: "no-such-business" } })).status).toBe(404);
    expect(queueIds((await page(b, "/app/review")).html).length).toBeLessThanOrEqual(6);
    const switchedForeign = await page(b, "/app/practice/switch", { form: { tenant: second.tenant }, origin: "https://evil.example" });
    expect(switchedForeign.status).toBe(403);
  });

  it("the owner's session has no dashboard: it goes to its workspace", async () => {
    const answer = await page(first, "/app/practice");
    expect(answer.status).toBe(303);
    expect(answer.location).toBe("/app/review");
  });
});
