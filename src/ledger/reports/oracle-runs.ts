/**
 * The daily run's parity part, as the tenant's ledger records it (`oracle_runs`): once per
 * run, filed (with the verdict it filed, in the same transaction: reports/parity.ts) or
 * failed, with why no verdict was. The queue delivers a run's job at least once, so a run
 * recorded for its scheduled time is never recorded again.
 */
import { desc, eq } from "drizzle-orm";
import type { LedgerHandle } from "../store/db";
import { oracleRuns } from "../store/schema";

export type OracleRun = typeof oracleRuns.$inferSelect;

/** A run that filed no verdict, and why. */
export interface FailedRun {
  /** The daily run's scheduled time. */
  ranAt: string;
  asOf: string;
  error: string;
  /** The oracle source's address as set (its query and fragment are not kept). */
  oracleUrl: string;
  actor: string;
}

/** An oracle source's address as the ledger keeps it: without its query or fragment, where a secret could sit. */
export function sourceAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** The run recorded for the daily run scheduled at `ranAt`, if any. */
export function oracleRunAt(db: LedgerHandle, ranAt: string): OracleRun | undefined {
  return db.select().from(oracleRuns).where(eq(oracleRuns.ranAt, ranAt)).get();
}

/** The run recorded last (the parity status /settings and the reports page show). */
export function lastOracleRun(db: LedgerHandle): OracleRun | undefined {
  return db.select().from(oracleRuns).orderBy(desc(oracleRuns.id)).limit(1).get();
}

/** Records a run that filed no verdict; false (nothing recorded) when that run is recorded already. */
export function recordFailedRun(db: LedgerHandle, run: FailedRun, at: string): boolean {
  if (oracleRunAt(db, run.ranAt)) return false;
  db.insert(oracleRuns)
    .values({ ...run, oracleUrl: sourceAddress(run.oracleUrl), status: "failed", revision: null, recordedAt: at })
    .run();
  return true;
}

/** Records a run that filed the verdict of `revision` (inside that filing's transaction). */
export function recordFiledRun(db: LedgerHandle, run: Omit<FailedRun, "error"> & { revision: number }, at: string): void {
  db.insert(oracleRuns)
    .values({ ...run, oracleUrl: sourceAddress(run.oracleUrl), status: "filed", error: null, recordedAt: at })
    .run();
}
