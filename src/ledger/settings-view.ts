/**
 * What the settings page reads of the books, in one call: the messages thread and the
 * drafts, the bank connections (and how many are live), the queue's size for the
 * navigation, the latest sync runs, the oracle's last daily run and the choice on the
 * shared merchant prior. One call to the object instead of one per part.
 */
import { queueSize } from "./books/exceptions";
import type { Face } from "./face";
import { countLiveConnections, listConnections, type Connection } from "./feed/connections";
import { listSyncRuns } from "./feed/sync-requests";
import { listDrafts, listMessages } from "./messages";
import { lastOracleRun, type OracleRun } from "./reports/oracle-runs";
import { sharedPriorChoice, type SharedPriorChoice } from "./model/shared-prior-kept";
import type { LedgerDb } from "./store/db";

export interface SettingsView {
  messages: ReturnType<typeof listMessages>;
  drafts: ReturnType<typeof listDrafts>;
  connections: Connection[];
  liveConnections: number;
  queue: number;
  runs: ReturnType<typeof listSyncRuns>;
  lastOracleRun: OracleRun | null;
  sharedPrior: SharedPriorChoice;
}

export interface SettingsAsk {
  /** How many of the thread's newest messages. */
  messages: number;
  /** How many of the latest sync runs. */
  runs: number;
}

export function settingsView(db: LedgerDb, face: Face, ask: SettingsAsk): SettingsView {
  return {
    messages: listMessages(db, ask.messages),
    drafts: listDrafts(db),
    connections: listConnections(db),
    liveConnections: countLiveConnections(db),
    queue: queueSize(db, face),
    runs: listSyncRuns(db, ask.runs),
    lastOracleRun: lastOracleRun(db) ?? null,
    sharedPrior: sharedPriorChoice(db),
  };
}
