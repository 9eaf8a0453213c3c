/**
 * The cost meter of the tail (the external model): one row per tenant and calendar month
 * (America/Chicago), and the monthly cap it is measured against.
 *
 * Counters only ever grow, through one atomic upsert per recorded outcome, so concurrent
 * watchers never lose an increment. `millicents: null` records a call whose cost was absent
 * or unparseable: it counts in `unpriced_calls`, never silently as free.
 */
import { and, desc, eq, gte, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { booksDate } from "../clock";
import type { Tier } from "../ledger/face";
import { meterCaps, meterMonths, tenants } from "./schema";

/** Monthly caps by tier, in millicents ($1 = 100,000 millicents). */
export const CAP_TIERS: Record<Tier, number> = { free: 50_000, paid: 1_000_000 };

export type MeterMode = "interactive" | "batched" | null;

export interface Cap {
  cap_tier: string | null;
  cap_millicents_month: number | null;
  /** `tenant_override` (an operator set the tenant's own cap) or `tier_table` (CAP_TIERS); null when none is known. */
  cap_source: "tenant_override" | "tier_table" | null;
}

export interface MeterDelta {
  calls?: number;
  /** One call's cost; null = the cost was absent or unparseable (counted in unpriced_calls). */
  millicents?: number | null;
  linesResolvedLocal?: number;
  linesSentToApi?: number;
}

export function monthOf(at: Date): string {
  return booksDate(at).slice(0, 7);
}

/** Adds one outcome to the tenant's row for the month of `at`. */
export async function recordMeter(d1: D1Database, tenantId: string, at: Date, delta: MeterDelta): Promise<void> {
  const row = {
    tenantId,
    month: monthOf(at),
    calls: delta.calls ?? 0,
    millicents: delta.millicents ?? 0,
    unpricedCalls: delta.millicents === null ? 1 : 0,
    linesResolvedLocal: delta.linesResolvedLocal ?? 0,
    linesSentToApi: delta.linesSentToApi ?? 0,
  };
  const plus = (column: keyof typeof row & keyof typeof meterMonths.$inferSelect) =>
    sql.raw(`${meterMonths[column].name} + excluded.${meterMonths[column].name}`);
  await drizzle(d1)
    .insert(meterMonths)
    .values(row)
    .onConflictDoUpdate({
      target: [meterMonths.tenantId, meterMonths.month],
      set: {
        calls: plus("calls"),
        millicents: plus("millicents"),
        unpricedCalls: plus("unpricedCalls"),
        linesResolvedLocal: plus("linesResolvedLocal"),
        linesSentToApi: plus("linesSentToApi"),
      },
    });
}

export async function setCapOverride(d1: D1Database, tenantId: string, millicents: number, at: Date): Promise<void> {
  await drizzle(d1)
    .insert(meterCaps)
    .values({ tenantId, capMillicentsMonth: millicents, setAt: at.toISOString() })
    .onConflictDoUpdate({ target: meterCaps.tenantId, set: { capMillicentsMonth: millicents, setAt: at.toISOString() } });
}

/** The cap in force: the tenant's override, else its tier's; none when neither is known. */
export async function capFor(d1: D1Database, tenantId: string): Promise<Cap> {
  const db = drizzle(d1);
  const tenant = await db.select({ tier: tenants.tier }).from(tenants).where(eq(tenants.id, tenantId)).get();
  const override = await db.select().from(meterCaps).where(eq(meterCaps.tenantId, tenantId)).get();
  const tier = tenant?.tier ?? null;
  if (override) return { cap_tier: tier, cap_millicents_month: override.capMillicentsMonth, cap_source: "tenant_override" };
  const fromTable = tier !== null ? CAP_TIERS[tier] : undefined;
  return fromTable === undefined
    ? { cap_tier: tier, cap_millicents_month: null, cap_source: null }
    : { cap_tier: tier, cap_millicents_month: fromTable, cap_source: "tier_table" };
}

/** Null when no cap is known (which never means under it); interactive under it; batched at or over it. */
export function modeOf(millicents: number, cap: number | null): MeterMode {
  if (cap === null) return null;
  return millicents < cap ? "interactive" : "batched";
}

export async function currentMode(d1: D1Database, tenantId: string, now: Date): Promise<MeterMode> {
  const row = await drizzle(d1)
    .select({ millicents: meterMonths.millicents })
    .from(meterMonths)
    .where(and(eq(meterMonths.tenantId, tenantId), eq(meterMonths.month, monthOf(now))))
    .get();
  return modeOf(row?.millicents ?? 0, (await capFor(d1, tenantId)).cap_millicents_month);
}

/**
 * The tenant's months with any activity among the last `months` calendar months, newest
 * first. Every month is shown against the cap in force now (caps are not kept by month).
 */
export async function meterMonthsOf(d1: D1Database, tenantId: string, months: number, now: Date) {
  const [year, month] = monthOf(now).split("-").map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 1 - (months - 1), 1)).toISOString().slice(0, 7);
  const rows = await drizzle(d1)
    .select()
    .from(meterMonths)
    .where(and(eq(meterMonths.tenantId, tenantId), gte(meterMonths.month, first)))
    .orderBy(desc(meterMonths.month));
  const cap = await capFor(d1, tenantId);
  return rows.map((r) => ({
    month: r.month,
    calls: r.calls,
    millicents: r.millicents,
    unpriced_calls: r.unpricedCalls,
    lines_resolved_local: r.linesResolvedLocal,
    lines_sent_to_api: r.linesSentToApi,
    ...cap,
    mode: modeOf(r.millicents, cap.cap_millicents_month),
  }));
}
