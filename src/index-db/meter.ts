/**
 * The cost meter of the tail (the external model): one row per tenant and calendar month
 * (America/Chicago) in D1, and the monthly cap it is measured against. Plain functions
 * over a D1Database; the watcher records, `get_meter` reads.
 *
 * Counters only ever grow, through one atomic upsert per recorded outcome
 * (`INSERT ... ON CONFLICT DO UPDATE SET calls = calls + excluded.calls, ...`), so
 * concurrent watchers never lose an increment. A call whose cost is unknown counts in
 * `unpriced_calls`, never silently as free. Every call is either priced or unpriced, so
 * `calls` = priced calls + `unpriced_calls` in every row.
 */
import { and, desc, eq, gte, lte, sql } from "drizzle-orm";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import type { BatchResponse } from "drizzle-orm/batch";
import { addMonths, booksDate } from "../clock";
import { TAIL_SPEND_CAPS, type Tier } from "../tiers";
import { meterCaps, meterMonths as meterMonthsTable, tenants } from "./schema";

/** null: no cap is known (which never means under it); `interactive` under the cap; `batched` at or over it. */
export type MeterMode = "interactive" | "batched" | null;

/** The cap in force: the tenant's override, else its tier's; none when neither is known. */
export type Cap =
  | { cap_tier: string | null; cap_millicents_month: number; cap_source: "tenant_override" | "tier_table" }
  | { cap_tier: string | null; cap_millicents_month: null; cap_source: null };

/** One row of `get_meter` (the contract's Meter month). */
export type MeterMonth = {
  month: string;
  calls: number;
  millicents: number;
  unpriced_calls: number;
  lines_resolved_local: number;
  lines_sent_to_api: number;
  mode: MeterMode;
} & Cap;

/**
 * What one `recordMeter` adds. Either one tail call's outcome, or aggregated line counts:
 * - a call: `millicents` is present (its cost, or null when the cost is unknown) and
 *   `calls` is 1 or omitted (it defaults to 1); `linesSentToApi` is how many lines that
 *   call carried. One call per record, so every call is priced or unpriced exactly once.
 * - line counts: `linesResolvedLocal` and/or `linesSentToApi`, any whole numbers (e.g. a
 *   sync's total), with no `millicents` and no `calls`.
 */
export interface MeterDelta {
  /** 1 (the default when `millicents` is present) or omitted; more than one call per record is refused. */
  calls?: number;
  /**
   * One call's cost in millicents. null: the cost was absent or unparseable, so
   * `unpriced_calls` += 1 and nothing is added to `millicents`. A fraction is rounded up;
   * a negative or non-finite cost is unknown too (unpriced), never a refund.
   */
  millicents?: number | null;
  linesResolvedLocal?: number;
  linesSentToApi?: number;
}

/** The books' calendar month (`YYYY-MM`, America/Chicago) of an instant. */
export function monthOf(at: Date): string {
  return booksDate(at).slice(0, 7);
}

function wholeCount(name: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`recordMeter: ${name} must be a whole number >= 0, not ${value}.`);
  return value;
}

/**
 * Adds one outcome (see MeterDelta) to the tenant's row for the America/Chicago month of
 * `at`, in one atomic upsert. A delta that adds nothing writes nothing, so every stored
 * row has activity. Refuses (RangeError) negative or fractional counts, a call without
 * its cost, and more than one call per record.
 */
export async function recordMeter(d1: D1Database, tenantId: string, at: Date, delta: MeterDelta): Promise<void> {
  const isCall = delta.millicents !== undefined;
  const calls = wholeCount("calls", delta.calls ?? (isCall ? 1 : 0));
  if (isCall && calls !== 1) throw new RangeError(`recordMeter: one call's outcome per record (calls must be 1, not ${calls}).`);
  if (!isCall && calls !== 0) throw new RangeError("recordMeter: a call needs its cost: millicents, or null when it is unknown.");
  const cost = typeof delta.millicents === "number" && delta.millicents >= 0 ? Math.ceil(delta.millicents) : null;
  const priced = cost !== null && Number.isSafeInteger(cost);
  const row = {
    tenantId,
    month: monthOf(at),
    calls,
    millicents: priced ? cost : 0,
    unpricedCalls: isCall && !priced ? 1 : 0,
    linesResolvedLocal: wholeCount("linesResolvedLocal", delta.linesResolvedLocal),
    linesSentToApi: wholeCount("linesSentToApi", delta.linesSentToApi),
  };
  if (row.calls === 0 && row.linesResolvedLocal === 0 && row.linesSentToApi === 0) return;
  const plus = (column: "calls" | "millicents" | "unpricedCalls" | "linesResolvedLocal" | "linesSentToApi") =>
    sql.raw(`${meterMonthsTable[column].name} + excluded.${meterMonthsTable[column].name}`);
  await drizzle(d1)
    .insert(meterMonthsTable)
    .values(row)
    .onConflictDoUpdate({
      target: [meterMonthsTable.tenantId, meterMonthsTable.month],
      set: {
        calls: plus("calls"),
        millicents: plus("millicents"),
        unpricedCalls: plus("unpricedCalls"),
        linesResolvedLocal: plus("linesResolvedLocal"),
        linesSentToApi: plus("linesSentToApi"),
      },
    });
}

