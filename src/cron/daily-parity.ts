/**
 * The daily parity run: for each tenant that has set an oracle source on /settings, fetch
 * the oracle's report and file the day's verdict. A source that fails is recorded on that
 * tenant (`oracle_runs`) and never stops the others.
 */
import { findTenant } from "../auth/tenants";
import { booksDate } from "../clock";
import { oracleReportSchema } from "../endpoints/reports/schema";
import { ledgerOf, type Env } from "../env";
import { allOracleSources, recordOracleRun } from "../index-db/oracle";
import { faceFor } from "../ledger/face";
import { fetchOracleReport, OracleError } from "../providers/oracle/http-oracle";

export const CRON_ACTOR = "cron:daily-parity";

export async function runDailyParity(env: Env, now: Date, fetchImpl?: typeof fetch): Promise<{ filed: number; failed: number }> {
  const outcome = { filed: 0, failed: 0 };
  for (const source of await allOracleSources(env.INDEX_DB)) {
    let asOf = booksDate(now);
    try {
      const parsed = oracleReportSchema.safeParse(await fetchOracleReport(source, { fetch: fetchImpl }));
      if (!parsed.success) {
        const fields = parsed.error.issues.slice(0, 5).map((i) => i.path.join(".") || "(root)").join(", ");
        throw new OracleError(`the oracle's answer is not the structured report (${fields})`);
      }
      asOf = parsed.data.as_of ?? asOf;
      const tenant = await findTenant(env.INDEX_DB, source.tenantId);
      if (!tenant) continue;
      const filed = await ledgerOf(env, tenant.id).recordParity(faceFor(tenant, now), asOf, parsed.data, null, CRON_ACTOR);
      await recordOracleRun(env.INDEX_DB, { tenantId: tenant.id, ranAt: now.toISOString(), asOf, status: "filed", revision: filed.verdict!.revision, error: null });
      outcome.filed++;
    } catch (error) {
      const why = error instanceof OracleError ? error.message : "the parity run failed unexpectedly";
      if (!(error instanceof OracleError)) console.error(`daily parity for ${source.tenantId}:`, error);
      await recordOracleRun(env.INDEX_DB, { tenantId: source.tenantId, ranAt: now.toISOString(), asOf, status: "failed", revision: null, error: why });
      outcome.failed++;
    }
  }
  return outcome;
}
