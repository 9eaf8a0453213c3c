/**
 * The tenant's taxonomy: categories under the five headers. A category name lives under
 * one header only; names compare case-insensitively after trimming and folding spaces.
 * Entries are revisions keyed by `cat_key`; the newest one stands (a retired one is gone
 * from the taxonomy list).
 */
import { asc, eq, sql } from "drizzle-orm";
import type { LedgerDb, LedgerHandle } from "./db";
import { isQueueLabel } from "./judgements";
import { refuse, type Refusal } from "./refusal";
import { categoryEntries, headers } from "./schema";

export type HeaderKey = (typeof headers.$inferSelect)["key"];
export const HEADER_KEYS: readonly HeaderKey[] = ["cogs", "expense", "income", "draw", "transfer"];

export interface TaxonomyEntry {
  name: string;
  cat_key: string;
  header_key: HeaderKey;
  header_name: string;
  sort_order: number;
}

/** How names are compared: trimmed, inner whitespace folded, case-insensitive. */
export function normalName(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLowerCase();
}

/** A stable key for a name: `Office Supplies` -> `office-supplies`. */
export function catKeyOf(name: string): string {
  const slug = normalName(name)
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "category" : slug;
}

/** The standing entry of every key (retired ones included). */
function standingEntries(db: LedgerHandle) {
  const newest = db
    .select({ id: sql<number>`max(${categoryEntries.id})`.as("id") })
    .from(categoryEntries)
    .groupBy(categoryEntries.catKey)
    .as("newest");
  return db
    .select({ entry: categoryEntries, header: headers })
    .from(categoryEntries)
    .innerJoin(newest, eq(newest.id, categoryEntries.id))
    .innerJoin(headers, eq(headers.key, categoryEntries.headerKey))
    .orderBy(asc(headers.sortOrder), asc(sql`lower(${categoryEntries.name})`))
    .all();
}

/** Live entries, ordered by header then name. */
export function taxonomy(db: LedgerHandle): TaxonomyEntry[] {
  return standingEntries(db)
    .filter((r) => !r.entry.retired)
    .map((r) => ({
      name: r.entry.name,
      cat_key: r.entry.catKey,
      header_key: r.entry.headerKey,
      header_name: r.header.name,
      sort_order: r.header.sortOrder,
    }));
}

/** The header a category name lives under, or null when the taxonomy does not hold it. */
export function headerOfCategory(db: LedgerHandle, category: string): HeaderKey | null {
  const wanted = normalName(category);
  return taxonomy(db).find((e) => normalName(e.name) === wanted)?.header_key ?? null;
}

export interface NewCategory {
  name: string;
  header: HeaderKey;
}

/** What `create_category` refuses before the ledger is asked (400, not a ledger refusal). */
export function categoryNameProblem(name: string): string | null {
  if (normalName(name) === "") return "a category needs a name";
  if (isQueueLabel(name)) return `"${name.trim()}" means the queue (no category) and cannot be created as a category`;
  return null;
}

/**
 * Appends a category under a header. The same name under the same header is already
 * there and is answered as it stands; under another header the ledger refuses.
 */
export function createCategory(db: LedgerDb, input: NewCategory, actor: string, at: string): TaxonomyEntry | Refusal {
  return db.transaction((tx) => {
    const wanted = normalName(input.name);
    const existing = taxonomy(tx).find((e) => normalName(e.name) === wanted);
    if (existing && existing.header_key !== input.header) {
      return refuse(`category "${existing.name}" already lives under header "${existing.header_key}"; a name lives under one header only`);
    }
    if (existing) return existing;
    const name = input.name.trim().replace(/\s+/g, " ");
    const catKey = freeKey(tx, catKeyOf(name));
    tx.insert(categoryEntries).values({ catKey, name, headerKey: input.header, retired: false, actor, createdAt: at }).run();
    return taxonomy(tx).find((e) => e.cat_key === catKey)!;
  });
}

/** A key no other entry (live or retired) uses: `rent`, `rent-2`, ... */
function freeKey(db: LedgerHandle, base: string): string {
  const taken = new Set(db.select({ key: categoryEntries.catKey }).from(categoryEntries).all().map((r) => r.key));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** The header table, in its order. */
export function listHeaders(db: LedgerDb) {
  return db.select().from(headers).orderBy(asc(headers.sortOrder)).all();
}

