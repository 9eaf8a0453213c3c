/**
 * The export push: the queue job of a resync op. It writes the books, as of the op, to the
 * op's spreadsheet destination: the sheet is cleared, then the header and every booked
 * line are appended a page at a time (never the whole ledger at once), with access tokens
 * the destination's refresh token buys (./spreadsheet-access.ts). Delivery is
 * at-least-once and a push is a whole resync, so a retry simply starts over; an op whose
 * push already ended is acknowledged without pushing again.
 */
import { settle } from "../errors";
import { ledgerOf, type Env } from "../env";
import { JOB_MAX_DELIVERIES, type PushJob } from "../jobs/job";
import { destinationOf } from "../index-db/destinations";
import { SPREADSHEET_HEADER } from "../ledger/reports/export/snapshot";
import { SheetsClient, SpreadsheetError } from "../providers/spreadsheet/sheets";
import { DestinationAccess, spreadsheetFetches } from "./spreadsheet-access";

/** The fetches that reach the OAuth token endpoint and the spreadsheet API (tests put fakes in front). */
export interface SpreadsheetOutside {
  oauth?: typeof fetch;
  sheets?: typeof fetch;
}

/** Runs one push; throws when the queue should deliver it again. */
export async function runPush(env: Env, message: PushJob, delivery: number, outside: SpreadsheetOutside = spreadsheetFetches(env, message.tenant)): Promise<void> {
  const ledger = ledgerOf(env, message.tenant);
  const plan = settle(await ledger.planPush(message.exportId));
  if (!plan) return;
  let rows = 0;
  const record = (status: "pushed" | "failed", final: boolean, error: string | null) =>
    ledger.recordPush({ exportId: message.exportId, attempt: plan.attempt, status, rows, final, error, at: new Date().toISOString() });

  try {
    const destination = await destinationOf(env.INDEX_DB, message.tenant, plan.op.destinationId!);
    if (!destination || destination.disconnectedAt !== null) throw new SpreadsheetError("the destination was disconnected before the push", false);
    const access = new DestinationAccess(env, destination, outside.oauth);
    const sheets = new SheetsClient({ spreadsheetId: destination.spreadsheetId, sheet: destination.sheet, access }, { baseUrl: env.SPREADSHEET_API_BASE_URL, fetch: outside.sheets });
    await sheets.clear();
    await sheets.append([SPREADSHEET_HEADER]);
    let cursor: string | null = null;
    do {
      const page: { rows: (string | number)[][]; next: string | null } | null = settle(await ledger.spreadsheetPage(message.exportId, cursor));
      if (!page) throw new Error(`export ${message.exportId} vanished`);
      if (page.rows.length > 0) rows += await sheets.append(page.rows);
      cursor = page.next;
    } while (cursor !== null);
  } catch (error) {
    const final = delivery >= JOB_MAX_DELIVERIES || (error instanceof SpreadsheetError && !error.retryable);
    const why = error instanceof SpreadsheetError ? error.message : "the push failed unexpectedly";
    if (!(error instanceof SpreadsheetError)) console.error("export push fault:", error);
    await record("failed", final, why);
    if (!final) throw error;
    return;
  }
  await record("pushed", true, null);
}
