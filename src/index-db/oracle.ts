/** Oracle sources for the daily parity run, and what each run did (D1). */
import { and, desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { oracleRuns, oracleSources } from "./schema";

export type OracleSource = typeof oracleSources.$inferSelect;
export type OracleRun = typeof oracleRuns.$inferSelect;

export async function setOracleSource(d1: D1Database, tenantId: string, url: string, bearerSecret: string | null, at: Date): Promise<void> {
  const values = { tenantId, url, bearerSecret, setAt: at.toISOString() };
  await drizzle(d1).insert(oracleSources).values(values).onConflictDoUpdate({ target: oracleSources.tenantId, set: values });
}

export async function oracleSourceOf(d1: D1Database, tenantId: string): Promise<OracleSource | undefined> {
  return drizzle(d1).select().from(oracleSources).where(eq(oracleSources.tenantId, tenantId)).get();
}

export async function recordOracleRun(d1: D1Database, run: Omit<OracleRun, "id">): Promise<void> {
  await drizzle(d1).insert(oracleRuns).values(run);
}

/** Whether the tenant's parity run for the daily run scheduled at `ranAt` is already recorded. */
export async function oracleRanAt(d1: D1Database, tenantId: string, ranAt: string): Promise<boolean> {
  const run = await drizzle(d1)
    .select({ id: oracleRuns.id })
    .from(oracleRuns)
    .where(and(eq(oracleRuns.tenantId, tenantId), eq(oracleRuns.ranAt, ranAt)))
    .limit(1)
    .get();
  return run !== undefined;
}

export async function lastOracleRun(d1: D1Database, tenantId: string): Promise<OracleRun | undefined> {
  return drizzle(d1).select().from(oracleRuns).where(eq(oracleRuns.tenantId, tenantId)).orderBy(desc(oracleRuns.id)).limit(1).get();
}
