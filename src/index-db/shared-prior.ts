/**
 * The shared merchant prior across tenants (src/ledger/model/shared-prior.ts says what it
 * is): each opted-in tenant's contribution, replaced whole by its daily run and removed
 * when it opts out, and the pooled prior, which names a word only where at least
 * `atLeast` tenants contributed it and holds only their count and mean agreement.
 */
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { sharedPriorContributions } from "./schema";

/** One tenant's word: the share of its labelled lines with the word in their most frequent category. */
export interface ContributedWord {
  word: string;
  agreement: number;
}

/** A pooled word: how many tenants contributed it, and the mean of their shares. */
export interface PooledWord extends ContributedWord {
  tenants: number;
}

/** Rows one statement inserts: three bound values each, under D1's 100 per statement. */
const ROWS_PER_INSERT = 33;

/** Replaces the tenant's contribution with these words, in one batch (all or nothing). */
export async function replaceContribution(db: D1Database, tenant: string, words: readonly ContributedWord[]): Promise<void> {
  const d1 = drizzle(db);
  const inserts = [];
  for (let from = 0; from < words.length; from += ROWS_PER_INSERT) {
    const rows = words.slice(from, from + ROWS_PER_INSERT).map(({ word, agreement }) => ({ tenantId: tenant, word, agreementPpm: Math.round(agreement * 1e6) }));
    inserts.push(d1.insert(sharedPriorContributions).values(rows));
  }
  await d1.batch([d1.delete(sharedPriorContributions).where(eq(sharedPriorContributions.tenantId, tenant)), ...inserts]);
}

/** Removes the tenant's contribution (it opted out). */
export async function removeContribution(db: D1Database, tenant: string): Promise<void> {
  await drizzle(db).delete(sharedPriorContributions).where(eq(sharedPriorContributions.tenantId, tenant));
}

/** How many words the tenant contributes now. */
export async function contributedWords(db: D1Database, tenant: string): Promise<number> {
  const row = await drizzle(db)
    .select({ n: sql<number>`count(*)` })
    .from(sharedPriorContributions)
    .where(eq(sharedPriorContributions.tenantId, tenant))
    .get();
  return row?.n ?? 0;
}

/** The pooled prior: every word at least `atLeast` tenants contributed, with their number and mean agreement. */
export async function pooledPrior(db: D1Database, atLeast: number): Promise<PooledWord[]> {
  const rows = await drizzle(db)
    .select({ word: sharedPriorContributions.word, tenants: sql<number>`count(*)`, agreementPpm: sql<number>`avg(${sharedPriorContributions.agreementPpm})` })
    .from(sharedPriorContributions)
    .groupBy(sharedPriorContributions.word)
    .having(sql`count(*) >= ${atLeast}`)
    .all();
  return rows.map(({ word, tenants, agreementPpm }) => ({ word, tenants, agreement: agreementPpm / 1e6 }));
}
