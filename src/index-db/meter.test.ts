/** The cost meter in D1: counters that never lose an increment, caps, modes and months. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createTenant, uniqueSlug } from "../../test/fixtures/sandbox";
import { TAIL_SPEND_CAPS } from "../tiers";
import { drizzle } from "drizzle-orm/d1";
import {
  clearCapOverride,
  currentMode,
  meterMonths,
  meterMonthsOf,
  meterMonthsQueries,
  modeOf,
  monthOf,
  recordMeter,
  setCapOverride,
} from "./meter";

const NOW = new Date("2026-11-22T18:00:00Z");
const db = () => env.INDEX_DB;

/** The cap in force, as a caller batching the meter's reads gets it. */
async function capFor(d1: D1Database, tenant: string) {
  const orm = drizzle(d1);
  return meterMonthsOf(await orm.batch(meterMonthsQueries(orm, tenant, 1, NOW))).cap;
}

/** The stored rows themselves. */
async function storedRows(tenant: string) {
  const { results } = await db().prepare("SELECT * FROM meter_months WHERE tenant_id = ? ORDER BY month").bind(tenant).all();
  return results;
}

async function setTier(tenant: string, tier: string) {
  await db().prepare("UPDATE tenants SET tier = ? WHERE id = ?").bind(tier, tenant).run();
}

describe("recordMeter", () => {
  it("loses no increment when many watchers record at once", async () => {
    const tenant = uniqueSlug("meter");
    await Promise.all([
      ...Array.from({ length: 120 }, (_, i) =>
        recordMeter(db(), tenant, NOW, { calls: 1, millicents: i % 4 === 0 ? null : 10, linesSentToApi: 3 }),
      ),
      ...Array.from({ length: 30 }, () => recordMeter(db(), tenant, NOW, { linesResolvedLocal: 7 })),
    ]);
    const [month] = await meterMonths(db(), tenant, 36, NOW);
    expect(month).toMatchObject({
      month: "2026-11",
      calls: 120,
      millicents: 90 * 10,
      unpriced_calls: 30,
      lines_sent_to_api: 360,
      lines_resolved_local: 210,
    });
    expect(await storedRows(tenant)).toHaveLength(1);
  });

  it("counts a call with no cost as unpriced: in calls and unpriced_calls, nothing in millicents", async () => {
    const tenant = uniqueSlug("meter");
    await recordMeter(db(), tenant, NOW, { millicents: null }); // calls defaults to 1 for a call
    await recordMeter(db(), tenant, NOW, { calls: 1, millicents: null, linesSentToApi: 50 });
    await recordMeter(db(), tenant, NOW, { calls: 1, millicents: 0 }); // a free call is priced
    await recordMeter(db(), tenant, NOW, { calls: 1, millicents: 2.2 }); // a fraction is rounded up
    for (const unknown of [Number.NaN, -5, Number.POSITIVE_INFINITY]) await recordMeter(db(), tenant, NOW, { millicents: unknown });
    const [month] = await meterMonths(db(), tenant, 1, NOW);
    expect(month).toMatchObject({ calls: 7, millicents: 3, unpriced_calls: 5, lines_sent_to_api: 50, lines_resolved_local: 0 });
  });

  it("refuses what would break the counters, and writes nothing for a delta that adds nothing", async () => {
    const tenant = uniqueSlug("meter");
    await expect(recordMeter(db(), tenant, NOW, { calls: 2, millicents: 10 })).rejects.toThrow(RangeError);
    await expect(recordMeter(db(), tenant, NOW, { calls: 1 })).rejects.toThrow(RangeError);
    await expect(recordMeter(db(), tenant, NOW, { linesSentToApi: -1 })).rejects.toThrow(RangeError);
    await expect(recordMeter(db(), tenant, NOW, { linesResolvedLocal: 1.5 })).rejects.toThrow(RangeError);
    await recordMeter(db(), tenant, NOW, {});
    await recordMeter(db(), tenant, NOW, { linesResolvedLocal: 0, linesSentToApi: 0 });
    expect(await storedRows(tenant)).toEqual([]);
  });

  it("books each outcome in its America/Chicago month, across standard time, daylight time and the new year", async () => {
    const cases: [string, string][] = [
      ["2026-12-01T05:59:59.999Z", "2026-11"], // CST (UTC-6): still 30 November 23:59 in Chicago
      ["2026-12-01T06:00:00.000Z", "2026-12"],
      ["2027-01-01T05:59:59.999Z", "2026-12"], // New Year's Eve in Chicago
      ["2027-01-01T06:00:00.000Z", "2027-01"],
      ["2027-04-01T04:59:59.999Z", "2027-03"], // CDT (UTC-5)
      ["2027-04-01T05:00:00.000Z", "2027-04"],
    ];
    for (const [at, month] of cases) expect(monthOf(new Date(at)), at).toBe(month);

    const tenant = uniqueSlug("meter");
    for (const [i, [at]] of cases.entries()) await recordMeter(db(), tenant, new Date(at), { calls: 1, millicents: 10 ** i });
    const months = await meterMonths(db(), tenant, 12, new Date("2027-04-15T12:00:00Z"));
    expect(months.map((m) => [m.month, m.millicents])).toEqual([
      ["2027-04", 100_000],
      ["2027-03", 10_000],
      ["2027-01", 1_000],
      ["2026-12", 110],
      ["2026-11", 1],
    ]);
  });
});

