/**
 * Parity's `unexplained` as a function of the deltas and the localisations alone, the same
 * for the same books and oracle, and the filed verdicts read back, a verdict filed before
 * `match` and `unexplained` were kept included; the notice a mismatch posts with it; the
 * daily runs that filed no verdict, listed beside the verdicts.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { faceFor } from "../face";
import { listMessages } from "../messages";
import type { TenantLedger } from "../tenant-ledger";
import { parityVerdicts } from "../store/schema";
import { computeVerdict, fileVerdict, unexplainedOf, type ComparableReport } from "./parity";
import { rollingPnl } from "./pnl";
import { lastOracleRun, oracleRunAt, recordFailedRun } from "./oracle-runs";
import { filedVerdictJson, listVerdicts, type VerdictFilter } from "./verdicts";

const AT = "2026-11-21T11:00:00.000Z";
const face = faceFor({ tier: "paid", visibleFrom: null });

type Tx = { side: "A" | "B"; src_id: number; posted_on: string; description: string; amount_cents: number; period: "current" | "prior" };

/** A report in the P&L's shape: each section's lines as given, its `current` their sum unless stated. */
function report(windows: Partial<Record<"7d" | "30d", Partial<Record<string, { lines?: { category: string; transactions: Tx[] }[]; current?: number }>>>>): ComparableReport {
  const sign: Record<string, number> = { revenue: 1, cogs: -1, biz_expenses: -1, owners_draw: -1 };
  const build = (given: Partial<Record<string, { lines?: { category: string; transactions: Tx[] }[]; current?: number }>> = {}) => {
    const base = (name: string) => {
      const lines = (given[name]?.lines ?? []).map((l) => {
        const current = l.transactions.filter((x) => x.period === "current").reduce((s, x) => s + sign[name]! * x.amount_cents, 0);
        return { category: l.category, current, prior: 0, sign: 1 as const, transactions: l.transactions };
      });
      return { current: given[name]?.current ?? lines.reduce((s, l) => s + l.current, 0), prior: 0, derived: false, lines };
    };
    const revenue = base("revenue");
    const cogs = base("cogs");
    const biz = base("biz_expenses");
    const gross = { current: given.gross_margin?.current ?? revenue.current - cogs.current, prior: 0, derived: true, lines: [] };
    const net = { current: given.net_income?.current ?? gross.current - biz.current, prior: 0, derived: true, lines: [] };
    return { from: "", to: "", prior_from: "", prior_to: "", sections: { revenue, cogs, gross_margin: gross, biz_expenses: biz, net_income: net, owners_draw: base("owners_draw") } };
  };
  return { windows: { "7d": build(windows["7d"]), "30d": build(windows["30d"]) } } as unknown as ComparableReport;
}

const tx = (src_id: number, amount_cents: number, description = `LINE ${src_id}`, posted_on = "2026-11-17"): Tx => ({ side: "A", src_id, posted_on, description, amount_cents, period: "current" });

describe("what no transaction explains", () => {
  const books = report({ "7d": { revenue: { lines: [{ category: "Sales", transactions: [tx(1, 10000), tx(2, 5000)] }] }, cogs: { lines: [{ category: "Stock", transactions: [tx(3, -2000)] }] } } });

  it("is nothing when the localisations account for every delta", () => {
    // The oracle lacks sale 2 and books the stock purchase as an expense: both localised, nothing left over.
    const oracle = report({ "7d": { revenue: { lines: [{ category: "Sales", transactions: [tx(1, 10000)] }] }, biz_expenses: { lines: [{ category: "Supplies", transactions: [tx(3, -2000)] }] } } });
    const verdict = computeVerdict("2026-11-20", books, oracle);
    expect(verdict.match).toBe(false);
    expect(verdict.localisations.map((l) => [l.kind, l.src_id])).toEqual([["MISSING_ON_ORACLE", 2], ["RECATEGORIZED", 3]]);
    expect(verdict.deltas).toMatchObject({ "7d.revenue": 5000, "7d.cogs": 2000, "7d.biz_expenses": -2000, "7d.gross_margin": 3000, "7d.net_income": 5000 });
    expect(verdict.unexplained).toEqual([]);
  });

  it("is each delta's whole amount when no localisation touches its section, and the rest when one explains part", () => {
    // The oracle's lines are the books', but it states revenue 12.34 higher than they add up to,
    // and its 30-day window counts a sale the books do not have, stated 1.00 short.
    const oracle = report({
      "7d": { revenue: { lines: [{ category: "Sales", transactions: [tx(1, 10000), tx(2, 5000)] }], current: 16234 }, cogs: { lines: [{ category: "Stock", transactions: [tx(3, -2000)] }] } },
      "30d": { revenue: { lines: [{ category: "Sales", transactions: [tx(9, 700, "CASH SALE", "2026-11-05")] }], current: 600 } },
    });
    const verdict = computeVerdict("2026-11-20", books, oracle);
    expect(verdict.localisations.map((l) => [l.kind, l.window, l.src_id])).toEqual([["MISSING_ON_LOCAL", "30d", 9]]);
    expect(verdict.unexplained).toEqual([
      { window: "7d", section: "revenue", delta_cents: -1234, explained_cents: 0, unexplained_cents: -1234 },
      { window: "7d", section: "gross_margin", delta_cents: -1234, explained_cents: 0, unexplained_cents: -1234 },
      { window: "7d", section: "net_income", delta_cents: -1234, explained_cents: 0, unexplained_cents: -1234 },
      { window: "30d", section: "revenue", delta_cents: -600, explained_cents: -700, unexplained_cents: 100 },
      { window: "30d", section: "gross_margin", delta_cents: -600, explained_cents: -700, unexplained_cents: 100 },
      { window: "30d", section: "net_income", delta_cents: -600, explained_cents: -700, unexplained_cents: 100 },
    ]);
    // A function of the deltas and the localisations alone: the same books and oracle give the same verdict.
    expect(unexplainedOf(verdict.deltas, verdict.localisations)).toEqual(verdict.unexplained);
    expect(computeVerdict("2026-11-20", structuredClone(books), structuredClone(oracle))).toEqual(verdict);
  });
});

