/** Oracle sources for the daily parity run (D1); what each run did is on the tenant's ledger (`oracle_runs`). */
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { oracleSources } from "./schema";

export type OracleSource = typeof oracleSources.$inferSelect;

export async function setOracleSource(d1: D1Database, tenantId: string, url: string, bearerSecret: string | null, at: Date): Promise<void> {
  const values = { tenantId, url, bearerSecret, setAt: at.toISOString() };
  await drizzle(d1).insert(oracleSources).values(values).onConflictDoUpdate({ target: oracleSources.tenantId, set: values });
}

export async function oracleSourceOf(d1: D1Database, tenantId: string): Promise<OracleSource | undefined> {
  return drizzle(d1).select().from(oracleSources).where(eq(oracleSources.tenantId, tenantId)).get();
}
