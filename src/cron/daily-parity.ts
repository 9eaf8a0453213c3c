/**
 * The daily parity run, one tenant at a time (./daily fans the run out): for a tenant that
 * has set an oracle source on /settings, fetch the oracle's report and file the day's
 * verdict (a mismatch tells the owner in the thread, and by text where SMS is configured).
 * Each run is recorded on the tenant's ledger (`oracle_runs`): filed, in the verdict's own
 * transaction, or failed with why, so the verdict history shows the days with no verdict.
 */
import { settle } from "../errors";
import { findTenant } from "../auth/tenants";
import { booksDate } from "../clock";
import { oracleReportSchema } from "../endpoints/reports/schema";
import { ledgerOf, type Env } from "../env";
import { oracleSourceOf } from "../index-db/oracle";
import { faceFor } from "../ledger/face";
import { fetchOracleReport, OracleError } from "../providers/oracle/http-oracle";
import { ownerTextable } from "../messages/notices";

export const CRON_ACTOR = "cron:daily-parity";

/** What a tenant's part of a daily run did about parity. */
export type ParityOutcome = "filed" | "failed" | "no-source" | "already-ran";

/**
 * Files the tenant's verdict for the daily run scheduled at `now`, if it has an oracle
 * source. The run's message may be delivered again (at-least-once): a run already
 * recorded for `now` files nothing more. `fetchImpl` lets tests put a fake oracle in front.
 */
export async function runParityFor(env: Env, tenantId: string, now: Date, fetchImpl?: typeof fetch): Promise<ParityOutcome> {
  const source = await oracleSourceOf(env.INDEX_DB, tenantId);
  if (!source) return "no-source";
  const ledger = ledgerOf(env, tenantId);
  const ranAt = now.toISOString();
  if (settle(await ledger.oracleRunAt(ranAt))) return "already-ran";
  let asOf = booksDate(now);
  try {
    const parsed = oracleReportSchema.safeParse(await fetchOracleReport(source, { fetch: fetchImpl }));
    if (!parsed.success) {
      const fields = parsed.error.issues.slice(0, 5).map((i) => i.path.join(".") || "(root)").join(", ");
      throw new OracleError(`the oracle's answer is not the structured report (${fields})`);
    }
    asOf = parsed.data.as_of ?? asOf;
    const tenant = await findTenant(env.INDEX_DB, tenantId);
    if (!tenant) return "no-source";
    const filing = { actor: CRON_ACTOR, oracleUrl: source.url, ranAt, textOwner: ownerTextable(env, tenant) };
    const { recorded } = settle(await ledger.recordParity(tenant.id, faceFor(tenant, now), asOf, parsed.data, null, filing));
    return recorded ? "already-ran" : "filed";
  } catch (error) {
    const why = error instanceof OracleError ? error.message : "the parity run failed unexpectedly";
    if (!(error instanceof OracleError)) console.error(`daily parity for ${tenantId}:`, error);
    const recorded = settle(await ledger.recordFailedRun({ ranAt, asOf, error: why, oracleUrl: source.url, actor: CRON_ACTOR }));
    return recorded ? "failed" : "already-ran";
  }
}
