/**
 * The merchant's history: how many example lines of each category share the words that
 * name a line's merchant, overall, within the line's amount band and within its account.
 * It is the evidence behind a decision: a merchant taught often and always the same way
 * earns confidence; one whose lines went to several categories keeps it low unless the
 * line's band or account has always gone one way.
 *
 * Which of a line's words speak for its merchant: of its known identity features (words
 * and word pairs some example has; a pair only where it holds the line's most distinctive
 * word, `speaksFor`), the one whose examples agree best with the chosen category, the more
 * distinctive among the tenant's line keys where two agree as well. (A day of the week or
 * a bank's rare field name beside a merchant's name may be more distinctive than the name,
 * so every word is read, not the most distinctive alone.)
 *
 * A line whose most distinctive word no example has names a merchant no example shows,
 * however many examples share its lesser words: `UBER *EATS` after `UBER *TRIP`, `PIRATE
 * SHIP` after `ULINE *SHIP SUPPLIES`, `PAYCHEX TPS TAXES` after `PAYCHEX INC. PAYROLL`. It
 * has no history. A word cut short (`STOR` at the end of a line cut at 32 characters) or
 * glued to the next field (`MARKETPLACSEC`) is the word some example has; a line's last
 * word that begins one word alone of the examples' is read as that word (`completed`:
 * `Withdrawal POS #495800812202 TAR` as TARGET, cut three letters into the name). A
 * bank's own word (`TYPE:` on a credit union's ACH lines, when no label came from that
 * bank) stands beside many merchants' names and names none (bank-words.ts): the line is
 * read by its other words. A transfer is read by the other account's last four alone
 * (`INTERNET BANKING TRANSFER WITHDRAWAL 7636` by `#7636`): the channel's words beside them
 * change from day to day for the same account.
 */
import { byText, inverseFrequency, type Corpus } from "./evidence";
import { identitiesOf, isIdentity, isLastFour, isNameWord, keyNameWords, keyParts, NAME_LETTERS, transferAccounts } from "./features";

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
  /** Of those, the ones whose money went the line's way (in or out). */
  direction: Tally;
  /**
   * Every example line with the line's most distinctive word (`name`), of which the lines of
   * the feature that speaks for the merchant are a part where that feature is another word
   * or a pair (`POS THE` of every line with `THE`, `PUR PEREZ` of every line with `PEREZ`): a
   * part that agrees where the whole splits may agree by chance. Where the bank cut the line
   * at its width inside the name, the one longer word the name begins, if there is one
   * (`PRA` of `PRAIRIE`). Null where the name itself speaks for the merchant, or there is
   * none (`wholeOf`).
   */
  whole: Tally | null;
  /** How many of the line's words and pairs the feature that speaks for the merchant was chosen among: the best agreement of several is likelier by chance. */
  chosenAmong: number;
  /** The line's most distinctive word (`nameOf`), which names its merchant to other tenants (shared-prior.ts; a transfer's account, `#7636`, names nothing there); null when it has none. */
  name: string | null;
  /**
   * Whether most of the example lines of the feature that speaks for the merchant name a
   * store that sells many kinds of things (many-kinds.ts): the line itself may not, cut at
   * its bank's width before the name (`Withdrawal POS #737721504547 TRA`).
   */
  ofManyKinds: boolean;
}

const NONE: Tally = { agree: 0, lines: 0 };

/** A word of letters, as a feature. */
const WORD = /^w:[a-z]+$/;
/** An account's last four, as a feature. */
const ACCOUNT = /^w:#[0-9]{4}$/;

/**
 * Whether an identity feature may speak for the merchant of a line named `name`: any word,
 * and a pair of words only where it holds the name (`HOME DEPOT`, where `DEPOT` is also
 * `OFFICE DEPOT`'s). A pair without it is a subset of the merchant's lines cut by a word
 * beside them (`US OAKLAND` of `AMZN MKTP US OAKLAND CA`: the name's last word and the
 * city), whose agreement is chance: six of a store's eighteen lines that happened to go
 * one way would vouch for it where the eighteen split 14 to 4.
 */
