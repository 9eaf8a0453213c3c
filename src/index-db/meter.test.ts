/** The cost meter in D1: counters that never lose an increment, caps, modes and months. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createTenant } from "../../test/fixtures/sandbox";
import { CAP_TIERS, capFor, currentMode, meterMonthsOf, modeOf, monthOf, recordMeter, setCapOverride } from "./meter";

const NOW = new Date("2026-11-22T18:00:00Z");

describe("recordMeter", () => {
  it("loses no increment when many watchers record at once", async () => {
    const t = await createTenant();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => recordMeter(env.INDEX_DB, t.tenant, NOW, { calls: 1, millicents: i % 4 === 0 ? null : 10, linesSentToApi: 3 })),
    );
    await recordMeter(env.INDEX_DB, t.tenant, NOW, { linesResolvedLocal: 7 });
    const [month] = await meterMonthsOf(env.INDEX_DB, t.tenant, 36, NOW);
    expect(month).toMatchObject({ month: "2026-11", calls: 40, millicents: 300, unpriced_calls: 10, lines_sent_to_api: 120, lines_resolved_local: 7 });
  });

  it("books each outcome in its America/Chicago month", async () => {
    const t = await createTenant();
    // 03:00 UTC on 1 December is still 30 November in Chicago.
    expect(monthOf(new Date("2026-12-01T03:00:00Z"))).toBe("2026-11");
    await recordMeter(env.INDEX_DB, t.tenant, new Date("2026-12-01T03:00:00Z"), { calls: 1, millicents: 5 });
    await recordMeter(env.INDEX_DB, t.tenant, new Date("2026-12-01T12:00:00Z"), { calls: 1, millicents: 7 });
    const months = await meterMonthsOf(env.INDEX_DB, t.tenant, 36, new Date("2026-12-15T12:00:00Z"));
    expect(months.map((m) => [m.month, m.millicents])).toEqual([["2026-12", 7], ["2026-11", 5]]);
    expect(await meterMonthsOf(env.INDEX_DB, t.tenant, 1, new Date("2026-12-15T12:00:00Z"))).toHaveLength(1);
  });
});

describe("caps and modes", () => {
  it("takes the cap from the tier table unless the tenant has its own", async () => {
    const t = await createTenant({ tier: "free" });
    expect(await capFor(env.INDEX_DB, t.tenant)).toEqual({ cap_tier: "free", cap_millicents_month: CAP_TIERS.free, cap_source: "tier_table" });
    await setCapOverride(env.INDEX_DB, t.tenant, 250, NOW);
    expect(await capFor(env.INDEX_DB, t.tenant)).toEqual({ cap_tier: "free", cap_millicents_month: 250, cap_source: "tenant_override" });
    expect(await capFor(env.INDEX_DB, "no-such-tenant")).toEqual({ cap_tier: null, cap_millicents_month: null, cap_source: null });
  });

  it("is interactive under the cap, batched at or over it, and null when no cap is known", async () => {
    expect(modeOf(99, 100)).toBe("interactive");
    expect(modeOf(100, 100)).toBe("batched");
    expect(modeOf(101, 100)).toBe("batched");
    expect(modeOf(0, null)).toBeNull();
    const t = await createTenant();
    await setCapOverride(env.INDEX_DB, t.tenant, 20, NOW);
    expect(await currentMode(env.INDEX_DB, t.tenant, NOW)).toBe("interactive");
    await recordMeter(env.INDEX_DB, t.tenant, NOW, { calls: 1, millicents: 20 });
    expect(await currentMode(env.INDEX_DB, t.tenant, NOW)).toBe("batched");
    expect(await currentMode(env.INDEX_DB, "no-such-tenant", NOW)).toBeNull();
  });
});
