/**
 * The merchant's history: how many example lines of each category share the words that
 * name a line's merchant, overall, within the line's amount band and within its account.
 * It is the evidence behind a decision: a merchant taught often and always the same way
 * earns confidence; one whose lines went to several categories keeps it low unless the
 * line's band or account has always gone one way.
 *
 * Which of a line's words name its merchant is read from the tenant's own feed: its known
 * identity features (words and word pairs some example has) in order of how distinctive
 * they are among the tenant's line keys; of the most distinctive ones, the one whose
 * examples agree best with the chosen category speaks for the merchant. (A bank's own
 * words are on many keys and come last; a day of the week or a store number beside a
 * merchant's name may be more distinctive than the name, so more than one is read.)
 */
import { byText, inverseFrequency, type Corpus } from "./evidence";
import { isIdentity, keyParts } from "./features";

/** One view of a history: lines of the category in question, of how many. */
export interface Tally {
  agree: number;
  lines: number;
}

export interface MerchantHistory {
  /** Every example line with the feature that speaks for the merchant. */
  merchant: Tally;
  /** Of those, the ones in the line's amount band (sign and size). */
  band: Tally;
  /** Of those, the ones in the line's account. */
  account: Tally;
}

/** This many of the line's most distinctive known identity features are read. */
const READ = 12;

const NONE: Tally = { agree: 0, lines: 0 };

/** Log-odds that a history's next line agrees, from its lines (half a line on each side: a handful of lines never claims certainty). */
export const logOdds = ({ agree, lines }: Tally) => Math.log((agree + 0.5) / (lines - agree + 0.5));

/** The rule of succession with half a line on each side: what a history alone says of its next line. */
export const succession = ({ agree, lines }: Tally) => (agree + 0.5) / (lines + 1);

/** Whether a feature is kept in the history: a merchant's identity, or a word within a band or an account. */
export const isKept = (feature: string) => isIdentity(feature) || feature.includes("@");

export class Histories {
  /** Kept feature -> lines per class. */
  private readonly counts = new Map<string, Float64Array>();

  constructor(private readonly classes: number) {}

  /** Adds an example key's lines per class under each of its kept features. */
  add(features: readonly string[], lines: Float64Array): void {
    for (const feature of features) {
      if (!isKept(feature)) continue;
      let perClass = this.counts.get(feature);
      if (!perClass) this.counts.set(feature, (perClass = new Float64Array(this.classes)));
      for (let k = 0; k < lines.length; k++) perClass[k]! += lines[k]!;
    }
  }

  /** What the examples say of the merchant the line names, for class `k`; null when no example shares any of its identity features. */
  read(key: string, features: readonly string[], k: number, corpus: Corpus): MerchantHistory | null {
    const known = features
      .filter((f) => isIdentity(f) && this.counts.has(f))
      .map((f) => ({ f, idf: inverseFrequency(corpus.frequencies.get(f) ?? 0, corpus.lines.size) }))
      .sort((a, b) => b.idf - a.idf || byText(a.f, b.f))
      .slice(0, READ);
    let chosen: { f: string; merchant: Tally } | null = null;
    for (const { f } of known) {
      const merchant = this.tally(f, k);
      if (!chosen || logOdds(merchant) > logOdds(chosen.merchant)) chosen = { f, merchant };
    }
    if (!chosen) return null;
    const { signBand, account } = keyParts(key);
    return { merchant: chosen.merchant, band: this.narrowest(chosen.f, `@${signBand}`, k), account: this.narrowest(chosen.f, `@@${account}`, k) };
  }

  private tally(feature: string, k: number): Tally {
    const perClass = this.counts.get(feature);
    if (!perClass) return NONE;
    let lines = 0;
    for (const n of perClass) lines += n;
    return { agree: perClass[k]!, lines };
  }

  /** A feature's lines within a band or an account: a pair of words is read by its word with the fewest lines there. */
  private narrowest(feature: string, within: string, k: number): Tally {
    const words = feature.startsWith("w:") ? [feature.slice(2)] : feature.slice(2).split("_");
    let narrowest: Tally | null = null;
    for (const word of words) {
      const tally = this.tally(`w:${word}${within}`, k);
      if (!narrowest || tally.lines < narrowest.lines) narrowest = tally;
    }
    return narrowest ?? NONE;
  }
}
