/** The tenant's bank connection as a person may see it: who provides it and since when, never its access token. */
import type { LedgerDb } from "../store/db";
import { connectedBank } from "./sync-requests";

export interface ConnectionView {
  provider: "sandbox" | "aggregator";
  connected_at: string;
}

export function connectionView(db: LedgerDb): ConnectionView | null {
  const connection = connectedBank(db);
  return connection ? { provider: connection.provider, connected_at: connection.connectedAt } : null;
}
