/**
 * The books' currency: US dollars unless the tenant sets another. A line the bank gave in
 * another currency (relation C's `currency`, read from its record) is kept and listed,
 * flagged `foreign_currency`, and left out of the P&L, which counts such lines instead;
 * nothing converts it (docs/decisions.md, "Reports and parity").
 */
import { desc, sql } from "drizzle-orm";
import type { LedgerDb, LedgerHandle } from "../store/db";
import { booksCurrency } from "../store/schema";

export const DEFAULT_BOOKS_CURRENCY = "USD";

/** The books' currency as one SQL value: SQLite reads it once per statement. */
export const BOOKS_CURRENCY = sql<string>`coalesce((SELECT ${booksCurrency.currency} FROM ${booksCurrency} ORDER BY ${booksCurrency.id} DESC LIMIT 1), ${DEFAULT_BOOKS_CURRENCY})`;

export interface BooksCurrency {
  currency: string;
  /** When it was set; null for the default. */
  set_at: string | null;
  set_by: string | null;
}

export function currentBooksCurrency(db: LedgerHandle): BooksCurrency {
  const set = db.select().from(booksCurrency).orderBy(desc(booksCurrency.id)).limit(1).get();
  return set ? { currency: set.currency, set_at: set.setAt, set_by: set.actor } : { currency: DEFAULT_BOOKS_CURRENCY, set_at: null, set_by: null };
}

/** Sets the books' currency (an ISO 4217 code, upper case); setting the one that stands appends nothing. */
export function setBooksCurrency(db: LedgerDb, currency: string, actor: string, at: string): BooksCurrency {
  return db.transaction((tx) => {
    const standing = currentBooksCurrency(tx);
    if (standing.currency === currency && standing.set_at !== null) return standing;
    tx.insert(booksCurrency).values({ currency, actor, setAt: at }).run();
    return { currency, set_at: at, set_by: actor };
  });
}