describe("meterMonths", () => {
  it("lists months with activity among the last `months` calendar months, the current one included, newest first", async () => {
    const tenant = uniqueSlug("meter");
    const now = new Date("2027-01-15T12:00:00Z");
    for (const at of ["2016-12-15", "2017-01-15", "2026-10-15", "2026-12-15", "2027-02-15"]) {
      await recordMeter(db(), tenant, new Date(`${at}T18:00:00Z`), { linesResolvedLocal: 1 });
    }
    const list = async (months: number) => (await meterMonths(db(), tenant, months, now)).map((m) => m.month);
    // Nothing yet in January: no row. February is the future and never shown.
    expect(await list(1)).toEqual([]);
    expect(await list(2)).toEqual(["2026-12"]);
    await recordMeter(db(), tenant, now, { linesSentToApi: 2 });
    expect(await list(1)).toEqual(["2027-01"]);
    // November had no activity: no row.
    expect(await list(4)).toEqual(["2027-01", "2026-12", "2026-10"]);
    // 120 months back from January 2027 starts at February 2017.
    expect(await list(120)).toEqual(["2027-01", "2026-12", "2026-10"]);
    expect(await list(121)).toEqual(["2027-01", "2026-12", "2026-10", "2017-01"]);
    expect(await meterMonths(db(), uniqueSlug("meter"), 36, now)).toEqual([]);
    for (const bad of [0, -1, 1.5, Number.NaN]) await expect(meterMonths(db(), tenant, bad, now)).rejects.toThrow(RangeError);
  });

  it("shows every field of the Meter month, each month against the cap in force now", async () => {
    const t = await createTenant({ tier: "free" });
    await setCapOverride(db(), t.tenant, 100, NOW);
    await recordMeter(db(), t.tenant, new Date("2026-10-10T18:00:00Z"), { calls: 1, millicents: 150, linesSentToApi: 4 });
    await recordMeter(db(), t.tenant, NOW, { calls: 1, millicents: 30, linesSentToApi: 2 });
    await recordMeter(db(), t.tenant, NOW, { linesResolvedLocal: 9 });
    const cap = { cap_tier: "free", cap_millicents_month: 100, cap_source: "tenant_override" };
    expect(await meterMonths(db(), t.tenant, 36, NOW)).toEqual([
      { month: "2026-11", calls: 1, millicents: 30, unpriced_calls: 0, lines_resolved_local: 9, lines_sent_to_api: 2, ...cap, mode: "interactive" },
      { month: "2026-10", calls: 1, millicents: 150, unpriced_calls: 0, lines_resolved_local: 0, lines_sent_to_api: 4, ...cap, mode: "batched" },
    ]);
  });
});

