/**
 * A tenant's books at a glance, for the practice dashboard of a person with seats in many
 * tenants: the queue's size, the last sync run and the last parity verdict, in one call.
 */
import { queueSize } from "./books/exceptions";
import type { Face } from "./face";
import { listSyncRuns } from "./feed/sync-requests";
import { latestVerdict } from "./reports/verdicts";
import type { LedgerDb } from "./store/db";

export interface Glance {
  queue: number;
  lastSync: { finishedAt: string; status: "ok" | "failed"; added: number; error: string | null } | null;
  lastVerdict: { asOf: string; revision: number; match: boolean } | null;
}

export function glanceAt(db: LedgerDb, face: Face): Glance {
  const [run] = listSyncRuns(db, 1);
  return {
    queue: queueSize(db, face),
    lastSync: run ? { finishedAt: run.finishedAt, status: run.status, added: run.added, error: run.error } : null,
    lastVerdict: latestVerdict(db) ?? null,
  };
}
