/**
 * Section 5 of the document, for every endpoint in the index: 401 for no, a forged, an
 * expired or a revoked credential; 403 with its reason for a read-only token on a write,
 * a bearer token on a session-only endpoint, anything but a live grant on the auditor view
 * (a revoked or an expired grant named as such) and a grant token anywhere but the auditor
 * view and the parity verdicts, which it reads beside the owner's credentials; sessions
 * need a same-origin Origin on writes; the tenant and the actor come from the credential.
 * Every endpoint also meets a session of each role (the owner's, a bookkeeper's, a
 * viewer's): the rule's `roles` pass, the others are 403 role_refused.
 * Then the pages that issue credentials: /signin, /signout and /settings.
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { confirmGrant } from "../src/auth/grants";
import { startSession } from "../src/auth/sessions";
import { findTenant } from "../src/auth/tenants";
import { mintToken, revokeToken, verifyToken } from "../src/auth/tokens";
import { CREDENTIAL_RULES } from "../src/auth/caller";
import { endpoints } from "../src/endpoints/index";
import { seatPerson, type Person } from "./fixtures/people";
import { api, BASE, concretePath, createTenant, grantAuditor, outbox, ro, rw, session, VIEWER, type SandboxTenant } from "./fixtures/sandbox";

/** A grant confirmed a day and an hour ago through the domain code: its 24 hours are over. */
async function expiredGrantToken(t: SandboxTenant): Promise<string> {
  const offer = await api(session(t), "/api/v1/auditor/grants", { method: "POST", body: VIEWER });
  const code = /\b(\d{6})\b/.exec((await outbox(t))[0]!.body)![1]!;
  const dayAndHourAgo = new Date(Date.now() - 25 * 3_600_000);
  return (await confirmGrant(env, t.tenant, offer.body.request_id, { code, ...VIEWER }, dayAndHourAgo, "198.51.100.7")).token;
}


/**
 * The exact status a credential the rule lets through gets for the matrix's request (the
 * path's example values, no query, `{}` as a write's body) on a tenant with no lines: 400
 * where the body or the query needs fields, 404 where the path names a line, else the
 * operation's success.
 */
const PAST_THE_CHECK: Record<string, number> = {
  adjudicate: 400,
  categorize: 400,
  change_seat_role: 400,
  confirm_auditor_grant: 400,
  create_categories: 400,
  create_category: 400,
  create_rule: 400,
  create_rules: 400,
  explain_transaction: 404,
  get_books_currency: 200,
  get_shared_merchant_prior: 200,
  export_books: 200,
  get_export: 200,
  get_connection: 404,
  get_export_file: 200,
  get_me: 200,
  get_messages: 200,
  get_meter: 200,
  get_parity_verdict: 404,
  get_pnl_rolling: 200,
  get_transaction: 404,
  get_usage: 200,
  get_visibility: 200,
  invite_person: 400,
  label_transaction: 400,
  list_accounts: 200,
  list_auditor_grants: 200,
  list_categories: 200,
  list_category_taxonomy: 200,
  list_connections: 200,
  list_exceptions: 200,
  list_parity_verdicts: 200,
  list_people: 200,
  list_pnl_transactions: 400,
  list_rules: 200,
  list_sync_history: 200,
  list_transactions: 200,
  move_rule_to_end: 400,
  offer_auditor_grant: 400,
  record_pnl_parity: 400,
  retire_rule: 400,
  revoke_auditor_grant: 400,
  revoke_seat: 400,
  run_rules: 200,
  set_books_currency: 400,
  set_shared_merchant_prior: 400,
  sync_now: 202,
  withdraw_invitation: 400,
};

