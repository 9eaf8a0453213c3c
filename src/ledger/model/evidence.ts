/**
 * What the local model knows, exactly and incrementally, the way the ledger keeps it: the
 * examples (each line key with how many evidence lines of each category it stands for) and
 * the tenant's lines (each key with how many lines of the feed have it, labelled or not).
 * Everything the model fits is derived from this (fit.ts).
 */
import { featuresOfKey } from "./features";
import { STEP_WORK } from "./steps";

export interface Example {
  /** The line's key (features.ts, `lineKey`). */
  key: string;
  category: string;
}

/** The evidence as rows, the way the ledger keeps it (local-model.ts). */
export interface EvidenceRows {
  examples: { key: string; category: string; lines: number }[];
  /** The tenant's lines by key. */
  lines: { key: string; lines: number }[];
}

/** The tenant's lines as a fit reads them: how many line keys have each feature, and how many lines each key stands for. */
export interface Corpus {
  frequencies: Map<string, number>;
  lines: Map<string, number>;
}

/** Examples by key: key -> category -> lines. */
export type Examples = Map<string, Map<string, number>>;

/** A line key's features read, weighed or measured, in the work units of `STEP_WORK` (measured: about 40 microseconds). */
export const KEY_WORK = 8_000;

/** How distinctive a feature is among the tenant's line keys: a bank's own words are on many, a merchant's name on few. */
export const inverseFrequency = (frequency: number, keys: number) => Math.log((keys + 1) / (frequency + 1));

/** Adds `by` to a count, dropping the entry at zero so a forgotten example leaves no trace. */
export function bump<K>(counts: Map<K, number>, key: K, by: number): number {
  const next = (counts.get(key) ?? 0) + by;
  if (next === 0) counts.delete(key);
  else counts.set(key, next);
  return next;
}

export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What the model knows, exactly: examples and lines by key, with what changed since `takeChanges`. */
export class Evidence {
  /** key -> category -> lines */
  readonly examples = new Map<string, Map<string, number>>();
  /** key -> lines of the feed */
  readonly lines = new Map<string, number>();
  size = 0;
  private readonly changedExamples = new Map<string, Set<string>>();
  private readonly changedLines = new Set<string>();
  /** Features -> how many keys of `lines` have them; built when first needed. */
  private frequencies: Map<string, number> | null = null;

  learn({ key, category }: Example, by: number): void {
    let perCategory = this.examples.get(key);
    if (!perCategory) this.examples.set(key, (perCategory = new Map()));
    bump(perCategory, category, by);
    if (perCategory.size === 0) this.examples.delete(key);
    this.size += by;
    let changed = this.changedExamples.get(key);
    if (!changed) this.changedExamples.set(key, (changed = new Set()));
    changed.add(category);
  }

  holds({ key, category }: Example): boolean {
    return (this.examples.get(key)?.get(category) ?? 0) > 0;
  }

  /** Moves whenever the lines change: a measurement against the lines before is stale (fit.ts, `measure`). */
  linesMoved = 0;

  see(key: string, by: number): void {
    const before = this.lines.get(key) ?? 0;
    const after = bump(this.lines, key, by);
    this.changedLines.add(key);
    this.linesMoved++;
    if (this.frequencies && (before === 0) !== (after === 0)) {
      for (const feature of featuresOfKey(key)) bump(this.frequencies, feature, after === 0 ? -1 : 1);
    }
  }

  /**
   * The tenant's lines as they stand, not copied (valid until the next `see`): what a
   * standing fit measures a line against, so the lines seen since it was fitted (a sync's
   * page, with a new merchant's words) count. Null until the features' frequencies have
   * been counted (`corpusInSteps`).
   */
  currentCorpus(): Corpus | null {
    return this.frequencies ? { frequencies: this.frequencies, lines: this.lines } : null;
  }

  /** The examples, copied: what is learnt after changes nothing in the copy. */
  copyOfExamples(): Examples {
    const copy: Examples = new Map();
    for (const [key, perCategory] of this.examples) copy.set(key, new Map(perCategory));
    return copy;
  }

  /**
   * The tenant's lines as a fit reads them, copied: lines seen after it change nothing the
   * fit's copy holds. The features' frequencies are counted in steps the first time (every
   * line key's features: a few hundred milliseconds at 100,000 lines), from a copy of the
   * lines taken first, then kept (with the lines seen meanwhile) and moved by every `see`.
   */
  *corpusInSteps(): Generator<void, Corpus> {
    if (this.frequencies) return { frequencies: new Map(this.frequencies), lines: new Map(this.lines) };
    const lines = new Map(this.lines);
    const moved = this.linesMoved;
    const frequencies = new Map<string, number>();
    let work = 0;
    for (const key of lines.keys()) {
      for (const feature of featuresOfKey(key)) bump(frequencies, feature, 1);
      if ((work += KEY_WORK) >= STEP_WORK) {
        work = 0;
        yield;
      }
    }
    this.frequencies = new Map(frequencies);
    // Lines seen meanwhile are counted into the kept frequencies (not the fit's copy): a key
    // now on some line that was on none (or the reverse) moves its features by one.
    if (this.linesMoved !== moved) {
      for (const key of this.lines.keys()) if (!lines.has(key)) for (const feature of featuresOfKey(key)) bump(this.frequencies, feature, 1);
      for (const key of lines.keys()) if (!this.lines.has(key)) for (const feature of featuresOfKey(key)) bump(this.frequencies, feature, -1);
    }
    return { frequencies, lines };
  }

  rows(): EvidenceRows {
    const examples: EvidenceRows["examples"] = [];
    for (const [key, perCategory] of this.examples) for (const [category, lines] of perCategory) examples.push({ key, category, lines });
    return inKeyOrder({ examples, lines: [...this.lines].map(([key, lines]) => ({ key, lines })) });
  }

  takeChanges(): EvidenceRows {
    const rows: EvidenceRows = { examples: [], lines: [] };
    for (const [key, categories] of this.changedExamples) {
      for (const category of categories) rows.examples.push({ key, category, lines: this.examples.get(key)?.get(category) ?? 0 });
    }
    for (const key of this.changedLines) rows.lines.push({ key, lines: this.lines.get(key) ?? 0 });
    this.changedExamples.clear();
    this.changedLines.clear();
    return inKeyOrder(rows);
  }
}

function inKeyOrder(rows: EvidenceRows): EvidenceRows {
  rows.examples.sort((a, b) => byText(a.key, b.key) || byText(a.category, b.category));
  rows.lines.sort((a, b) => byText(a.key, b.key));
  return rows;
}