const speaksFor = (feature: string, name: string | null) => feature.startsWith("w:") || name === null || feature.slice(2).split("_").includes(name);

/** A description's last word, as the model keeps it. */
const lastWord = (description: string) => description.slice(description.lastIndexOf(" ") + 1);

/** Log-odds that a history's next line agrees, from its lines (half a line on each side: a handful of lines never claims certainty). */
export const logOdds = ({ agree, lines }: Tally) => Math.log((agree + 0.5) / (lines - agree + 0.5));

/** The rule of succession with half a line on each side: what a history alone says of its next line. */
export const succession = ({ agree, lines }: Tally) => (agree + 0.5) / (lines + 1);

/**
 * What a history alone says of its line's category (the calibration's prior while the
 * held-out lines are few): the rule of succession over its narrowest view, the merchant's
 * lines, those in the line's amount band or those in its account where they hold a line,
 * whichever says least. A view with no line says nothing, not doubt: read as an even chance,
 * it pulled the confidence of every merchant met at a new price or on another card towards
 * a half, where at 50 labels such lines were already given less than they earned
 * (docs/model-evaluation.md, "An empty view says nothing"). A check's history is no payee's
 * (fit.ts reads it as an even chance).
 */
export const historyPrior = ({ merchant, band, account }: MerchantHistory) => Math.min(succession(merchant), ...[band, account].filter((v) => v.lines > 0).map(succession));

/** Whether a feature is kept in the history: a merchant's identity, or a word within a band or an account. */
export const isKept = (feature: string) => isIdentity(feature) || feature.includes("@");

export class Histories {
  /** Kept feature -> lines per class. */
  private readonly counts = new Map<string, Float64Array>();
  /** Kept feature -> its example lines that name a store that sells many kinds of things. */
  private readonly manyKindsLines = new Map<string, number>();
  /** Identity features some example's description prints. */
  private readonly printed = new Set<string>();
  /** Identity feature -> how many example keys hold it by their merchant name alone, their description printing none of it. */
  private readonly namedOnly = new Map<string, number>();

  /** `bankWords`: words of the bank's, which name no merchant (bank-words.ts). */
  constructor(
    private readonly classes: number,
    private readonly bankWords: ReadonlySet<string> = new Set(),
  ) {}

  /**
   * Adds an example key's lines per class under each of its kept features (`features`, the
   * key's); `sellsManyKinds`, whether its text names a store that sells many kinds of things
   * (many-kinds.ts).
   */
  add(key: string, features: readonly string[], lines: Float64Array, sellsManyKinds = false): void {
    let total = 0;
    for (const n of lines) total += n;
    const printed = identitiesOf(keyParts(key).description);
    for (const feature of features) {
      if (!isKept(feature)) continue;
      if (isIdentity(feature)) {
        if (printed.has(feature)) this.printed.add(feature);
        else this.namedOnly.set(feature, (this.namedOnly.get(feature) ?? 0) + 1);
      }
      if (sellsManyKinds && isIdentity(feature)) this.manyKindsLines.set(feature, (this.manyKindsLines.get(feature) ?? 0) + total);
      this.count(feature, lines);
      // A word's lines in a band are also its lines in that band's direction (`w:word@-` of `w:word@-2`).
      const band = feature.indexOf("@");
      if (band > 0 && feature[band + 1] !== "@") this.count(feature.slice(0, band + 2), lines);
    }
  }

  private count(feature: string, lines: Float64Array): void {
    let perClass = this.counts.get(feature);
    if (!perClass) this.counts.set(feature, (perClass = new Float64Array(this.classes)));
    for (let k = 0; k < lines.length; k++) perClass[k]! += lines[k]!;
  }

