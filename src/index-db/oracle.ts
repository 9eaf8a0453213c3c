/** Oracle sources for the daily parity run (D1); what each run did is on the tenant's ledger (`oracle_runs`). */
import { eq } from "drizzle-orm";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import { oracleSources } from "./schema";

export type OracleSource = typeof oracleSources.$inferSelect;

export async function setOracleSource(d1: D1Database, tenantId: string, url: string, bearerSecret: string | null, at: Date): Promise<void> {
  const values = { tenantId, url, bearerSecret, setAt: at.toISOString() };
  await drizzle(d1).insert(oracleSources).values(values).onConflictDoUpdate({ target: oracleSources.tenantId, set: values });
}

export async function oracleSourceOf(d1: D1Database, tenantId: string): Promise<OracleSource | undefined> {
  return (await oracleSourceQuery(drizzle(d1), tenantId))[0];
}

/** The tenant's oracle source, a list of none or one: to await, or to send in a D1 batch. */
export function oracleSourceQuery(db: DrizzleD1Database, tenantId: string) {
  return db.select().from(oracleSources).where(eq(oracleSources.tenantId, tenantId));
}
