/**
 * list_parity_verdicts and get_parity_verdict: the history and one verdict as filed (match
 * or mismatch, the deltas, the localisations, what no transaction explains, the oracle and
 * where it came from), the mismatch's notice in the thread and by text, and who reads
 * them: the owner's credentials and a live auditor grant. The credential matrix and
 * isolation are in test/credentials.test.ts and test/isolation.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, CHECKING, createTenant, deliver, eventually, grantAuditor, judge, outbox, ro, rw, session, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { filedVerdictResponse, oracleReportSchema } from "../reports/schema";
import { verdictHistoryResponse } from "./schema";

// Aggregator sign: positive = money out. As of 2026-11-20: 7d current 11-14..11-20, 30d 10-22..11-20.
const LINES = [
  txn("s1", { name: "SALE A", amount: -1000, date: "2026-11-20" }),
  txn("s2", { name: "SALE B", amount: -500, date: "2026-11-18" }),
  txn("i1", { name: "INVENTORY", amount: 200, date: "2026-11-16" }),
  txn("w1", { name: "SOFTWARE", amount: 50, date: "2026-11-01" }),
];
const CATEGORY_OF: Record<string, string> = { SALE: "Sales", INVENTORY: "Inventory", SOFTWARE: "Software" };

async function bookedTenant(options: Record<string, unknown> = {}): Promise<SandboxTenant> {
  const t = await createTenant(options);
  await deliver(t.tenant, { accounts: [CHECKING], added: LINES });
  await landSandboxBank(t);
  for (const [name, header] of [["Sales", "income"], ["Inventory", "cogs"], ["Software", "expense"]]) {
    expect((await api(rw(t), "/api/v1/new-category", { method: "POST", body: { name, header } })).status).toBe(200);
  }
  for (const row of (await api(rw(t), "/api/v1/transactions")).body.rows) await judge(t, row.src_id, CATEGORY_OF[row.description.split(" ")[0]]!);
  return t;
}

// The whole report (form=full): an oracle lists the transactions behind its lines.
const report = async (t: SandboxTenant, asOf: string) => (await api(rw(t), `/api/v1/reports/pnl-rolling?as_of=${asOf}&form=full`)).body;

/**
 * The books' own report with two differences in the 7-day window: the oracle has SALE A at
 * 900.00 (an AMOUNT_DIFF of 100.00), and states revenue, gross margin and net income 7.77
 * lower than its own lines add up to (which no transaction explains).
 */
function drifted(own: any): any {
  const oracle = structuredClone(own);
  const sections = oracle.windows["7d"].sections;
  const sale = sections.revenue.lines[0].transactions.find((x: any) => x.description === "SALE A");
  sale.amount_cents = 90000;
  for (const name of ["revenue", "gross_margin", "net_income"]) sections[name].current -= 10000 + 777;
  return oracle;
}

const file = (t: SandboxTenant, body: unknown) => api(rw(t), "/api/v1/reports/pnl-parity", { method: "POST", body });