describe("caps", () => {
  it("takes the cap from the tier table unless the tenant has its own", async () => {
    const free = await createTenant({ tier: "free" });
    const paid = await createTenant({ tier: "paid" });
    expect(await capFor(db(), free.tenant)).toEqual({ cap_tier: "free", cap_millicents_month: TAIL_SPEND_CAPS.free, cap_source: "tier_table" });
    expect(await capFor(db(), paid.tenant)).toEqual({ cap_tier: "paid", cap_millicents_month: TAIL_SPEND_CAPS.paid, cap_source: "tier_table" });

    await setCapOverride(db(), free.tenant, 250, NOW);
    expect(await capFor(db(), free.tenant)).toEqual({ cap_tier: "free", cap_millicents_month: 250, cap_source: "tenant_override" });
    await setCapOverride(db(), free.tenant, 5_000_000, NOW); // an override may raise the cap too; the newest wins
    expect(await capFor(db(), free.tenant)).toEqual({ cap_tier: "free", cap_millicents_month: 5_000_000, cap_source: "tenant_override" });
    await clearCapOverride(db(), free.tenant);
    expect(await capFor(db(), free.tenant)).toEqual({ cap_tier: "free", cap_millicents_month: TAIL_SPEND_CAPS.free, cap_source: "tier_table" });
    // Another tenant's override never applies.
    expect((await capFor(db(), paid.tenant)).cap_source).toBe("tier_table");
  });

  it("knows no cap for a tier the table does not hold, unless the tenant has its own", async () => {
    const t = await createTenant();
    for (const tier of ["enterprise", "constructor", "toString"]) {
      await setTier(t.tenant, tier);
      expect(await capFor(db(), t.tenant)).toEqual({ cap_tier: tier, cap_millicents_month: null, cap_source: null });
    }
    await setCapOverride(db(), t.tenant, 0, NOW);
    expect(await capFor(db(), t.tenant)).toEqual({ cap_tier: "toString", cap_millicents_month: 0, cap_source: "tenant_override" });
    expect(await capFor(db(), "no-such-tenant")).toEqual({ cap_tier: null, cap_millicents_month: null, cap_source: null });
  });

  it("refuses an override that is not whole millicents >= 0", async () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(setCapOverride(db(), uniqueSlug("meter"), bad, NOW)).rejects.toThrow(RangeError);
    }
  });
});

describe("modes", () => {
  it("is interactive under the cap, batched at exactly the cap and over it, and null when no cap is known", () => {
    expect(modeOf(99, 100)).toBe("interactive");
    expect(modeOf(100, 100)).toBe("batched");
    expect(modeOf(101, 100)).toBe("batched");
    expect(modeOf(0, 0)).toBe("batched");
    expect(modeOf(0, null)).toBeNull();
    expect(modeOf(99, { cap_tier: "paid", cap_millicents_month: 100, cap_source: "tier_table" })).toBe("interactive");
    expect(modeOf(0, { cap_tier: "enterprise", cap_millicents_month: null, cap_source: null })).toBeNull();
  });

  it("follows this month's spend against the cap in force, and starts again with the month", async () => {
    const t = await createTenant();
    await setCapOverride(db(), t.tenant, 20, NOW);
    expect(await currentMode(db(), t.tenant, NOW)).toBe("interactive");
    await recordMeter(db(), t.tenant, NOW, { calls: 1, millicents: 19 });
    await recordMeter(db(), t.tenant, NOW, { calls: 1, millicents: null }); // unknown cost adds nothing
    expect(await currentMode(db(), t.tenant, NOW)).toBe("interactive");
    await recordMeter(db(), t.tenant, NOW, { calls: 1, millicents: 1 });
    expect(await currentMode(db(), t.tenant, NOW)).toBe("batched");
    // 1 December 06:00 UTC is midnight in Chicago: a new month, nothing spent yet.
    expect(await currentMode(db(), t.tenant, new Date("2026-12-01T05:59:59Z"))).toBe("batched");
    expect(await currentMode(db(), t.tenant, new Date("2026-12-01T06:00:00Z"))).toBe("interactive");
    await clearCapOverride(db(), t.tenant);
    expect(await currentMode(db(), t.tenant, NOW)).toBe("interactive"); // the paid tier's cap is far above 20
  });

  it("is null, never interactive, when no cap is known, whatever was spent", async () => {
    const t = await createTenant();
    await setTier(t.tenant, "enterprise");
    expect(await currentMode(db(), t.tenant, NOW)).toBeNull();
    await recordMeter(db(), t.tenant, NOW, { calls: 1, millicents: 10_000_000 });
    expect(await currentMode(db(), t.tenant, NOW)).toBeNull();
    expect((await meterMonths(db(), t.tenant, 1, NOW))[0]).toMatchObject({ cap_tier: "enterprise", cap_millicents_month: null, cap_source: null, mode: null });
    expect(await currentMode(db(), "no-such-tenant", NOW)).toBeNull();
  });
});
