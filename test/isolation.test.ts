/**
 * Isolation between tenants. The tenant is always the credential's, so another tenant's
 * line, rule, export, verdict, grant, grant request, seat or invitation is addressed
 * through the caller's own empty books: every such address is 404, with every credential
 * that passes the rule (an auditor grant token of the neighbour's included, where a grant
 * reads), and no read of any kind (its own books, the auditor view, the verdicts, the
 * grants, the people) carries a word of the neighbour's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CREDENTIAL_RULES } from "../src/auth/caller";
import { endpoints } from "../src/endpoints/index";
import { invite, seatPerson } from "./fixtures/people";
import { api, CHECKING, createTenant, deliver, eventually, grantAuditor, judge, linkSandboxBank, outbox, rw, ro, session, syncNow, txn, VIEWER, type SandboxTenant } from "./fixtures/sandbox";

/** Every word tenant A owns carries this, so a leak of any field is a substring away. */
const MARK = "zebramark";

interface Resources {
  lineId: number;
  ruleKey: string;
  exportId: number;
  grantId: number;
  requestId: number;
  connectionId: number;
  verdictDay: string;
  seatId: number;
  invitationId: number;
}

let owner: SandboxTenant;
let neighbour: SandboxTenant;
let neighbourAuditor: string;
let owned: Resources;

