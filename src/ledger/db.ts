import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import type * as schema from "./schema";

/** A handle on one tenant's ledger. Domain modules take it; only the object opens it. */
export type LedgerDb = DrizzleSqliteDODatabase<typeof schema>;


/** A transaction on the ledger (drizzle's durable-sqlite transactions are synchronous). */
export type LedgerTx = Parameters<Parameters<LedgerDb["transaction"]>[0]>[0];

/** The database or a transaction on it: domain reads work on either. */
export type LedgerHandle = LedgerDb | LedgerTx;
