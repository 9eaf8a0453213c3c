/** get-usage: the bank connections held, and the money in and out over the trailing days. */
import type { Face } from "../face";
import { countConnections } from "../feed/sync-requests";
import type { LedgerDb } from "../store/db";
import { volume } from "./reads";

export function usage(db: LedgerDb, face: Face, days: number) {
  return { connections: countConnections(db), volume: volume(db, face, days) };
}
