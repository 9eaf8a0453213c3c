/**
 * Sync requests and runs. One request per tenant may be pending at a time: the latest
 * request is pending until an attempt of the watcher ends it (succeeded, or failed
 * for the last time), or until it is older than SYNC_REQUEST_STALE_MINUTES, so a lost
 * message can never wedge a tenant.
 */
import { desc, eq } from "drizzle-orm";
import type { LedgerDb, LedgerHandle } from "../store/db";
import { countLiveConnections, liveConnectionSecrets } from "./connections";
import { currentCursor, type FeedCounts } from "./feed-pages";
import { bankConnections, syncRequests, syncRuns } from "../store/schema";

export const SYNC_REQUEST_STALE_MINUTES = 15;

export type SyncRequestOutcome =
  | { state: "nothing-connected" }
  | { state: "recorded" | "already-pending"; requestId: number; requestedAt: string };

/** The newest connection, whatever its status. */
export function connectedBank(db: LedgerDb) {
  return db.select().from(bankConnections).orderBy(desc(bankConnections.id)).limit(1).get();
}

/** A connection with no item: the sandbox bank of a sandbox sign-up (banks linked in the aggregator's flow: `linkItem`). */
export function connectBank(db: LedgerDb, provider: "sandbox" | "aggregator", accessToken: string, at: string): number {
  return db.insert(bankConnections).values({ provider, accessToken, connectedAt: at }).returning({ id: bankConnections.id }).get().id;
}

/** The connections held: those not disconnected. */
export function countConnections(db: LedgerDb): number {
  return countLiveConnections(db);
}

export function pendingRequest(db: LedgerDb, now: Date) {
  const latest = db.select().from(syncRequests).orderBy(desc(syncRequests.id)).limit(1).get();
  if (!latest) return undefined;
  const runs = db.select({ final: syncRuns.final }).from(syncRuns).where(eq(syncRuns.requestId, latest.id)).all();
  const isOver = runs.some((r) => r.final);
  const ageMinutes = (now.getTime() - Date.parse(latest.requestedAt)) / 60_000;
  return isOver || ageMinutes >= SYNC_REQUEST_STALE_MINUTES ? undefined : latest;
}

/** Records a sync request unless one is pending or no bank is connected. */
export function requestSync(db: LedgerDb, actor: string, now: Date): SyncRequestOutcome {
  if (countLiveConnections(db) === 0) return { state: "nothing-connected" };
  const pending = pendingRequest(db, now);
  if (pending) return { state: "already-pending", requestId: pending.id, requestedAt: pending.requestedAt };
  const requestedAt = now.toISOString();
  const requestId = db.insert(syncRequests).values({ actor, requestedAt }).returning({ id: syncRequests.id }).get().id;
  return { state: "recorded", requestId, requestedAt };
}

/** One connection's part of a sync run: where its feed is and where it stands. */
export interface SyncPlanConnection {
  connectionId: number;
  provider: "sandbox" | "aggregator";
  itemId: string | null;
  institution: string | null;
  /** Encrypted, as the ledger holds it (empty for the sandbox bank of a sandbox sign-up). */
  accessToken: string;
  cursor: string;
  status: "connected" | "error" | "login_required";
}

export interface SyncPlan {
  /** Every connection not disconnected, oldest first (a connection waiting for its login is in it, for the run to name). */
  connections: SyncPlanConnection[];
  attempt: number;
}

/** What the watcher needs to run a request, or null when the request is already over. */
export function planSyncRun(db: LedgerHandle, requestId: number): SyncPlan | null {
  const request = db.select().from(syncRequests).where(eq(syncRequests.id, requestId)).get();
  if (!request) return null;
  const runs = db.select({ final: syncRuns.final }).from(syncRuns).where(eq(syncRuns.requestId, requestId)).all();
  if (runs.some((r) => r.final)) return null;
  const connections = liveConnectionSecrets(db).map((c) => ({
    connectionId: c.id,
    provider: c.provider,
    itemId: c.itemId,
    institution: c.institution,
    accessToken: c.accessToken,
    cursor: currentCursor(db, c.id),
    status: c.status as SyncPlanConnection["status"],
  }));
  return { connections, attempt: runs.length + 1 };
}

export interface SyncRunRecord extends FeedCounts {
  requestId: number;
  attempt: number;
  startedAt: string;
  finishedAt: string;
  pages: number;
  status: "ok" | "failed";
  final: boolean;
  error: string | null;
}

export function recordSyncRun(db: LedgerHandle, run: SyncRunRecord): number {
  return db.insert(syncRuns).values(run).returning({ id: syncRuns.id }).get().id;
}

export function listSyncRuns(db: LedgerDb, limit: number) {
  return db.select().from(syncRuns).orderBy(desc(syncRuns.id)).limit(limit).all();
}

/**
 * sync-now: records a request (unless one is pending or no bank is connected) and hands it
 * to `enqueue`, the job queue. A request that cannot be queued can never be consumed: a
 * final failed run ends it at once, so the next sync-now is not refused, and the failure
 * goes to the caller.
 */
export async function askForSync(db: LedgerDb, actor: string, now: Date, enqueue: (requestId: number) => Promise<void>): Promise<SyncRequestOutcome> {
  const outcome = requestSync(db, actor, now);
  if (outcome.state !== "recorded") return outcome;
  try {
    await enqueue(outcome.requestId);
  } catch (cause) {
    const at = new Date().toISOString();
    recordSyncRun(db, {
      requestId: outcome.requestId,
      attempt: 0,
      startedAt: at,
      finishedAt: at,
      pages: 0,
      ...{ added: 0, modified: 0, removed: 0, duplicates: 0 },
      status: "failed",
      final: true,
      error: "the request could not be queued",
    });
    throw cause;
  }
  return outcome;
}