/** Sets the tenant's own monthly cap (whole millicents >= 0; 0 batches everything). No endpoint: for operators and tests. */
export async function setCapOverride(d1: D1Database, tenantId: string, millicents: number, at: Date): Promise<void> {
  if (!Number.isSafeInteger(millicents) || millicents < 0) throw new RangeError(`setCapOverride: the cap must be whole millicents >= 0, not ${millicents}.`);
  await drizzle(d1)
    .insert(meterCaps)
    .values({ tenantId, capMillicentsMonth: millicents, setAt: at.toISOString() })
    .onConflictDoUpdate({ target: meterCaps.tenantId, set: { capMillicentsMonth: millicents, setAt: at.toISOString() } });
}

/** Removes the tenant's own cap: the tier table applies again. */
export async function clearCapOverride(d1: D1Database, tenantId: string): Promise<void> {
  await drizzle(d1).delete(meterCaps).where(eq(meterCaps.tenantId, tenantId));
}

/** The two reads a cap needs, to be sent in one D1 batch with whatever else the caller reads. */
function capQueries(db: DrizzleD1Database, tenantId: string) {
  return [
    db.select({ tier: tenants.tier }).from(tenants).where(eq(tenants.id, tenantId)),
    db.select({ cap: meterCaps.capMillicentsMonth }).from(meterCaps).where(eq(meterCaps.tenantId, tenantId)),
  ] as const;
}

/** The cap in force: the tenant's override wins, else its tier's from TAIL_SPEND_CAPS; none when neither is known. */
function capOf(tenantRows: { tier: string }[], overrideRows: { cap: number }[]): Cap {
  // D1 holds whatever tier was written; one the table does not know gives no cap.
  const tier: string | null = tenantRows[0]?.tier ?? null;
  const override = overrideRows[0];
  if (override) return { cap_tier: tier, cap_millicents_month: override.cap, cap_source: "tenant_override" };
  if (tier !== null && Object.hasOwn(TAIL_SPEND_CAPS, tier)) return { cap_tier: tier, cap_millicents_month: TAIL_SPEND_CAPS[tier as Tier], cap_source: "tier_table" };
  return { cap_tier: tier, cap_millicents_month: null, cap_source: null };
}

/** null when no cap is known (which never means under it); `interactive` under the cap; `batched` at or over it. */
export function modeOf(millicentsThisMonth: number, cap: Cap | number | null): MeterMode {
  const limit = typeof cap === "object" && cap !== null ? cap.cap_millicents_month : cap;
  if (limit === null) return null;
  return millicentsThisMonth < limit ? "interactive" : "batched";
}

/** The mode this month (America/Chicago) against the cap in force now: whether the tail's lines go out now or wait for the daily batch. */
export async function currentMode(d1: D1Database, tenantId: string, now: Date): Promise<MeterMode> {
  const db = drizzle(d1);
  const [tenantRows, overrideRows, spend] = await db.batch([
    ...capQueries(db, tenantId),
    db
      .select({ millicents: meterMonthsTable.millicents })
      .from(meterMonthsTable)
      .where(and(eq(meterMonthsTable.tenantId, tenantId), eq(meterMonthsTable.month, monthOf(now)))),
  ]);
  return modeOf(spend[0]?.millicents ?? 0, capOf(tenantRows, overrideRows));
}

/**
 * The tenant's meter over the last `months` calendar months (America/Chicago), the
 * current one included, newest first. Only months with activity are listed (recordMeter
 * stores no row for a delta that adds nothing), so a tenant with none gets `[]`; a missing
 * month spent nothing. Caps are not kept per month: every month is shown against the cap
 * in force now, and its `mode` is that month's spend against it (the current month's is
 * currentMode).
 * `months` is a whole number >= 1 (RangeError otherwise); the endpoint clamps it.
 */
export async function meterMonths(d1: D1Database, tenantId: string, months: number, now: Date): Promise<MeterMonth[]> {
  const db = drizzle(d1);
  return meterMonthsOf(await db.batch(meterMonthsQueries(db, tenantId, months, now))).months;
}

/** The reads meterMonths sends (the cap's and the months'), for a caller that sends them in its own D1 batch and reads their answers with `meterMonthsOf`. */
export function meterMonthsQueries(db: DrizzleD1Database, tenantId: string, months: number, now: Date) {
  if (!Number.isSafeInteger(months) || months < 1) throw new RangeError(`meterMonths: months must be a whole number >= 1, not ${months}.`);
  const current = monthOf(now);
  return [
    ...capQueries(db, tenantId),
    db
      .select()
      .from(meterMonthsTable)
      .where(
        and(
          eq(meterMonthsTable.tenantId, tenantId),
          gte(meterMonthsTable.month, addMonths(current, -(months - 1))),
          lte(meterMonthsTable.month, current),
        ),
      )
      .orderBy(desc(meterMonthsTable.month)),
  ] as const;
}

/** The months (as meterMonths answers them) and the cap in force, from the answers to `meterMonthsQueries`. */
export function meterMonthsOf([tenantRows, overrideRows, rows]: BatchResponse<ReturnType<typeof meterMonthsQueries>>): { months: MeterMonth[]; cap: Cap } {
  const cap = capOf(tenantRows, overrideRows);
  const months = rows.map((r) => ({
    month: r.month,
    calls: r.calls,
    millicents: r.millicents,
    unpriced_calls: r.unpricedCalls,
    lines_resolved_local: r.linesResolvedLocal,
    lines_sent_to_api: r.linesSentToApi,
    ...cap,
    mode: modeOf(r.millicents, cap),
  }));
  return { months, cap };
}