describe("the filed verdicts, read back", () => {
  it("reads a verdict filed before `match` and `unexplained` were kept as one filed today, and posts a mismatch's notice", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("verdicts-read-back"));
    await runInDurableObject(stub, (instance: TenantLedger) => {
      const db = instance.db;
      const books = rollingPnl(db, face, "2026-11-20");
      const oracle = report({ "7d": { revenue: { lines: [{ category: "Sales", transactions: [tx(7, 2500, "CASH SALE")] }], current: 3000 } } });
      const core = computeVerdict("2026-11-20", books, oracle);
      const filing = { actor: "cron:daily-parity", oracleUrl: "https://oracle.example/pnl.json?key=s3cret#top", ranAt: null, textOwner: false };
      // The same comparison filed twice: revision 1 as fileVerdict wrote it before `match` and
      // `unexplained` were kept (so no fact of today's code can make it), revision 2 as it is now.
      const { match: _match, unexplained: _unexplained, ...older } = core;
      db.insert(parityVerdicts)
        .values({ asOf: "2026-11-20", revision: 1, verdict: JSON.stringify({ ...older, revision: 1 }), oracle: JSON.stringify(oracle), oracleUrl: "https://oracle.example/pnl.json", actor: filing.actor, filedAt: AT })
        .run();
      const filed = fileVerdict(db, core, oracle, filing, AT);
      expect(filed.verdict.revision).toBe(2);

      const one = (revision: number) => {
        const outcome = filedVerdictJson(db, "2026-11-20", revision);
        if (!outcome.ok) throw new Error(outcome.refusal.words);
        return JSON.parse(outcome.value).verdict;
      };
      const [old, now] = [one(1), one(2)];
      expect(old).toEqual({ ...now, revision: 1 });
      // The source's address is kept without its query or fragment.
      expect(now).toMatchObject({ match: false, unexplained: core.unexplained, oracle: { source: "daily", url: "https://oracle.example/pnl.json", filed_by: "cron:daily-parity", report: oracle } });
      expect(core.unexplained).toEqual([
        { window: "7d", section: "revenue", delta_cents: -3000, explained_cents: -2500, unexplained_cents: -500 },
        { window: "7d", section: "gross_margin", delta_cents: -3000, explained_cents: -2500, unexplained_cents: -500 },
        { window: "7d", section: "net_income", delta_cents: -3000, explained_cents: -2500, unexplained_cents: -500 },
      ]);
      const listed = listVerdicts(db, { from: null, to: null, revisions: "all" }, 1, 10).verdicts;
      expect(listed.map((v) => v.status === "filed" && [v.revision, v.match, v.unexplained, v.localisation_count])).toEqual([
        [2, false, core.unexplained, 1],
        [1, false, core.unexplained, 1],
      ]);
      expect(filedVerdictJson(db, "2026-11-20", 3)).toMatchObject({ ok: false, refusal: { kind: "not_found" } });

      // The mismatch posted its notice in the thread, in the verdict's own transaction: here not texted.
      const notices = listMessages(db, 10);
      expect(notices.map((m) => [m.direction, m.channel, m.status])).toEqual([["out", "notice", "posted"]]);
      expect(notices[0]!.body).toBe(
        "Parity mismatch on 2026-11-20 (revision 2, daily oracle): coefficient 1. Books minus oracle: 7d.revenue -$30.00, " +
          "7d.gross_margin -$30.00, 7d.net_income -$30.00. " +
          "1 line explains the differences; 3 numbers are not wholly explained. Details: GET /api/v1/reports/parity-verdicts/2026-11-20?revision=2",
      );
    });
  });
});