beforeAll(async () => {
  owner = await createTenant();
  neighbour = await createTenant();
  await deliver(owner.tenant, {
    accounts: [{ ...CHECKING, name: `${MARK} checking` }],
    added: [txn("z1", { name: `${MARK} coffee`, merchant_name: `${MARK} cafe` }), txn("z2", { name: `${MARK} rent`, amount: 900 })],
  });
  await syncNow(owner);
  const lines = await api(rw(owner), "/api/v1/transactions");
  const lineId = lines.body.rows[0].src_id;
  await judge(owner, lineId, `${MARK} meals`);
  const ruleKey = `${MARK}-rule`;
  const rule = await api(rw(owner), "/api/v1/create-rule", {
    method: "POST",
    body: { rule_key: ruleKey, match_kind: "description_regex", match_value: MARK, category: `${MARK} category` },
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(200);
  const made = await api(rw(owner), "/api/v1/new-category", { method: "POST", body: { name: `${MARK} category`, header: "expense" } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const exported = await api(rw(owner), "/api/v1/export", { method: "POST", body: {} });
  expect(exported.status, JSON.stringify(exported.body)).toBeLessThan(300);
  const grant = await grantAuditor(owner, { viewer_name: `${MARK} auditor`, viewer_channel: VIEWER.viewer_channel });
  // A second offer, left unconfirmed: its request is the owner's too.
  const pending = await api(session(owner), "/api/v1/auditor/grants", { method: "POST", body: { ...VIEWER, viewer_name: `${MARK} second` } });
  await outbox(owner);
  // A bank of the owner's past the one the neighbour also has (each has its sandbox bank as connection 1).
  const connectionId = await linkSandboxBank(owner);
  expect(connectionId).toBeGreaterThan(1);
  // A verdict against an oracle that has a sale of the mark's the books lack: a mismatch, localised by name.
  const oracle = (await api(rw(owner), "/api/v1/reports/pnl-rolling?as_of=2026-11-20&form=full")).body;
  const sale = { side: "A", src_id: 999999, posted_on: "2026-11-17", description: `${MARK} cash sale`, amount_cents: 5000, period: "current" };
  oracle.windows["7d"].sections.revenue.lines.push({ category: `${MARK} sales`, current: 5000, prior: 0, sign: 1, transactions: [sale] });
  oracle.windows["7d"].sections.revenue.current += 5000;
  const filed = await api(rw(owner), "/api/v1/reports/pnl-parity", { method: "POST", body: { oracle } });
  expect(filed.status, JSON.stringify(filed.body)).toBe(200);
  expect(filed.body.verdict.match).toBe(false);
  // Its notice is texted by the job queue: wait for it, so nothing of the owner's is still moving.
  await eventually("the mismatch notice texted", async () => ((await outbox(owner)).some((m) => m.body.startsWith("Parity mismatch")) ? true : undefined));
  // A person seated in the owner's business, and an invitation still pending, both named with the mark.
  await seatPerson(owner, "bookkeeper", `${MARK} Person`);
  await invite(owner, `${MARK}-pending@books.example`, "viewer");
  const listed = (await api(session(owner), "/api/v1/people")).body;
  const seatId = listed.people.find((p: any) => p.name === `${MARK} Person`).seat_id;
  const invitationId = listed.invitations.find((i: any) => i.email === `${MARK}-pending@books.example`).invitation_id;
  owned = {
    lineId,
    ruleKey,
    exportId: exported.body.export_id,
    grantId: grant.grant.grant_id,
    requestId: pending.body.request_id,
    connectionId,
    verdictDay: "2026-11-20",
    seatId,
    invitationId,
  };
  neighbourAuditor = (await grantAuditor(neighbour)).token;
});

/** The credentials of the neighbour's that pass an operation's rule. */
function neighbourCredentials(e: (typeof endpoints)[number]): { bearer?: string; session?: string }[] {
  if (e.credential === "auditor") return [{ bearer: neighbourAuditor }];
  if (e.credential === "session") return [session(neighbour)];
  const own = e.access === "write" ? [rw(neighbour), session(neighbour)] : [rw(neighbour), ro(neighbour), session(neighbour)];
  return CREDENTIAL_RULES[e.credential].grant === "also" ? [...own, { bearer: neighbourAuditor }] : own;
}

/** Every way to name one of the owner's resources, as the neighbour would send it. */
function addressing(r: Resources): [string, string, string, unknown][] {
  const rule = { rule_key: r.ruleKey, match_kind: "description_regex", match_value: MARK, category: "Meals" };
  return [
    ["get_transaction", "GET", `/api/v1/transactions/A/${r.lineId}`, undefined],
    ["explain_transaction", "GET", `/api/v1/transactions/A/${r.lineId}/why`, undefined],
    ["label_transaction", "POST", `/api/v1/transactions/A/${r.lineId}/label`, { category: "Meals" }],
    ["categorize", "POST", "/api/v1/categorize", { side: "A", src_id: r.lineId, category: "Meals" }],
    ["adjudicate", "POST", "/api/v1/adjudicate", { ...rule, a_id: r.lineId }],
    ["move_rule_to_end", "POST", "/api/v1/move-rule-to-end", { rule_key: r.ruleKey }],
    ["retire_rule", "POST", "/api/v1/retire-rule", { rule_key: r.ruleKey }],
    ["get_export", "GET", `/api/v1/exports/${r.exportId}`, undefined],
    ["get_export_file", "GET", `/api/v1/exports/${r.exportId}/transactions.csv`, undefined],
    ["confirm_auditor_grant", "POST", `/api/v1/auditor/grants/${r.requestId}/confirm`, { code: "123456", ...VIEWER, viewer_name: `${MARK} second` }],
    ["revoke_auditor_grant", "POST", `/api/v1/auditor/grants/${r.grantId}/revoke`, undefined],
    ["get_connection", "GET", `/api/v1/connections/${r.connectionId}`, undefined],
    ["get_parity_verdict", "GET", `/api/v1/reports/parity-verdicts/${r.verdictDay}`, undefined],
    ["withdraw_invitation", "POST", `/api/v1/people/invitations/${r.invitationId}/withdraw`, undefined],
    ["change_seat_role", "POST", `/api/v1/people/seats/${r.seatId}/role`, { role: "viewer" }],
    ["revoke_seat", "POST", `/api/v1/people/seats/${r.seatId}/revoke`, undefined],
  ];
}

describe("another tenant's resources", () => {
  it("are named by every operation that takes a resource", () => {
    const covered = new Set(addressing(owned).map(([op]) => op));
    const takingOne = endpoints.filter((e) => e.path.includes("{") && e.credential !== "auditor").map((e) => e.operationId);
    for (const op of takingOne) expect(covered, op).toContain(op);
  });

  it("are 404 to every credential of the neighbour that passes the rule, and exist for the owner", async () => {
    for (const [op, method, path, body] of addressing(owned)) {
      const e = endpoints.find((x) => x.operationId === op)!;
      for (const credential of neighbourCredentials(e)) {
        const answer = await api(credential, path, { method, body });
        expect(answer.status, `${op} as the neighbour: ${JSON.stringify(answer.body)}`).toBe(404);
        expect(answer.headers.get("content-type"), op).toBe("application/problem+json");
        // The answer may repeat what the neighbour sent (a key it named), and nothing else of the owner's.
        const echoed = Object.values((body ?? {}) as Record<string, unknown>).filter((v): v is string => typeof v === "string");
        const words = echoed.reduce((text, value) => text.split(value).join(""), JSON.stringify(answer.body));
        expect(words.toLowerCase(), op).not.toContain(MARK);
      }
    }
    // The same addresses are the owner's: reads answer, so the 404s above are isolation, not typos.
    for (const [op, method, path] of addressing(owned).filter(([, method]) => method === "GET")) {
      expect((await api(rw(owner), path, { method })).status, op).toBe(200);
    }
    // The neighbour changed nothing of the owner's people: the seat is live with its role, the invitation pending.
    const people = (await api(session(owner), "/api/v1/people")).body;
    expect(people.people.find((p: any) => p.seat_id === owned.seatId)).toMatchObject({ role: "bookkeeper", revoked_at: null });
    expect(people.invitations.find((i: any) => i.invitation_id === owned.invitationId)).toMatchObject({ status: "pending" });
  });
});

describe("the neighbour's reads", () => {
  it("carry no word of the owner's, through any read operation and any credential", async () => {
    const reads = endpoints.filter((e) => e.method === "get" && !e.path.includes("{"));
    // The query a read cannot go without, at its widest.
    const needs: Record<string, string> = { list_pnl_transactions: "?window=30d&section=unknown_label" };
    for (const e of reads) {
      for (const credential of neighbourCredentials(e)) {
        const answer = await api(credential, `${e.path}${needs[e.operationId] ?? ""}`);
        expect(answer.status, `${e.operationId}: ${JSON.stringify(answer.body)}`).toBe(200);
        expect(JSON.stringify(answer.body).toLowerCase(), e.operationId).not.toContain(MARK);
      }
    }
    // The owner's own reads do carry the mark: the check above can find it.
    expect(JSON.stringify((await api(rw(owner), "/api/v1/transactions")).body)).toContain(MARK);
    expect(JSON.stringify((await api(rw(owner), "/api/v1/reports/parity-verdicts/2026-11-20")).body)).toContain(MARK);
    // The neighbour's own history is empty, to every credential that reads it.
    for (const credential of [rw(neighbour), { bearer: neighbourAuditor }]) {
      expect((await api(credential, "/api/v1/reports/parity-verdicts")).body).toMatchObject({ verdicts: [], total: 0 });
    }
  });
});