describe("every endpoint's credential rule", () => {
  let t: SandboxTenant;
  let auditorToken: string;
  let revokedGrantToken: string;
  let expiredGrant: string;
  let expiredToken: string;
  let revokedToken: string;
  let people: Record<"bookkeeper" | "viewer", Person>;
  beforeAll(async () => {
    t = await createTenant();
    people = { bookkeeper: await seatPerson(t, "bookkeeper"), viewer: await seatPerson(t, "viewer") };
    auditorToken = (await grantAuditor(t)).token;
    const revoked = await grantAuditor(t);
    expect((await api(session(t), `/api/v1/auditor/grants/${revoked.grant.grant_id}/revoke`, { method: "POST" })).status).toBe(200);
    revokedGrantToken = revoked.token;
    expiredGrant = await expiredGrantToken(t);
    const now = new Date();
    expiredToken = (await mintToken(env.INDEX_DB, t.tenant, "expired", "read_write", new Date(now.getTime() - 2_000), { expiresAt: new Date(now.getTime() - 1_000) })).token;
    const toRevoke = await mintToken(env.INDEX_DB, t.tenant, "revoked", "read_write", now);
    expect(await revokeToken(env.INDEX_DB, t.tenant, toRevoke.kid, now)).toBe(true);
    revokedToken = toRevoke.token;
  });

  for (const e of endpoints.filter((e) => e.credential !== "public")) {
    const call = (credential: Parameters<typeof api>[0], headers: Record<string, string> = {}) =>
      api(credential, concretePath(e.path), { method: e.method.toUpperCase(), headers, ...(e.method === "post" ? { body: {} } : {}) });

    it(`${e.operationId}: no credential is 401 problem+json`, async () => {
      const answer = await call(undefined);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(answer.headers.get("www-authenticate")).toContain("Bearer");
      expect(answer.body).toMatchObject({ status: 401, code: "credential_missing" });
    });

    it(`${e.operationId}: a refused credential is 401`, async () => {
      expect((await call({ bearer: "lat.0000000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" })).status).toBe(401);
      expect((await call({ bearer: "not-a-token" })).status).toBe(401);
      expect((await call(undefined, { authorization: "Basic dXNlcjpwYXNz" })).status).toBe(401);
      expect((await call({ session: "made-up-session-value-made-up-session-value" })).status).toBe(401);
      // A valid token with one character changed.
      const tampered = t.tokens.read_write.slice(0, -1) + (t.tokens.read_write.endsWith("A") ? "B" : "A");
      expect((await call({ bearer: tampered })).status).toBe(401);
    });

    it(`${e.operationId}: an expired or a revoked read-write token is 401 credential_refused`, async () => {
      expect((await call({ bearer: expiredToken })).body).toMatchObject({ status: 401, code: "credential_refused" });
      expect((await call({ bearer: revokedToken })).body).toMatchObject({ status: 401, code: "credential_refused" });
    });

    const grantReaches = CREDENTIAL_RULES[e.credential].grant !== "refused";
    it(`${e.operationId}: a revoked or an expired grant's token is 403 ${grantReaches ? "grant_revoked / grant_expired" : "auditor_scope"}`, async () => {
      const [revoked, expired] = grantReaches ? ["grant_revoked", "grant_expired"] : ["auditor_scope", "auditor_scope"];
      expect((await call({ bearer: revokedGrantToken })).body).toMatchObject({ status: 403, code: revoked });
      expect((await call({ bearer: expiredGrant })).body).toMatchObject({ status: 403, code: expired });
    });

    // Which credentials each rule lets past the credential check, and the refusal of the others.
    const rule = e.credential as Exclude<typeof e.credential, "public">;
    const passes: string[] = { read: ["session", "rw", "ro"], write: ["session", "rw"], session: ["session"], auditor: [], read_or_grant: ["session", "rw", "ro"] }[rule];
    const refusal = { read: "", write: "read_only_token", session: "session_only", auditor: "auditor_only", read_or_grant: "" }[rule];
    for (const [name, credential] of [["session", session], ["rw", rw], ["ro", ro]] as const) {
      const allowed = passes.includes(name);
      it(`${e.operationId}: ${name === "rw" ? "a read-write token" : name === "ro" ? "a read-only token" : "a session"} ${allowed ? `gets past the credential check: ${PAST_THE_CHECK[e.operationId]}` : `is 403 ${refusal}`}`, async () => {
        const answer = await call(credential(t));
        if (allowed) expect(answer.status, JSON.stringify(answer.body)).toBe(PAST_THE_CHECK[e.operationId]);
        else expect(answer.body).toMatchObject({ status: 403, code: refusal });
      });
    }

    // Each role's session, by the rule's roles: the owner's is the tenant's password session above.
    for (const role of ["bookkeeper", "viewer"] as const) {
      const passesRole = CREDENTIAL_RULES[rule].roles.includes(role);
      const expected = rule === "auditor" ? "403 auditor_only" : passesRole ? `gets past the credential check: ${PAST_THE_CHECK[e.operationId]}` : "403 role_refused";
      it(`${e.operationId}: a ${role}'s session ${expected}`, async () => {
        const answer = await call({ session: people[role].session });
        if (rule === "auditor") expect(answer.body).toMatchObject({ status: 403, code: "auditor_only" });
        else if (passesRole) expect(answer.status, JSON.stringify(answer.body)).toBe(PAST_THE_CHECK[e.operationId]);
        else expect(answer.body).toMatchObject({ status: 403, code: "role_refused" });
      });
    }

    if (CREDENTIAL_RULES[e.credential].grant === "refused") {
      it(`${e.operationId}: an auditor grant token is 403 auditor_scope`, async () => {
        const answer = await call({ bearer: auditorToken });
        expect(answer.body).toMatchObject({ status: 403, code: "auditor_scope" });
      });
    }
    if (CREDENTIAL_RULES[e.credential].grant === "also") {
      it(`${e.operationId}: a live auditor grant token gets past the credential check: ${PAST_THE_CHECK[e.operationId]}`, async () => {
        const answer = await call({ bearer: auditorToken });
        expect(answer.status, JSON.stringify(answer.body)).toBe(PAST_THE_CHECK[e.operationId]);
      });
    }

    if (e.access === "write") {
      it(`${e.operationId}: a session write from another origin is 403`, async () => {
        const foreign = await call(session(t), { origin: "https://evil.example" });
        expect(foreign.body).toMatchObject({ status: 403, code: "cross_origin" });
        const same = await call(session(t), { origin: BASE });
        expect([401, 403]).not.toContain(same.status);
      });
    }
  }

  it("lets a grant reach the auditor view and the parity verdicts, reads all, and nothing else", () => {
    const reached = endpoints.filter((e) => CREDENTIAL_RULES[e.credential].grant !== "refused");
    expect(reached.map((e) => e.operationId).sort()).toEqual(["get_auditor_view", "get_parity_verdict", "list_parity_verdicts"]);
    for (const e of reached) expect(e.access, e.operationId).toBe("read");
  });

  it("lets each role through exactly the rules the table says", () => {
    const rulesOf = (role: "owner" | "bookkeeper" | "viewer") => Object.entries(CREDENTIAL_RULES).filter(([, r]) => r.roles.includes(role)).map(([name]) => name).sort();
    expect(rulesOf("owner")).toEqual(["read", "read_or_grant", "session", "write"]);
    expect(rulesOf("bookkeeper")).toEqual(["read", "read_or_grant", "write"]);
    expect(rulesOf("viewer")).toEqual(["read", "read_or_grant"]);
  });

  it("records a person's actor from their session: person:<id>", async () => {
    const me = await api({ session: people.bookkeeper.session }, "/api/v1/me");
    expect(me.body.auth).toMatchObject({ kind: "session", scope: "read_write", kid: null, role: "bookkeeper" });
    expect((await api({ session: people.viewer.session }, "/api/v1/me")).body.auth.role).toBe("viewer");
    expect(me.body.auth.actor).toMatch(/^person:p[0-9a-f]{16}$/);
  });

  it("knows the status past the check of every operation a personal credential reaches", () => {
    expect(Object.keys(PAST_THE_CHECK).sort()).toEqual(endpoints.filter((e) => e.credential !== "auditor" && e.credential !== "public").map((e) => e.operationId).sort());
  });

  // A public operation reads no credential: none, a forged one, a grant's, a read-only token or
  // a session from another origin all reach its input check (an empty body is 400, never 401 or 403).
  for (const e of endpoints.filter((e) => e.credential === "public")) {
    it(`${e.operationId}: public, whatever credential is sent or none`, async () => {
      const sent: [string, Parameters<typeof api>[0], Record<string, string>][] = [
        ["none", undefined, {}],
        ["a forged token", { bearer: "lat.0000000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }, {}],
        ["a malformed header", undefined, { authorization: "Basic dXNlcjpwYXNz" }],
        ["a grant's token", { bearer: auditorToken }, {}],
        ["a read-only token", ro(t), {}],
        ["a session from another origin", session(t), { origin: "https://evil.example" }],
      ];
      for (const [what, credential, headers] of sent) {
        const answer = await api(credential, e.path, { method: "POST", headers: { "cf-connecting-ip": "203.0.113.77", ...headers }, body: {} });
        expect(answer.status, what).toBe(400);
        expect(answer.body.code, what).toBe("invalid_request");
      }
    });
  }

  it("records the actor from the credential", async () => {
    expect((await api(session(t), "/api/v1/me")).body.auth).toEqual({
      kind: "session",
      scope: "read_write",
      kid: null,
      actor: `human:${t.tenant}`,
      role: "owner",
    });
    const kid = t.tokens.read_only.split(".")[1];
    expect((await api(ro(t), "/api/v1/me")).body.auth).toEqual({
      kind: "token",
      scope: "read_only",
      kid,
      actor: `token:${t.tenant}:${kid}`,
      role: "owner",
    });
  });

  it("reads a token with its whole tenant record, as the tenant reads on its own", async () => {
    const token = await verifyToken(env.INDEX_DB, t.tokens.read_only, new Date());
    expect(token?.tenant).toEqual(await findTenant(env.INDEX_DB, t.tenant));
    expect(token).toMatchObject({ tenantId: t.tenant, scope: "read_only", revokedAt: null });
    expect(typeof token?.tenant.smsEnabled).toBe("boolean");
    // The right key id with another secret is no token.
    const [prefix, kid] = t.tokens.read_only.split(".");
    expect(await verifyToken(env.INDEX_DB, `${prefix}.${kid}.${"A".repeat(43)}`, new Date())).toBeUndefined();
  });

  it("refuses an expired token and an expired session", async () => {
    const aYearAndADayLater = new Date(Date.now() + 366 * 86_400_000);
    expect(await verifyToken(env.INDEX_DB, t.tokens.read_write, new Date())).toBeDefined();
    expect(await verifyToken(env.INDEX_DB, t.tokens.read_write, aYearAndADayLater)).toBeUndefined();
    const old = await startSession(env.INDEX_DB, t.tenant, new Date(Date.now() - 13 * 3_600_000));
    expect((await api({ session: old.value }, "/api/v1/me")).status).toBe(401);
  });
});

describe("the pages that issue credentials", () => {
  const password = "correct horse battery staple";
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant({ password });
  });

  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
    method: "POST",
    redirect: "manual" as const,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

  async function signIn(): Promise<string> {
    const answer = await SELF.fetch(`${BASE}/signin`, form({ tenant: t.tenant, password }, { origin: BASE }));
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/app/review");
    const cookie = answer.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^svc_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("SameSite=Lax");
    return cookie.split(";")[0]!.split("=")[1]!;
  }

  it("serves the sign-in form", async () => {
    const page = await SELF.fetch(`${BASE}/signin`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post" action="/signin">');
  });

  it("signs in with the password and the session reads the API", async () => {
    const value = await signIn();
    expect((await api({ session: value }, "/api/v1/me")).body.auth.kind).toBe("session");
  });

  it("refuses a wrong password, an unknown tenant and a cross-origin form", async () => {
    expect((await SELF.fetch(`${BASE}/signin`, form({ tenant: t.tenant, password: "wrong password" }))).status).toBe(401);
    expect((await SELF.fetch(`${BASE}/signin`, form({ tenant: "nobody-here", password }))).status).toBe(401);
    const foreign = await SELF.fetch(`${BASE}/signin`, form({ tenant: t.tenant, password }, { origin: "https://evil.example" }));
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("set-cookie")).toBeNull();
  });

  it("sends a visitor without a session from /settings to /signin", async () => {
    const answer = await SELF.fetch(`${BASE}/settings`, { redirect: "manual" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/signin");
  });

  it("mints a token once, lists it by key id only, and revokes it", async () => {
    const cookie = `svc_session=${await signIn()}`;
    const minted = await SELF.fetch(`${BASE}/settings/tokens`, form({ label: "bookkeeper", scope: "read_only" }, { cookie, origin: BASE }));
    expect(minted.status).toBe(201);
    const html = await minted.text();
    const token = /data-testid="new-token">(lat\.[0-9a-f]{16}\.[A-Za-z0-9_-]{43})</.exec(html)![1]!;
    const kid = token.split(".")[1]!;

    expect((await api({ bearer: token }, "/api/v1/me")).body.auth).toMatchObject({ kind: "token", scope: "read_only", kid });
    expect((await api({ bearer: token }, "/api/v1/sync-now", { method: "POST" })).status).toBe(403);

    const listed = await (await SELF.fetch(`${BASE}/settings`, { headers: { cookie } })).text();
    expect(listed).toContain(kid);
    expect(listed).not.toContain(token);

    const revoked = await SELF.fetch(`${BASE}/settings/tokens/${kid}/revoke`, form({}, { cookie, origin: BASE }));
    expect(revoked.status).toBe(200);
    expect((await api({ bearer: token }, "/api/v1/me")).status).toBe(401);
  });

  it("cannot revoke another tenant's token", async () => {
    const other = await createTenant();
    const cookie = `svc_session=${await signIn()}`;
    const kid = other.tokens.read_write.split(".")[1];
    const answer = await SELF.fetch(`${BASE}/settings/tokens/${kid}/revoke`, form({}, { cookie, origin: BASE }));
    expect(answer.status).toBe(404);
    expect((await api(rw(other), "/api/v1/me")).status).toBe(200);
  });

  it("mints nothing from another origin", async () => {
    const cookie = `svc_session=${await signIn()}`;
    const answer = await SELF.fetch(`${BASE}/settings/tokens`, form({ label: "x", scope: "read_write" }, { cookie, origin: "https://evil.example" }));
    expect(answer.status).toBe(403);
  });

  it("ends the session at /signout", async () => {
    const value = await signIn();
    const out = await SELF.fetch(`${BASE}/signout`, form({}, { cookie: `svc_session=${value}`, origin: BASE }));
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toContain("svc_session=;");
    expect((await api({ session: value }, "/api/v1/me")).status).toBe(401);
  });
});