describe("the daily runs that filed no verdict", () => {
  it("are listed beside the verdicts, told apart by their status; a day's verdict stands for it under `latest`", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("verdicts-and-failed-runs"));
    await runInDurableObject(stub, (instance: TenantLedger) => {
      const db = instance.db;
      const daily = (ranAt: string) => ({ actor: "cron:daily-parity", oracleUrl: "https://oracle.example/pnl.json?key=s3cret", ranAt, textOwner: false });
      const fileOn = (asOf: string, ranAt: string, at: string) => {
        const books = rollingPnl(db, face, asOf);
        return fileVerdict(db, computeVerdict(asOf, books, books), books, daily(ranAt), at);
      };
      const fail = (day: string, error: string, actor = "cron:daily-parity") =>
        recordFailedRun(db, { ranAt: `${day}T11:00:00.000Z`, asOf: day, error, oracleUrl: "https://oracle.example/pnl.json?key=s3cret", actor }, `${day}T11:00:02.000Z`);

      fileOn("2026-11-18", "2026-11-18T11:00:00.000Z", "2026-11-18T11:00:01.000Z");
      expect(fail("2026-11-19", "the oracle answered HTTP 500")).toBe(true);
      expect(fail("2026-11-20", "the job queue gave up on it after 4 deliveries, none of which could finish", "service:job-queue")).toBe(true);
      // The 20th's oracle answered later, by hand: the day has a verdict after all.
      fileVerdict(db, computeVerdict("2026-11-20", rollingPnl(db, face, "2026-11-20"), rollingPnl(db, face, "2026-11-20")), {}, { actor: "human:owner", oracleUrl: null, ranAt: null, textOwner: false }, "2026-11-20T15:00:00.000Z");
      // A run is recorded once: its job coming again records nothing, whether it failed or filed.
      expect(fail("2026-11-19", "the oracle could not be reached")).toBe(false);
      expect(recordFailedRun(db, { ranAt: "2026-11-18T11:00:00.000Z", asOf: "2026-11-18", error: "late", oracleUrl: "https://oracle.example/pnl.json", actor: "service:job-queue" }, AT)).toBe(false);
      expect(oracleRunAt(db, "2026-11-18T11:00:00.000Z")).toMatchObject({ status: "filed", revision: 1, asOf: "2026-11-18", oracleUrl: "https://oracle.example/pnl.json" });
      expect(lastOracleRun(db)).toMatchObject({ status: "failed", asOf: "2026-11-20", actor: "service:job-queue" });

      const listed = (filter: Partial<VerdictFilter>) => listVerdicts(db, { from: null, to: null, revisions: "latest", ...filter }, 1, 10);
      const shape = (v: ReturnType<typeof listed>["verdicts"][number]) => (v.status === "filed" ? `${v.as_of} filed #${v.revision} ${v.match ? "match" : "mismatch"}` : `${v.as_of} failed: ${v.error}`);
      expect(listed({}).verdicts.map(shape)).toEqual(["2026-11-20 filed #1 match", "2026-11-19 failed: the oracle answered HTTP 500", "2026-11-18 filed #1 match"]);
      expect(listed({}).total).toBe(3);
      expect(listed({ revisions: "all" }).verdicts.map(shape)).toEqual([
        "2026-11-20 filed #1 match",
        "2026-11-20 failed: the job queue gave up on it after 4 deliveries, none of which could finish",
        "2026-11-19 failed: the oracle answered HTTP 500",
        "2026-11-18 filed #1 match",
      ]);
      expect(listed({ from: "2026-11-19", to: "2026-11-19" }).verdicts).toEqual([
        {
          status: "failed",
          as_of: "2026-11-19",
          ran_at: "2026-11-19T11:00:00.000Z",
          recorded_at: "2026-11-19T11:00:02.000Z",
          error: "the oracle answered HTTP 500",
          oracle_url: "https://oracle.example/pnl.json",
          recorded_by: "cron:daily-parity",
        },
      ]);
      expect(listVerdicts(db, { from: null, to: null, revisions: "all" }, 2, 3)).toMatchObject({ total: 4, verdicts: [{ as_of: "2026-11-18", status: "filed" }] });

      // One day read: the 404 of a day without a verdict says why there is none.
      expect(filedVerdictJson(db, "2026-11-19", null)).toMatchObject({
        ok: false,
        refusal: { kind: "not_found", words: "No parity verdict is filed for 2026-11-19: the oracle run failed on 2026-11-19: the oracle answered HTTP 500" },
      });
      expect(filedVerdictJson(db, "2026-11-17", null)).toMatchObject({ ok: false, refusal: { words: "No parity verdict is filed for 2026-11-17." } });
    });
  });
});
