/**
 * The daily parity run: each tenant's oracle, set on /settings, is fetched and the day's
 * verdict filed; a failing source is recorded on its tenant and never stops the others.
 */
import { env, SELF } from "cloudflare:test";
import { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { runTenantDay } from "../src/cron/daily";
import { lastOracleRun } from "../src/index-db/oracle";
import { api, BASE, CHECKING, createTenant, deliver, judge, rw, syncNow, txn, type SandboxTenant } from "./fixtures/sandbox";

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
  const fetchOracle: typeof fetch = async (input, init) => oracle.fetch(new Request(input, init));

  beforeAll(async () => {
    good = await createTenant();
    await deliver(good.tenant, { accounts: [CHECKING], added: [txn("s", { name: "SALE", amount: -500, date: "2026-11-19" })] });
    await syncNow(good);
    await api(rw(good), "/api/v1/new-category", { method: "POST", body: { name: "Sales", header: "income" } });
    await judge(good, (await api(rw(good), "/api/v1/transactions")).body.rows[0].src_id, "Sales");
    report = (await api(rw(good), "/api/v1/reports/pnl-rolling?as_of=2026-11-20")).body;
    broken = await createTenant();
    card = await createTenant();
    expect((await setOracle(good, "https://oracle.test/good.json", "s3cret")).status).toBe(200);
    expect((await setOracle(broken, "https://oracle.test/down.json")).status).toBe(200);
    expect((await setOracle(card, "https://oracle.test/card.md")).status).toBe(200);
  });

  /** The day's run of each of the tenants, as their queued messages run it. */
  const runDay = async (at: string, tenants = [good, broken, card]) =>
    Promise.all(tenants.map(async (t) => (await runTenantDay(env, t.tenant, new Date(at), { fetchOracle, tail: null })).parity));

  it("files each tenant's verdict and records the sources that fail", async () => {
    expect(await runDay("2026-11-21T11:00:00Z")).toEqual(["filed", "failed", "failed"]);
    expect(seen.at(-1)).toEqual({ path: "/good.json", authorization: "Bearer s3cret" });
    expect(await lastOracleRun(env.INDEX_DB, good.tenant)).toMatchObject({ status: "filed", asOf: "2026-11-20", revision: 1, error: null });
    expect(await lastOracleRun(env.INDEX_DB, broken.tenant)).toMatchObject({ status: "failed", error: "the oracle answered HTTP 500" });
    expect(await lastOracleRun(env.INDEX_DB, card.tenant)).toMatchObject({ status: "failed", error: "the oracle's answer is not JSON (a rendered card?)" });

    // The next day's run files the next revision for the oracle's day, and says so on /settings.
    expect(await runDay("2026-11-22T11:00:00Z", [good])).toEqual(["filed"]);
    expect((await lastOracleRun(env.INDEX_DB, good.tenant))!.revision).toBe(2);
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
    expect((await lastOracleRun(env.INDEX_DB, good.tenant))!.revision).toBe(2);
    // A day's message delivered late, after the next day's run, still finds its own run.
    expect(await runDay("2026-11-21T11:00:00Z", [good])).toEqual(["already-ran"]);
    expect((await lastOracleRun(env.INDEX_DB, good.tenant))!.revision).toBe(2);
    const none = await createTenant();
    expect(await runDay("2026-11-22T11:00:00Z", [none])).toEqual(["no-source"]);
    expect(await lastOracleRun(env.INDEX_DB, none.tenant)).toBeUndefined();
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
