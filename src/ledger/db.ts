import type { DrizzleSqliteDODatabase } from "drizzle-orm/durable-sqlite";
import type * as schema from "./schema";

/** A handle on one tenant's ledger. Domain modules take it; only the object opens it. */
export type LedgerDb = DrizzleSqliteDODatabase<typeof schema>;