  /** What the examples say of the merchant the line names, for class `k`; null when no example shares any of its identity features. `atWidth`: the line was cut at its bank's width (bank-width.ts). */
  read(key: string, features: readonly string[], k: number, corpus: Corpus, atWidth = false): MerchantHistory | null {
    const idf = (f: string) => inverseFrequency(corpus.frequencies.get(f) ?? 0, corpus.lines.size);
    const { description, signBand, account } = keyParts(key);
    const name = this.nameOf(key, corpus, idf);
    if (name !== null && !this.knows(name, corpus, lastWord(description) === name)) return null;
    // A transfer's other account is its party, whatever else the line shares with other lines.
    const identities = name !== null && isLastFour(name) ? [`w:${name}`] : features.filter((f) => isIdentity(f) && speaksFor(f, name));
    const printed = identitiesOf(description);
    const known = identities
      .filter((f) => this.counts.has(f) && !(printed.has(f) && this.vouchedByOneName(f)))
      .map((f) => ({ f, idf: idf(f) }))
      .sort((a, b) => b.idf - a.idf || byText(a.f, b.f));
    let chosen: { f: string; merchant: Tally } | null = null;
    for (const { f } of known) {
      const merchant = this.tally(f, k);
      if (!chosen || logOdds(merchant) > logOdds(chosen.merchant)) chosen = { f, merchant };
    }
    if (!chosen) return null;
    return {
      merchant: chosen.merchant,
      band: this.narrowest(chosen.f, `@${signBand}`, k),
      account: this.narrowest(chosen.f, `@@${account}`, k),
      direction: this.narrowest(chosen.f, `@${signBand[0]}`, k),
      whole: this.wholeOf(description, name, chosen.f, atWidth, k),
      chosenAmong: known.length,
      name,
      ofManyKinds: 2 * (this.manyKindsLines.get(chosen.f) ?? 0) > chosen.merchant.lines,
    };
  }

  /**
   * The line's most distinctive word of letters in its description (the aggregator's name
   * may be one no bank prints), among those of `NAME_LETTERS` letters or more on two lines
   * or more (two line keys, or this key of two lines: a word on one line is a one-off); null
   * when it has none. A transfer's is
   * the other account's last four (`#7636`, features.ts `transferAccounts`), on however few
   * lines: an account no example shows is a party no example shows.
   */
  private nameOf(key: string, corpus: Corpus, idf: (f: string) => number): string | null {
    const { description } = keyParts(key);
    let name: string | null = null;
    // Of two accounts, the business's own is on every transfer it makes: the rarer is the party's.
    for (const account of transferAccounts(description)) if (name === null || idf(`w:${account}`) > idf(`w:${name}`)) name = account;
    if (name !== null) return name;
    // A word on one line key is on two lines where that key is: a merchant paid the same sum every month prints one key.
    const onOneLine = (corpus.lines.get(key) ?? 0) < 2;
    for (const word of new Set(description.split(" "))) {
      const f = `w:${word}`;
      const keys = corpus.frequencies.get(f) ?? 0;
      if (!isNameWord(word) || keys === 0 || (keys === 1 && onOneLine) || this.bankWords.has(word)) continue;
      if (name === null || idf(f) > idf(`w:${name}`)) name = word;
    }
    return name;
  }

  /**
   * Whether a line of a key may name the merchant of one of `keys` (a person's change no
   * fit has learnt yet): its merchant's word (`nameOf`) is one of their words, or one of
   * its words is one of their merchants' words (all their words where a key names none).
   * Read both ways, so a bank's other words around a name do not hide it; a line cut into
   * its merchant's name is read as the model reads it (`completed`).
   */
  namesAny(keys: readonly string[], corpus: Corpus): (key: string) => boolean {
    const idf = (f: string) => inverseFrequency(corpus.frequencies.get(f) ?? 0, corpus.lines.size);
    const [names, words] = [new Set<string>(), new Set<string>()];
    for (const key of keys.map((k) => this.completed(k))) {
      const own = [...keyNameWords(key), ...transferAccounts(keyParts(key).description)];
      for (const word of own) words.add(word);
      const name = this.nameOf(key, corpus, idf);
      for (const word of name === null ? own : [name]) names.add(word);
    }
    return (given) => {
      const key = this.completed(given);
      const name = this.nameOf(key, corpus, idf);
      return (name !== null && words.has(name)) || keyNameWords(key).some((word) => names.has(word));
    };
  }

