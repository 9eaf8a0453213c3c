/**
 * The push attempts of resync ops (exports with a destination). The queue delivers a push
 * at least once: an op whose push already ended (pushed, or failed for good) is not
 * pushed again, and every attempt is appended, never edited.
 */
import { asc, eq } from "drizzle-orm";
import type { LedgerHandle } from "../../store/db";
import { exportPushes } from "../../store/schema";
import { ok, type Outcome } from "../../outcome";
import { findExport, noSuchExport, type ExportRecord } from "./snapshot";

export type PushRecord = typeof exportPushes.$inferSelect;

export function pushesOf(db: LedgerHandle, exportId: number): PushRecord[] {
  return db.select().from(exportPushes).where(eq(exportPushes.exportId, exportId)).orderBy(asc(exportPushes.id)).all();
}

/** An export with its push attempts. */
export function exportWithPushes(db: LedgerHandle, id: number): Outcome<{ record: ExportRecord; pushes: PushRecord[] }> {
  const record = findExport(db, id);
  return record ? ok({ record, pushes: pushesOf(db, id) }) : noSuchExport(id);
}

/** What the next attempt at an op's push is, or null when there is nothing left to do. */
export function planPush(db: LedgerHandle, exportId: number): { op: ExportRecord; attempt: number } | null {
  const op = findExport(db, exportId);
  if (!op || op.destinationId === null) return null;
  const attempts = pushesOf(db, exportId);
  if (attempts.some((p) => p.final)) return null;
  return { op, attempt: attempts.length + 1 };
}

export function recordPush(db: LedgerHandle, push: Omit<PushRecord, "id">): void {
  db.insert(exportPushes).values(push).run();
}

/** The op's state as served: `queued` until an attempt ends it. */
export function pushStatus(pushes: PushRecord[]): "queued" | "pushed" | "failed" {
  const final = pushes.find((p) => p.final);
  return final ? final.status : "queued";
}
