/**
 * Auditor grants through the sandbox carrier: the whole flow, every refusal by name, the
 * code brute force stopped at the fifth attempt, the 503 that files nothing, revocation,
 * expiry, and what the auditor view shows.
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { checkRule, resolveCaller } from "../../auth/caller";
import { confirmGrant, GRANT_MAX_ATTEMPTS } from "../../auth/grants";
import {
  api,
  BASE,
  CHECKING,
  createTenant,
  deliver,
  grantAuditor,
  judge,
  outbox,
  rw,
  session,
  syncNow,
  txn,
  VIEWER,
  type SandboxTenant,
} from "../../../test/fixtures/sandbox";
import { auditorViewResponse } from "./schema";

const offer = (t: SandboxTenant, viewer = VIEWER) => api(session(t), "/api/v1/auditor/grants", { method: "POST", body: viewer });
const confirm = (t: SandboxTenant, requestId: number, body: Record<string, string>) =>
  api(session(t), `/api/v1/auditor/grants/${requestId}/confirm`, { method: "POST", body: { ...VIEWER, ...body } });
const lastCode = async (t: SandboxTenant) => /\b(\d{6})\b/.exec((await outbox(t))[0]!.body)![1]!;
const view = (token: string) => api({ bearer: token }, "/api/v1/auditor/view");

async function rowsIn(table: "grant_requests" | "auditor_grants", tenant: string): Promise<Record<string, unknown>[]> {
  return (await env.INDEX_DB.prepare(`SELECT * FROM ${table} WHERE tenant_id = ?`).bind(tenant).all()).results;
}

describe("the grant flow", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant({ phone: "+15555550142" });
    await deliver(t.tenant, {
      accounts: [CHECKING],
      added: [
        txn("sale", { name: "CLIENT PAYMENT", amount: -900, date: "2026-10-15" }),
        txn("cash", { name: "ATM OWNER CASH", amount: 200, date: "2026-11-02" }),
        txn("lunch", { name: "FAMILY DINNER", amount: 85.5, date: "2026-11-03", merchant_name: "Chez Nous" }),
        txn("held", { name: "PENDING", amount: 10, date: "2026-11-04", pending: true }),
      ],
    });
    await syncNow(t);
    expect((await api(rw(t), "/api/v1/new-category", { method: "POST", body: { name: "Owner draw", header: "draw" } })).status).toBe(200);
    const rows = (await api(rw(t), "/api/v1/transactions")).body.rows;
    for (const d of ["ATM OWNER CASH", "FAMILY DINNER"]) await judge(t, rows.find((r: any) => r.description === d).src_id, "Owner draw");
  });

  it("texts a six-digit code to the customer's own phone, answers only the request id, and keeps only a digest", async () => {
    const offered = await offer(t);
    expect(offered.status).toBe(200);
    expect(Object.keys(offered.body)).toEqual(["request_id"]);
    const [text] = await outbox(t);
    expect(text!.to).toBe("+15555550142");
    expect(text!.to).not.toBe(VIEWER.viewer_channel);
    const code = await lastCode(t);
    expect(code).toMatch(/^\d{6}$/);
    const [request] = (await rowsIn("grant_requests", t.tenant)).filter((r) => r.id === offered.body.request_id);
    expect(JSON.stringify(request)).not.toContain(code);
    expect(request!.code_digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("confirms with the code into a live grant and a 24-hour token that reads the auditor view", async () => {
    const { grant, token } = await grantAuditor(t);
    expect(grant).toMatchObject({ grant_id: expect.any(Number), viewer_name: VIEWER.viewer_name, status: "live", revoked_at: null, last_read_at: null });
    expect(Date.parse(grant.expires_at) - Date.parse(grant.created_at)).toBe(24 * 3_600_000);
    // The token is stored only as a hash, labelled with the grant.
    const stored = await env.INDEX_DB.prepare("SELECT * FROM access_tokens WHERE kid = ?").bind(token.split(".")[1]).first<Record<string, string>>();
    expect(stored).toMatchObject({ scope: "auditor", label: `auditor-grant:${grant.grant_id}` });
    expect(JSON.stringify(stored)).not.toContain(token.split(".")[2]);

    const answer = await view(token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // The answer is written as JSON text (never parsed by its schema on the way out): it must hold the documented shape.
    expect(auditorViewResponse.parse(answer.body)).toEqual(answer.body);
    expect(answer.body.grant_id).toBe(grant.grant_id);
    expect(answer.body.months).toEqual([
      { month: "2026-11", money_in_cents: 0, money_out_cents: 28550, net_cents: -28550, lines: 2 },
      { month: "2026-10", money_in_cents: 90000, money_out_cents: 0, net_cents: 90000, lines: 1 },
    ]);
    expect(answer.body.pocket_flagged.map((p: any) => [p.description, p.amount_cents, p.category])).toEqual([
      ["ATM OWNER CASH", -20000, "Owner draw"],
      ["FAMILY DINNER", -8550, "Owner draw"],
    ]);
    expect(answer.body.receipts.map((r: any) => r.raw)).toEqual([
      txn("cash", { name: "ATM OWNER CASH", amount: 200, date: "2026-11-02" }),
      txn("lunch", { name: "FAMILY DINNER", amount: 85.5, date: "2026-11-03", merchant_name: "Chez Nous" }),
    ]);

    expect(answer.body).not.toHaveProperty("page");
    expect(answer.body).toMatchObject({
      form: "full",
      add_backs: { lines: 2, total_cents: -28550, categories: [{ category: "Owner draw", lines: 2, total_cents: -28550 }] },
    });

    const listed = (await api(session(t), "/api/v1/auditor/grants")).body.grants.find((g: any) => g.grant_id === grant.grant_id);
    expect(listed.last_read_at).not.toBeNull();
  });

  it("pages the add-backs with their records, oldest first; the full form lists them all at once", async () => {
    const { token } = await grantAuditor(t);
    const read = (query: string) => api({ bearer: token }, `/api/v1/auditor/view?${query}`);
    const first = (await read("form=paged&per_page=1")).body;
    const second = (await read("form=paged&per_page=1&page=2")).body;
    const past = (await read("form=paged&per_page=1&page=3")).body;
    expect([first, second, past].map((v) => v.pocket_flagged.map((p: any) => p.description))).toEqual([["ATM OWNER CASH"], ["FAMILY DINNER"], []]);
    expect([first, second].map((v) => v.receipts.map((r: any) => [r.src_id, r.raw.name]))).toEqual([
      [[first.pocket_flagged[0].src_id, "ATM OWNER CASH"]],
      [[second.pocket_flagged[0].src_id, "FAMILY DINNER"]],
    ]);
    // The totals and the months are whole on every page.
    for (const v of [first, second, past]) expect(v).toMatchObject({ add_backs: { lines: 2 }, months: first.months });
    const full = (await read("form=full")).body;
    expect(auditorViewResponse.parse(full)).toEqual(full);
    expect(full).not.toHaveProperty("page");
    expect(full.form).toBe("full");
    expect(full.pocket_flagged).toEqual([...first.pocket_flagged, ...second.pocket_flagged]);
    expect((await read("form=paged")).body).toMatchObject({ form: "paged", page: 1, per_page: 100 });
    expect((await read("form=paged&per_page=5000")).body.per_page).toBe(500);
    expect((await read("form=everything&page=0")).body.errors.map((e: any) => e.field).sort()).toEqual(["query.form", "query.page"]);
  });

  it("never writes a grant code into the thread", async () => {
    const codes = (await outbox(t)).map((m) => /\b(\d{6})\b/.exec(m.body)?.[1]).filter(Boolean) as string[];
    const thread = JSON.stringify((await api(rw(t), "/api/v1/messages")).body);
    for (const code of codes) expect(thread).not.toContain(code);
  });

  it("refuses a wrong code, another name or another spelling of the phone, by name", async () => {
    const { request_id } = (await offer(t)).body;
    const code = await lastCode(t);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    expect((await confirm(t, request_id, { code: wrong })).body).toMatchObject({ status: 403, code: "code_wrong" });
    expect((await confirm(t, request_id, { code, viewer_name: "Someone Else" })).body).toMatchObject({ status: 403, code: "name_mismatch" });
    expect((await confirm(t, request_id, { code, viewer_channel: "+1 555 555 0123".replaceAll(" ", "") + "0" })).body).toMatchObject({ code: "code_wrong" });
    // Still confirmable with all three right (three attempts spent of five).
    expect((await confirm(t, request_id, { code })).status).toBe(200);
    expect((await confirm(t, request_id, { code })).body).toMatchObject({ status: 403, code: "request_used" });
  });

  it("stops a brute force at the fifth attempt: even the right code is refused after", async () => {
    const { request_id } = (await offer(t)).body;
    const code = await lastCode(t);
    const guesses = ["000000", "111111", "222222", "333333", "444444", "555555"].filter((g) => g !== code);
    for (let attempt = 1; attempt <= GRANT_MAX_ATTEMPTS; attempt++) {
      const answer = await confirm(t, request_id, { code: guesses[attempt - 1]! });
      expect(answer.body).toMatchObject({ status: 403, code: "code_wrong" });
      expect(answer.body.detail).toContain(`${GRANT_MAX_ATTEMPTS - attempt} attempt(s) left`);
    }
    expect((await confirm(t, request_id, { code })).body).toMatchObject({ status: 403, code: "too_many_attempts" });
  });

  it("refuses an expired request and answers 404 for a request it never filed", async () => {
    const { request_id } = (await offer(t)).body;
    const code = await lastCode(t);
    const elevenMinutesLater = new Date(Date.now() + 11 * 60_000);
    await expect(confirmGrant(env, t.tenant, request_id, { code, ...VIEWER }, elevenMinutesLater, "unknown")).rejects.toMatchObject({ status: 403, code: "request_expired" });
    expect((await confirm(t, 999_999, { code })).status).toBe(404);
    const other = await createTenant();
    expect((await confirm(other, request_id, { code })).status).toBe(404);
  });

  it("validates the offer and the confirm", async () => {
    const bad = await offer(t, { viewer_name: "", viewer_channel: "555-0123" });
    expect(bad.body).toMatchObject({ status: 400 });
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["body.viewer_channel", "body.viewer_name"]);
    expect((await confirm(t, 1, { code: "12345" })).body.errors[0].field).toBe("body.code");
  });
});

describe("revoked and expired grants", () => {
  it("are refused by name, never 404, and a revoked grant is never live again", async () => {
    const t = await createTenant();
    const { grant, token, request_id } = await grantAuditor(t);
    expect((await view(token)).status).toBe(200);
    const revoked = await api(session(t), `/api/v1/auditor/grants/${grant.grant_id}/revoke`, { method: "POST" });
    expect(revoked.body.grant).toMatchObject({ grant_id: grant.grant_id, status: "revoked", revoked_at: expect.any(String) });
    expect((await view(token)).body).toMatchObject({ status: 403, code: "grant_revoked" });
    // Revoking again changes nothing; confirming the request again does not bring it back.
    const again = await api(session(t), `/api/v1/auditor/grants/${grant.grant_id}/revoke`, { method: "POST", body: { grant_id: grant.grant_id } });
    expect(again.body.grant.revoked_at).toBe(revoked.body.grant.revoked_at);
    expect((await confirm(t, request_id, { code: "000000" })).body.code).toBe("request_used");
    expect((await api(session(t), `/api/v1/auditor/grants/${grant.grant_id}/revoke`, { method: "POST", body: { grant_id: grant.grant_id + 1 } })).status).toBe(400);
    expect((await api(session(t), "/api/v1/auditor/grants/999999/revoke", { method: "POST" })).status).toBe(404);
  });

  it("expire after 24 hours: 403 grant_expired", async () => {
    const t = await createTenant();
    const { token } = await grantAuditor(t);
    const request = new Request(`${BASE}/api/v1/auditor/view`, { headers: { authorization: `Bearer ${token}` } });
    const later = new Date(Date.now() + 24 * 3_600_000 + 1000);
    const caller = await resolveCaller(request, env.INDEX_DB, later);
    expect(() => checkRule(caller, "auditor", request, later)).toThrow(expect.objectContaining({ status: 403, code: "grant_expired" }));
    expect(() => checkRule(caller, "auditor", request, new Date())).not.toThrow();
  });

  it("refuses a personal access token and a session on the auditor view", async () => {
    const t = await createTenant();
    expect((await api(rw(t), "/api/v1/auditor/view")).body).toMatchObject({ status: 403, code: "auditor_only" });
    expect((await api(session(t), "/api/v1/auditor/view")).body).toMatchObject({ status: 403, code: "auditor_only" });
  });
});

describe("a deployment without an outbound SMS credential", () => {
  it("answers 503 and files nothing", async () => {
    const t = await createTenant({ sms: false });
    const answer = await offer(t);
    expect(answer.status).toBe(503);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(answer.body.code).toBe("sms_unavailable");
    expect(await rowsIn("grant_requests", t.tenant)).toEqual([]);
    expect(await outbox(t)).toEqual([]);
  });
});

describe("/settings", () => {
  it("lists grants with a revoke button", async () => {
    const t = await createTenant();
    const { grant } = await grantAuditor(t);
    const page = await SELF.fetch(`${BASE}/settings`, { headers: { cookie: `svc_session=${t.session}` } });
    const html = await page.text();
    expect(html).toContain(VIEWER.viewer_name);
    expect(html).toContain(`/settings/grants/${grant.grant_id}/revoke`);
  });
});
