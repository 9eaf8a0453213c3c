/**
 * Isolation between tenants. The tenant is always the credential's, so another tenant's
 * line, rule, export, grant or grant request is addressed through the caller's own empty
 * books: every such address is 404, with every credential that passes the rule, and no
 * read of any kind (its own books, the auditor view, the grants) carries a word of the
 * neighbour's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../src/endpoints/index";
import { api, CHECKING, createTenant, deliver, grantAuditor, judge, outbox, rw, ro, session, syncNow, txn, VIEWER, type SandboxTenant } from "./fixtures/sandbox";

/** Every word tenant A owns carries this, so a leak of any field is a substring away. */
const MARK = "zebramark";

interface Resources {
  lineId: number;
  ruleKey: string;
  exportId: number;
  grantId: number;
  requestId: number;
}

let owner: SandboxTenant;
let neighbour: SandboxTenant;
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
  owned = { lineId, ruleKey, exportId: exported.body.export_id, grantId: grant.grant.grant_id, requestId: pending.body.request_id };
});

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
      const credentials = e.credential === "session" ? [session] : e.access === "write" ? [rw, session] : [rw, ro, session];
      for (const credential of credentials) {
        const answer = await api(credential(neighbour), path, { method, body });
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
  });
});

describe("the neighbour's reads", () => {
  it("carry no word of the owner's, through any read operation and any credential", async () => {
    const { token: neighbourAuditor } = await grantAuditor(neighbour);
    const reads = endpoints.filter((e) => e.method === "get" && !e.path.includes("{"));
    // The query a read cannot go without, at its widest.
    const needs: Record<string, string> = { list_pnl_transactions: "?window=30d&section=unknown_label" };
    for (const e of reads) {
      const credentials = e.credential === "auditor" ? [{ bearer: neighbourAuditor }] : e.credential === "session" ? [session(neighbour)] : [rw(neighbour), ro(neighbour), session(neighbour)];
      for (const credential of credentials) {
        const answer = await api(credential, `${e.path}${needs[e.operationId] ?? ""}`);
        expect(answer.status, `${e.operationId}: ${JSON.stringify(answer.body)}`).toBe(200);
        expect(JSON.stringify(answer.body).toLowerCase(), e.operationId).not.toContain(MARK);
      }
    }
    // The owner's own reads do carry the mark: the check above can find it.
    expect(JSON.stringify((await api(rw(owner), "/api/v1/transactions")).body)).toContain(MARK);
  });
});
