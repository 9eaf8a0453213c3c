/**
 * The shared merchant prior in a tenant's ledger: its choice (opted in or not, appended,
 * the newest stands) and the copy of the pooled prior the daily run last handed it
 * (shared-prior.ts says what the prior is; src/index-db/shared-prior.ts pools it).
 */
import { and, desc, eq, gt, lte, sql } from "drizzle-orm";
import type { LedgerDb, LedgerHandle } from "../store/db";
import { inLineRanges, type Pause } from "../slices";
import { taxonomy } from "../books/categories";
import { cRows, modelExamples, modelLines, sharedPriorChoices, sharedPriorWords } from "../store/schema";
import { Evidence } from "./evidence";
import { canonicalText, keyParts, nameWords } from "./features";
import { jsonArrays } from "./local-model";
import { contribution, type Contribution, type SharedMerchant, type SharedPrior } from "./shared-prior";

export interface SharedPriorChoice {
  opted_in: boolean;
  /** When the choice that stands was made; null while the tenant never chose (not opted in). */
  chosen_at: string | null;
  chosen_by: string | null;
}

/** A pooled word as it is handed to a tenant. */
export interface PooledWord extends SharedMerchant {
  word: string;
}

export function sharedPriorChoice(db: LedgerHandle): SharedPriorChoice {
  const chosen = db.select().from(sharedPriorChoices).orderBy(desc(sharedPriorChoices.id)).limit(1).get();
  return chosen ? { opted_in: chosen.optedIn, chosen_at: chosen.chosenAt, chosen_by: chosen.actor } : { opted_in: false, chosen_at: null, chosen_by: null };
}

/**
 * Records the tenant's choice; the choice that stands appends nothing. Opting out drops the
 * copy of the pooled prior at once: the model reads none from then on.
 */
export function chooseSharedPrior(db: LedgerDb, optedIn: boolean, actor: string, at: string): SharedPriorChoice {
  return db.transaction((tx) => {
    const standing = sharedPriorChoice(tx);
    if (standing.opted_in === optedIn && standing.chosen_at !== null) return standing;
    tx.insert(sharedPriorChoices).values({ optedIn, actor, chosenAt: at }).run();
    if (!optedIn) tx.delete(sharedPriorWords).run();
    return { opted_in: optedIn, chosen_at: at, chosen_by: actor };
  });
}

/** Keeps the pooled prior in place of the last one, where the tenant is opted in; answers whether it was kept. */
export function keepPooledPrior(db: LedgerDb, words: readonly PooledWord[]): boolean {
  return db.transaction((tx) => {
    if (!sharedPriorChoice(tx).opted_in) return false;
    tx.delete(sharedPriorWords).run();
    // As JSON arrays, one bound value each: a Durable Object's SQLite binds at most 100 values to a statement.
    const rows = words.map((w) => [w.word, w.tenants, Math.round(w.agreement * 1e6), w.category, w.categoryTenants, w.namingTenants]);
    for (const chunk of jsonArrays(rows)) {
      tx.run(sql`
        INSERT INTO ${sharedPriorWords} (word, tenants, agreement_ppm, category, category_tenants, naming_tenants)
        SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 FROM json_each(${chunk})`);
    }
    return true;
  });
}

/** The pooled prior the model reads: null where the tenant is not opted in or none was handed to it yet. */
export function keptSharedPrior(db: LedgerHandle): SharedPrior | null {
  if (!sharedPriorChoice(db).opted_in) return null;
  const rows = db.select().from(sharedPriorWords).all();
  if (rows.length === 0) return null;
  return new Map(rows.map(({ word, agreementPpm, ...rest }) => [word, { ...rest, agreement: agreementPpm / 1e6 }]));
}

/** Side-A lines whose descriptions one slice of `namedWords` reads: some 40 ms of the object's time. */
const NAMED_WORDS_SLICE = 10_000;

/**
 * The words the tenant's lines name, of those the prior may hold (`nameWords`: every word a
 * line's prior is read by, in `sharedGuess` and through the history's name, is one): the
 * part of the pool it is handed. Read from the model's line keys, one per text, where the
 * model has seen the feed; while it has seen none (a new tenant, maybe with a year of
 * history), from the lines' descriptions, in slices with `pause()` between them.
 */
export async function namedWords(db: LedgerHandle, pause: Pause): Promise<string[]> {
  const words = new Set<string>();
  const add = (description: string) => {
    for (const word of nameWords(description)) words.add(word);
  };
  const keys = db.select({ key: modelLines.key }).from(modelLines).all();
  if (keys.length > 0) for (const { key } of keys) add(keyParts(key).description);
  else {
    await inLineRanges(db, NAMED_WORDS_SLICE, pause, (after, upTo) => {
      const lines = db
        .selectDistinct({ description: cRows.description })
        .from(cRows)
        .where(and(eq(cRows.side, "A"), gt(cRows.srcId, after), lte(cRows.srcId, upTo)))
        .all();
      for (const { description } of lines) add(canonicalText(description));
    });
  }
  return [...words].sort();
}

/**
 * What the tenant contributes to the pooled prior, from the model's kept examples and its
 * taxonomy: null where it is not opted in; no word before its model is first kept.
 */
export function sharedPriorContribution(db: LedgerHandle): Contribution | null {
  if (!sharedPriorChoice(db).opted_in) return null;
  const evidence = new Evidence();
  for (const { key, category, lines } of db.select().from(modelExamples).all()) evidence.learn({ key, category }, lines);
  return contribution(evidence.examples, taxonomy(db).map((entry) => entry.name));
}
