/**
 * The daily parity run: each tenant's oracle, set on /settings, is fetched and the day's
 * verdict filed; a failing source is recorded on its tenant and never stops the others; a
 * mismatch is read back with its source, and the owner is told of it.
 */
import { env, SELF } from "cloudflare:test";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { runTenantDay } from "../src/cron/daily";
import { ledgerOf } from "../src/env";
import { settle } from "../src/errors";
import { landSandboxBank } from "./fixtures/books";
import { api, BASE, CHECKING, createTenant, deliver, eventually, judge, outbox, ro, rw, txn, type SandboxTenant } from "./fixtures/sandbox";

/** Saves a tenant's oracle through the /settings form, as a person would. */
async function setOracle(t: SandboxTenant, url: string, secret = ""): Promise<Response> {
  return SELF.fetch(`${BASE}/settings/oracle`, {
    method: "POST",
    headers: { cookie: `svc_session=${t.session}`, origin: BASE, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ url, secret }).toString(),
  });
}

describe("the daily parity run", () => {
  let good: SandboxTenant;
  let broken: SandboxTenant;
  let card: SandboxTenant;
  let report: unknown;
  const seen: { path: string; authorization: string | null }[] = [];
  const oracle = new Hono();
  oracle.get("/good.json", (c) => (seen.push({ path: c.req.path, authorization: c.req.header("authorization") ?? null }), c.json(report)));
  oracle.get("/down.json", (c) => c.text("upstream exploded", 500));
  oracle.get("/card.md", (c) => c.text("## P&L\nRevenue: $500.00"));
  // The books' own report with the sale 50.00 short: an AMOUNT_DIFF in both windows.
  oracle.get("/drift.json", (c) => {
    const drifted = structuredClone(report) as any;
    for (const window of ["7d", "30d"]) {
      const sections = drifted.windows[window].sections;
      sections.revenue.lines[0].transactions[0].amount_cents -= 5000;
      for (const name of ["revenue", "gross_margin", "net_income"]) sections[name].current -= 5000;
    }
    return c.json(drifted);
  });
  const fetchOracle: typeof fetch = async (input, init) => oracle.fetch(new Request(input, init));

  beforeAll(async () => {
    good = await createTenant();
    await deliver(good.tenant, { accounts: [CHECKING], added: [txn("s", { name: "SALE", amount: -500, date: "2026-11-19" })] });
    await landSandboxBank(good);
    await api(rw(good), "/api/v1/new-category", { method: "POST", body: { name: "Sales", header: "income" } });
    await judge(good, (await api(rw(good), "/api/v1/transactions")).body.rows[0].src_id, "Sales");
    // The whole report (form=full): an oracle lists the transactions behind its lines.
    report = (await api(rw(good), "/api/v1/reports/pnl-rolling?as_of=2026-11-20&form=full")).body;
    broken = await createTenant();
    card = await createTenant();
    expect((await setOracle(good, "https://oracle.test/good.json", "s3cret")).status).toBe(200);
    expect((await setOracle(broken, "https://oracle.test/down.json")).status).toBe(200);
    expect((await setOracle(card, "https://oracle.test/card.md")).status).toBe(200);
  });

  /** The run the tenant's ledger recorded last (its parity status). */
  const lastRun = async (t: SandboxTenant) => settle(await ledgerOf(env, t.tenant).lastOracleRun());

  /** The day's run of each of the tenants, as their queued messages run it. */
  const runDay = async (at: string, tenants = [good, broken, card]) =>
    Promise.all(tenants.map(async (t) => (await runTenantDay(env, t.tenant, new Date(at), { fetchOracle, tail: null })).parity));

  it("files each tenant's verdict and records the sources that fail", async () => {
    expect(await runDay("2026-11-21T11:00:00Z")).toEqual(["filed", "failed", "failed"]);
    expect(seen.at(-1)).toEqual({ path: "/good.json", authorization: "Bearer s3cret" });
    expect(await lastRun(good)).toMatchObject({ status: "filed", asOf: "2026-11-20", revision: 1, error: null });
    expect(await lastRun(broken)).toMatchObject({ status: "failed", error: "the oracle answered HTTP 500" });
    expect(await lastRun(card)).toMatchObject({ status: "failed", error: "the oracle's answer is not JSON (a rendered card?)" });
    // The failure is the day's entry in the tenant's verdict history, told apart from a verdict by its status.
    expect((await api(ro(broken), "/api/v1/reports/parity-verdicts")).body.verdicts).toEqual([
      expect.objectContaining({ status: "failed", as_of: "2026-11-21", error: "the oracle answered HTTP 500", oracle_url: "https://oracle.test/down.json", recorded_by: "cron:daily-parity" }),
    ]);
    expect((await api(ro(good), "/api/v1/reports/parity-verdicts")).body.verdicts).toEqual([expect.objectContaining({ status: "filed", as_of: "2026-11-20", revision: 1, match: true })]);

    // The next day's run files the next revision for the oracle's day, and says so on /settings.
    expect(await runDay("2026-11-22T11:00:00Z", [good])).toEqual(["filed"]);
    expect((await lastRun(good))!.revision).toBe(2);
    const page = await (await SELF.fetch(`${BASE}/settings`, { headers: { cookie: `svc_session=${good.session}` } })).text();
    expect(page).toContain("https://oracle.test/good.json");
    expect(page).toContain("verdict filed (revision 2)");
    expect(page).not.toContain("s3cret");
  });

  it("files nothing more when a day's message is delivered again, and nothing for a tenant without a source", async () => {
    const asked = seen.length;
    expect(await runDay("2026-11-22T11:00:00Z")).toEqual(["already-ran", "failed", "failed"]);
    expect(await runDay("2026-11-22T11:00:00Z")).toEqual(["already-ran", "already-ran", "already-ran"]);
    expect(seen).toHaveLength(asked);
    expect((await lastRun(good))!.revision).toBe(2);
    // A day's message delivered late, after the next day's run, still finds its own run.
    expect(await runDay("2026-11-21T11:00:00Z", [good])).toEqual(["already-ran"]);
    expect((await lastRun(good))!.revision).toBe(2);
    const none = await createTenant();
    expect(await runDay("2026-11-22T11:00:00Z", [none])).toEqual(["no-source"]);
    expect(await lastRun(none)).toBeNull();
  });

  it("files a mismatch naming its source, and tells the owner in the thread and by text", async () => {
    const drifting = await createTenant();
    await deliver(drifting.tenant, { accounts: [CHECKING], added: [txn("s", { name: "SALE", amount: -500, date: "2026-11-19" })] });
    await landSandboxBank(drifting);
    await api(rw(drifting), "/api/v1/new-category", { method: "POST", body: { name: "Sales", header: "income" } });
    await judge(drifting, (await api(rw(drifting), "/api/v1/transactions")).body.rows[0].src_id, "Sales");
    expect((await setOracle(drifting, "https://oracle.test/drift.json?key=k1")).status).toBe(200);

    expect(await runDay("2026-11-21T11:00:00Z", [drifting])).toEqual(["filed"]);
    const { verdict } = (await api(ro(drifting), "/api/v1/reports/parity-verdicts/2026-11-20")).body;
    expect(verdict).toMatchObject({ revision: 1, match: false, deltas: { "7d.revenue": 5000, "30d.revenue": 5000 }, unexplained: [] });
    expect(verdict.localisations.map((l: any) => [l.kind, l.window])).toEqual([["AMOUNT_DIFF", "30d"], ["AMOUNT_DIFF", "7d"]]);
    // Its source, without the query its key sits in, and the report as the oracle sent it.
    expect(verdict.oracle).toMatchObject({ source: "daily", url: "https://oracle.test/drift.json", filed_by: "cron:daily-parity" });
    expect(verdict.oracle.report.windows["7d"].sections.revenue.current).toBe(45000);
    expect(JSON.stringify(verdict)).not.toContain("k1");

    const notice = (await api(ro(drifting), "/api/v1/messages")).body.messages[0];
    expect(notice.body).toMatch(/^Parity mismatch on 2026-11-20 \(revision 1, daily oracle\): .* 2 lines explain the differences\. /);
    const texted = await eventually("the notice texted", async () => (await outbox(drifting)).find((m) => m.body === notice.body));
    expect(texted.to).toBe("+15555550100");
  });

  it("refuses an oracle address that is not https, and a form from another origin", async () => {
    expect((await setOracle(good, "http://oracle.test/plain.json")).status).toBe(400);
    const foreign = await SELF.fetch(`${BASE}/settings/oracle`, {
      method: "POST",
      headers: { cookie: `svc_session=${good.session}`, origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ url: "https://evil.example/x.json" }).toString(),
    });
    expect(foreign.status).toBe(403);
  });
});
