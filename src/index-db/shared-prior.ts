/**
 * The shared merchant prior across tenants (src/ledger/model/shared-prior.ts says what it
 * is): each opted-in tenant's contribution, replaced whole by its daily run and removed
 * when it opts out, and the pooled prior, computed once a day, which names a word only
 * where at least `atLeast` tenants contributed it and holds only their count and mean
 * agreement, and a category's shared name only where at least `atLeast` of them file the
 * word under it.
 */
import { eq, sql } from "drizzle-orm";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import { sharedPriorCategories, sharedPriorContributions, sharedPriorPool } from "./schema";

/** One tenant's word: the share of its labelled lines with the word in their most frequent category, and that category's shared name where it files them there. */
export interface ContributedWord {
  word: string;
  agreement: number;
  category: string | null;
}

/** One tenant's contribution: its words, and the shared names of its categories. */
export interface Contribution {
  words: readonly ContributedWord[];
  categories: readonly string[];
}

/**
 * A pooled word: how many tenants contributed it, the mean of their shares, the category
 * most of them file it under (where `atLeast` do), how many do, and how many of them have
 * a category of that name.
 */
export interface PooledWord extends ContributedWord {
  tenants: number;
  categoryTenants: number;
  namingTenants: number;
}

/** Bound values per statement: D1 takes at most 100. */
const BOUND_VALUES = 99;

/** Replaces the tenant's contribution with this one, in one batch (all or nothing). */
export async function replaceContribution(db: D1Database, tenant: string, { words, categories }: Contribution): Promise<void> {
  const d1 = drizzle(db);
  const wordRows = words.map(({ word, agreement, category }) => ({ tenantId: tenant, word, agreementPpm: Math.round(agreement * 1e6), category }));
  const categoryRows = categories.map((category) => ({ tenantId: tenant, category }));
  await d1.batch([
    d1.delete(sharedPriorContributions).where(eq(sharedPriorContributions.tenantId, tenant)),
    d1.delete(sharedPriorCategories).where(eq(sharedPriorCategories.tenantId, tenant)),
    ...chunks(wordRows, Math.floor(BOUND_VALUES / 4)).map((rows) => d1.insert(sharedPriorContributions).values(rows)),
    ...chunks(categoryRows, Math.floor(BOUND_VALUES / 2)).map((rows) => d1.insert(sharedPriorCategories).values(rows)),
  ]);
}

/** Removes the tenant's contribution (it opted out). */
export async function removeContribution(db: D1Database, tenant: string): Promise<void> {
  const d1 = drizzle(db);
  await d1.batch([
    d1.delete(sharedPriorContributions).where(eq(sharedPriorContributions.tenantId, tenant)),
    d1.delete(sharedPriorCategories).where(eq(sharedPriorCategories.tenantId, tenant)),
  ]);
}

/** How many words the tenant contributes now. */
export async function contributedWords(db: D1Database, tenant: string): Promise<number> {
  return (await contributedWordsQuery(drizzle(db), tenant))[0]?.n ?? 0;
}

/** `contributedWords` as a query, for a batch. */
export function contributedWordsQuery(d1: DrizzleD1Database, tenant: string) {
  return d1.select({ n: sql<number>`count(*)` }).from(sharedPriorContributions).where(eq(sharedPriorContributions.tenantId, tenant));
}

/**
 * Pools every opted-in tenant's contribution into `shared_prior_pool`, replacing the last
 * pool: every word at least `atLeast` tenants contributed, with their number and mean
 * agreement; and the category most of them file it under where `atLeast` do, with how many
 * do and how many of the word's tenants have a category of that name. Once a day, at the
 * daily run's start: one pass over the contributions, not one per tenant.
 */
export async function poolContributions(db: D1Database, atLeast: number, at: Date): Promise<number> {
  const [, inserted] = await db.batch([
    db.prepare("DELETE FROM shared_prior_pool"),
    db
      .prepare(
        `WITH words AS (
           SELECT word, count(*) AS tenants, avg(agreement_ppm) AS agreement_ppm FROM shared_prior_contributions GROUP BY word HAVING count(*) >= ?1
         ), filed AS (
           SELECT word, category, count(*) AS tenants, row_number() OVER (PARTITION BY word ORDER BY count(*) DESC, category) AS rank
           FROM shared_prior_contributions WHERE category IS NOT NULL AND word IN (SELECT word FROM words)
           GROUP BY word, category HAVING count(*) >= ?1
         ), named AS (
           SELECT filed.word, count(*) AS tenants FROM filed
           JOIN shared_prior_contributions c ON c.word = filed.word
           JOIN shared_prior_categories n ON n.tenant_id = c.tenant_id AND n.category = filed.category
           WHERE filed.rank = 1 GROUP BY filed.word
         )
         INSERT INTO shared_prior_pool (word, tenants, agreement_ppm, category, category_tenants, naming_tenants, pooled_at)
         SELECT words.word, words.tenants, round(words.agreement_ppm), filed.category, coalesce(filed.tenants, 0), coalesce(named.tenants, 0), ?2
         FROM words LEFT JOIN filed ON filed.word = words.word AND filed.rank = 1 LEFT JOIN named ON named.word = words.word`,
      )
      .bind(atLeast, at.toISOString()),
  ]);
  return inserted!.meta.changes;
}

/** Words read from the pool per statement, passed as one JSON value. */
const WORDS_PER_READ = 1_000;

/**
 * The pool as the daily run last computed it (`poolContributions`), of these words only:
 * what a tenant's lines name, not the words of every business that opted in.
 */
export async function poolEntries(db: D1Database, words: readonly string[]): Promise<PooledWord[]> {
  if (words.length === 0) return [];
  const d1 = drizzle(db);
  const reads = chunks([...new Set(words)].sort(), WORDS_PER_READ).map((some) =>
    d1.select().from(sharedPriorPool).where(sql`${sharedPriorPool.word} IN (SELECT value FROM json_each(${JSON.stringify(some)}))`).orderBy(sharedPriorPool.word),
  );
  const [first, ...rest] = reads;
  const found = await d1.batch([first!, ...rest]);
  return found.flat().map(({ word, tenants, agreementPpm, category, categoryTenants, namingTenants }) => ({
    word,
    tenants,
    agreement: agreementPpm / 1e6,
    category,
    categoryTenants,
    namingTenants,
  }));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let from = 0; from < items.length; from += size) out.push(items.slice(from, from + size));
  return out;
}