describe("the parity verdicts", () => {
  let t: SandboxTenant;
  let own: any;
  let oracle: any;
  let mismatch: any;

  beforeAll(async () => {
    t = await bookedTenant();
    own = await report(t, "2026-11-20");
    oracle = drifted(own);
    expect((await file(t, { oracle: await report(t, "2026-11-19") })).status).toBe(200);
    expect((await file(t, { oracle: own })).body.verdict).toMatchObject({ as_of: "2026-11-20", revision: 1, match: true, unexplained: [] });
    const answer = await file(t, { oracle });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    mismatch = answer.body.verdict;
  });

  it("marks a delta no transaction explains as `unexplained`, with its amount", () => {
    expect(mismatch).toMatchObject({ as_of: "2026-11-20", revision: 2, match: false });
    expect(mismatch.localisations).toEqual([
      expect.objectContaining({ kind: "AMOUNT_DIFF", window: "7d", description: "SALE A", local: { section: "revenue", category: "Sales", amount_cents: 100000 }, oracle: { section: "revenue", category: "Sales", amount_cents: 90000 } }),
    ]);
    expect(mismatch.deltas).toMatchObject({ "7d.revenue": 10777, "7d.gross_margin": 10777, "7d.net_income": 10777, "7d.cogs": 0, "30d.revenue": 0 });
    // The AMOUNT_DIFF explains 100.00 of each; 7.77 is left over in each, and nothing else is.
    const left = { delta_cents: 10777, explained_cents: 10000, unexplained_cents: 777 };
    expect(mismatch.unexplained).toEqual([
      { window: "7d", section: "revenue", ...left },
      { window: "7d", section: "gross_margin", ...left },
      { window: "7d", section: "net_income", ...left },
    ]);
  });

  it("lists each day's verdict, newest day first, and every revision on asking", async () => {
    const history = await api(ro(t), "/api/v1/reports/parity-verdicts");
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect(verdictHistoryResponse.parse(history.body)).toEqual(history.body);
    expect(history.body).toMatchObject({ page: 1, per_page: 50, total: 2 });
    expect(history.body.verdicts.map((v: any) => [v.as_of, v.revision, v.match])).toEqual([
      ["2026-11-20", 2, false],
      ["2026-11-19", 1, true],
    ]);
    const [newest] = history.body.verdicts;
    expect(newest).toEqual({
      status: "filed",
      as_of: "2026-11-20",
      revision: 2,
      filed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      match: false,
      coefficient: mismatch.coefficient,
      deltas: mismatch.deltas,
      unexplained: mismatch.unexplained,
      localisation_count: 1,
      oracle: { source: "manual", url: null, filed_by: `token:${t.tenant}:${t.tokens.read_write.split(".")[1]}` },
    });

    const all = await api(ro(t), "/api/v1/reports/parity-verdicts?revisions=all");
    expect(all.body.verdicts.map((v: any) => [v.as_of, v.revision])).toEqual([
      ["2026-11-20", 2],
      ["2026-11-20", 1],
      ["2026-11-19", 1],
    ]);
    expect(all.body.total).toBe(3);
  });

  it("bounds the days and pages the history", async () => {
    const days = async (query: string) => (await api(ro(t), `/api/v1/reports/parity-verdicts?${query}`)).body.verdicts.map((v: any) => `${v.as_of}#${v.revision}`);
    expect(await days("from=2026-11-20")).toEqual(["2026-11-20#2"]);
    expect(await days("to=2026-11-19")).toEqual(["2026-11-19#1"]);
    expect(await days("from=2026-11-21")).toEqual([]);
    expect(await days("revisions=all&per_page=1&page=2")).toEqual(["2026-11-20#1"]);
    const clamped = await api(ro(t), "/api/v1/reports/parity-verdicts?per_page=1000&page=9");
    expect(clamped.body).toMatchObject({ verdicts: [], page: 9, per_page: 100, total: 2 });
  });

  it("refuses a bad filter, naming every field", async () => {
    const answer = await api(ro(t), "/api/v1/reports/parity-verdicts?from=2026-02-30&revisions=some&per_page=0");
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.field).sort()).toEqual(["query.from", "query.per_page", "query.revisions"]);
  });

  it("reads one verdict with its oracle: the day's newest revision, or the one named", async () => {
    const newest = await api(ro(t), "/api/v1/reports/parity-verdicts/2026-11-20");
    expect(newest.status, JSON.stringify(newest.body)).toBe(200);
    expect(filedVerdictResponse.parse(newest.body)).toEqual(newest.body);
    const { verdict } = newest.body;
    expect(verdict).toMatchObject({ ...mismatch, filed_at: expect.any(String) });
    expect(verdict.oracle).toMatchObject({ source: "manual", url: null, filed_by: expect.stringMatching(/^token:/) });
    // The oracle is kept as the contract reads it: the report's shape, without what the books' own report adds.
    expect(verdict.oracle.report).toEqual(oracleReportSchema.parse(oracle));

    const first = (await api(session(t), "/api/v1/reports/parity-verdicts/2026-11-20?revision=1")).body.verdict;
    expect(first).toMatchObject({ revision: 1, match: true, coefficient: 0, localisations: [], unexplained: [] });
    expect(first.oracle.report).toEqual(oracleReportSchema.parse(own));
  });

  it("is 404 for a day without a verdict or a revision never filed, and 400 for a bad day or revision", async () => {
    const none = await api(ro(t), "/api/v1/reports/parity-verdicts/2026-11-18");
    expect(none.body).toMatchObject({ status: 404, code: "not_found", detail: "No parity verdict is filed for 2026-11-18." });
    expect((await api(ro(t), "/api/v1/reports/parity-verdicts/2026-11-20?revision=3")).body).toMatchObject({ status: 404, detail: expect.stringContaining("No revision 3") });
    expect((await api(ro(t), "/api/v1/reports/parity-verdicts/2026-13-01")).body).toMatchObject({ status: 400, errors: [expect.objectContaining({ field: "path.as_of" })] });
    expect((await api(ro(t), "/api/v1/reports/parity-verdicts/2026-11-20?revision=0x1")).body).toMatchObject({ status: 400, errors: [expect.objectContaining({ field: "query.revision", code: "not_an_integer" })] });
  });

  it("tells the owner of a mismatch in the thread and by text, and of a match not at all", async () => {
    const notices = (await api(ro(t), "/api/v1/messages")).body.messages.filter((m: any) => m.body.startsWith("Parity mismatch"));
    expect(notices).toHaveLength(1);
    const expected =
      `Parity mismatch on 2026-11-20 (revision 2, filed by hand): coefficient ${Number(mismatch.coefficient.toPrecision(4))}. ` +
      "Books minus oracle: 7d.revenue +$107.77, 7d.gross_margin +$107.77, 7d.net_income +$107.77. 1 line explains the differences; " +
      "3 numbers are not wholly explained. Details: GET /api/v1/reports/parity-verdicts/2026-11-20?revision=2";
    expect(notices[0]).toMatchObject({ direction: "out", channel: "sms", body: expected });
    // The text goes out through the job queue to the sandbox carrier, to the owner's enrolled phone.
    const texted = await eventually("the notice texted", async () => (await outbox(t)).find((m) => m.body === expected));
    expect(texted.to).toBe("+15555550100");
    const sent = await eventually("the notice marked sent", async () =>
      (await api(ro(t), "/api/v1/messages")).body.messages.find((m: any) => m.body === expected && m.status === "sent"),
    );
    expect(sent.provider_sid).toBe(texted.sid);
    expect((await outbox(t)).filter((m) => m.body.startsWith("Parity mismatch"))).toHaveLength(1);
  });

  it("posts the notice in the thread only where the tenant's SMS is not configured", async () => {
    const quiet = await bookedTenant({ sms: false });
    const answer = await file(quiet, { oracle: drifted(await report(quiet, "2026-11-20")) });
    expect(answer.body.verdict.match).toBe(false);
    const [notice] = (await api(ro(quiet), "/api/v1/messages")).body.messages;
    expect(notice).toMatchObject({ direction: "out", channel: "notice", status: "posted", provider_sid: "", body: expect.stringMatching(/^Parity mismatch on 2026-11-20 \(revision 1/) });
    expect(await outbox(quiet)).toEqual([]);
  });

  it("reads the same to a live auditor grant, stamping its last read, and refuses it once revoked", async () => {
    const grant = await grantAuditor(t);
    const auditor = { bearer: grant.token };
    expect((await api(auditor, "/api/v1/reports/parity-verdicts")).body).toEqual((await api(ro(t), "/api/v1/reports/parity-verdicts")).body);
    expect((await api(auditor, "/api/v1/reports/parity-verdicts/2026-11-20?revision=2")).body).toEqual((await api(ro(t), "/api/v1/reports/parity-verdicts/2026-11-20?revision=2")).body);
    const listed = (await api(session(t), "/api/v1/auditor/grants")).body.grants.find((g: any) => g.grant_id === grant.grant.grant_id);
    expect(listed.last_read_at).toEqual(expect.any(String));
    // The grant reads the verdicts, and still nothing it was not granted.
    expect((await api(auditor, "/api/v1/transactions")).body).toMatchObject({ status: 403, code: "auditor_scope" });
    expect((await api(auditor, "/api/v1/reports/pnl-parity", { method: "POST", body: { oracle: own } })).body).toMatchObject({ status: 403, code: "auditor_scope" });

    expect((await api(session(t), `/api/v1/auditor/grants/${grant.grant.grant_id}/revoke`, { method: "POST" })).status).toBe(200);
    expect((await api(auditor, "/api/v1/reports/parity-verdicts")).body).toMatchObject({ status: 403, code: "grant_revoked" });
    expect((await api(auditor, "/api/v1/reports/parity-verdicts/2026-11-20")).body).toMatchObject({ status: 403, code: "grant_revoked" });
  });

  it("files nothing and lists nothing new for a refused filing", async () => {
    const before = (await api(ro(t), "/api/v1/reports/parity-verdicts?revisions=all")).body.total;
    expect((await api(ro(t), "/api/v1/reports/pnl-parity", { method: "POST", body: { oracle } })).status).toBe(403);
    const local = structuredClone(own);
    local.windows["7d"].sections.revenue.current += 1;
    expect((await file(t, { oracle, local })).status).toBe(409);
    expect((await api(ro(t), "/api/v1/reports/parity-verdicts?revisions=all")).body.total).toBe(before);
  });
});
