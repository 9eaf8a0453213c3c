/**
 * The tenant's taxonomy: categories under the five headers. A category name lives under
 * one header only; names compare case-insensitively after trimming and folding spaces.
 * Entries are revisions keyed by `cat_key`; the newest one stands (a retired one is gone
 * from the taxonomy list).
 */
import { asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { LedgerDb, LedgerHandle } from "../store/db";
import { isQueueLabel } from "./queue-label";
import { ok, refused, type Outcome } from "../outcome";
import { categoryEntries, headers } from "../store/schema";

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

/** The standing entry of every key (retired ones included), as of entry `upTo` when given. */
function standingEntries(db: LedgerHandle, upTo?: number) {
  const newest = db
    .select({ id: sql<number>`max(${categoryEntries.id})` })
    .from(categoryEntries)
    .where(upTo === undefined ? undefined : lte(categoryEntries.id, upTo))
    .groupBy(categoryEntries.catKey);
  return db
    .select({ entry: categoryEntries, header: headers })
    .from(categoryEntries)
    .innerJoin(headers, eq(headers.key, categoryEntries.headerKey))
    .where(inArray(categoryEntries.id, newest))
    .orderBy(asc(headers.sortOrder), asc(sql`lower(${categoryEntries.name})`))
    .all();
}

/** A taxonomy entry with the id of its standing `category_entries` row. */
export interface CategoryEntry extends TaxonomyEntry {
  id: number;
}

/** Live entries with their row ids, ordered by header then name. */
function liveEntries(db: LedgerHandle, upTo?: number): CategoryEntry[] {
  return standingEntries(db, upTo)
    .filter((r) => !r.entry.retired)
    .map((r) => ({
      id: r.entry.id,
      name: r.entry.name,
      cat_key: r.entry.catKey,
      header_key: r.entry.headerKey,
      header_name: r.header.name,
      sort_order: r.header.sortOrder,
    }));
}

/** Live entries, ordered by header then name; as they stood at entry `upTo` when given (an export's mark). */
export function taxonomy(db: LedgerHandle, upTo?: number): TaxonomyEntry[] {
  return liveEntries(db, upTo).map(({ id: _id, ...entry }) => entry);
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
export function createCategory(db: LedgerDb, input: NewCategory, actor: string, at: string): Outcome<CategoryEntry> {
  return db.transaction((tx) => {
    const wanted = normalName(input.name);
    const existing = liveEntries(tx).find((e) => normalName(e.name) === wanted);
    if (existing && existing.header_key !== input.header) {
      return refused(`category "${existing.name}" already lives under header "${existing.header_key}"; a name lives under one header only`);
    }
    if (existing) return ok(existing);
    const name = input.name.trim().replace(/\s+/g, " ");
    const catKey = freeKey(tx, catKeyOf(name));
    tx.insert(categoryEntries).values({ catKey, name, headerKey: input.header, retired: false, actor, createdAt: at }).run();
    return ok(liveEntries(tx).find((e) => e.cat_key === catKey)!);
  });
}

/**
 * Appends categories in order, each as its own fact, and stops at the first refusal: the
 * rows before it stay created, and the refusal names the refused row and carries them.
 * Answers the rows that landed (or already stood), in the order asked.
 */
export function createCategories(db: LedgerDb, inputs: readonly NewCategory[], actor: string, at: string): Outcome<CategoryEntry[]> {
  const created: CategoryEntry[] = [];
  for (const [row, input] of inputs.entries()) {
    const outcome = createCategory(db, input, actor, at);
    if (!outcome.ok) return refused(outcome.refusal.words, { row, created });
    created.push(outcome.value);
  }
  return ok(created);
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