  /**
   * Whether an example has this word, a word it begins (cut short: at the line's end, `last`,
   * any such word; inside the line, the one word alone that begins so, as a field cut to its
   * width, for a word there that begins several is a word of its own: `PAY` of `CORP PAY`,
   * beside `PAYROLL` and `PAYMENTS`), a word of four letters or more it begins with (glued to
   * more), or one of three it begins with where the rest is a word of the tenant's lines
   * (`PMTSEC`: a NACHA field's `VENDOR PMT` glued to `SEC:`).
   */
  private knows(word: string, corpus: Corpus, last: boolean): boolean {
    if (this.counts.has(`w:${word}`) || (last ? this.completions().has(word) : this.completions().get(word))) return true;
    for (let n = word.length - 1; n >= 4; n--) if (this.counts.has(`w:${word.slice(0, n)}`)) return true;
    const rest = word.slice(NAME_LETTERS);
    return rest.length >= NAME_LETTERS && this.counts.has(`w:${word.slice(0, NAME_LETTERS)}`) && (corpus.frequencies.get(`w:${rest}`) ?? 0) >= 2;
  }

  /**
   * The key with its description's last word made whole: a line cut at its bank's width
   * (`Withdrawal POS #495800812202 TAR`) ends in the beginning of its merchant's name, or of
   * a transfer's account (`... COHEN 763`, `#763`). Only a last word of `NAME_LETTERS`
   * letters or more, or an account's digits, that no example has and that begins exactly
   * one word or account some example has; the key as it is otherwise.
   */
  completed(key: string): string {
    const { description } = keyParts(key);
    const last = lastWord(description);
    const cut = description.length - last.length;
    if (!(isNameWord(last) || isLastFour(last)) || this.counts.has(`w:${last}`)) return key;
    const word = this.completions().get(last);
    return word ? `${description.slice(0, cut)}${word.slice(2)}${key.slice(description.length)}` : key;
  }

  /**
   * Each beginning (of `NAME_LETTERS` letters or more) of a word some example has -> that
   * word's feature, or null where several words begin so; built when first needed.
   */
  private completing: Map<string, string | null> | null = null;
  private completions(): Map<string, string | null> {
    if (!this.completing) {
      this.completing = new Map();
      for (const f of this.counts.keys()) {
        // A word's beginnings from `NAME_LETTERS` letters; an account's last four's from its first digit (`#4` of `#4411`).
        const from = WORD.test(f) ? NAME_LETTERS : ACCOUNT.test(f) ? 2 : null;
        if (from === null) continue;
        for (let n = from; n < f.length - 2; n++) {
          const beginning = f.slice(2, 2 + n);
          this.completing.set(beginning, this.completing.has(beginning) ? null : f);
        }
      }
    }
    return this.completing;
  }

  /**
   * Whether the examples hold an identity feature only through one key's aggregator merchant
   * name, their descriptions printing none of it. An aggregator names a line's merchant
   * wrongly now and then (`NOTION LABS, INC.` as Panera Bread): one such label would
   * otherwise be the history of every line that prints the name, and put them in the band.
   * Where two keys' names say so, or a description prints it, it counts.
   */
  private vouchedByOneName(feature: string): boolean {
    return !this.printed.has(feature) && (this.namedOnly.get(feature) ?? 0) < 2;
  }

  /**
   * `whole`: the name's lines where another feature speaks for the merchant, or where the
   * line was cut at its bank's width in the name, the one longer word the name begins.
   */
  private wholeOf(description: string, name: string | null, feature: string, atWidth: boolean, k: number): Tally | null {
    if (name === null) return null;
    const longer = atWidth && name === lastWord(description) ? this.completions().get(name) : null;
    if (longer) return this.tally(longer, k);
    return feature !== `w:${name}` && this.counts.has(`w:${name}`) ? this.tally(`w:${name}`, k) : null;
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
