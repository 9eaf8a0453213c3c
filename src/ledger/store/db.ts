import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";

/**
 * A handle on one tenant's ledger. Domain modules take it; only the object opens it.
 * Opened without the schema: nothing uses drizzle's relational queries, and with a schema
 * every transaction builds a query helper per table (a measurable cost per feed page).
 */
export type LedgerDb = DrizzleSqliteDODatabase;


/** A transaction on the ledger (drizzle's durable-sqlite transactions are synchronous). */
export type LedgerTx = Parameters<Parameters<LedgerDb["transaction"]>[0]>[0];

/** The database or a transaction on it: domain reads work on either. */
export type LedgerHandle = LedgerDb | LedgerTx;
