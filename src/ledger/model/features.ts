/**
 * What the local model reads of a line. Nothing here knows any bank's words but two: a line is
 * cut into words and numbers the same way for every bank, and which of them carry the
 * merchant is learnt from the tenant's own lines (classifier.ts: a word every kind of line
 * shares weighs little, a word only one merchant's lines share weighs much). The two are
 * `transfer`: a transfer names its other party by that account's last four digits, which
 * no bank's words around them can be learnt to outweigh from a few labels (`MOBILE BANKING`
 * one day, `INTERNET BANKING` the next, for the same account); and `check`: a check's line
 * names nobody (`CHECK 4165`, `Share Draft #4165`), so no number of labelled checks tells
 * who the next one paid (`namesNobody`).
 *
 * Two steps:
 * - `lineKey`: the line as the model keeps it. Words as they are (lower case; a word glued
 *   to another in mixed case, `DebitGUSTO`, is two), numbers as their length only (dates,
 *   times, store numbers, references and traces change from line to line) except four
 *   digits behind a mask, or standing alone in a transfer, kept as a word (`XXXXXX4411`
 *   and `TRANSFER WITHDRAWAL 4411` are `#4411`: the other account's last four), a code mixing
 *   letters and digits as its shape (`H4WXUG0ZTR` is `a9a9a9`), words glued to numbers as
 *   the words and the numbers (`WILLIAMS2354OAKLAND`, `XXXXXX4411`); then the aggregator's merchant
 *   name the same way, the amount's sign and size band, and the account. Lines with the
 *   same key are the same to the model, so the model keeps one row per key and category
 *   with how many lines it stands for.
 * - `featuresOfKey`: the key's features: each word (a masked account's too), each pair of neighbouring words, the
 *   character 4- and 5-grams inside each word of three letters or more, with its start and
 *   end marked (a name cut short, `PRI` for `PRINTFUL`, or glued to a city still shares some), each code's shape, the merchant name's
 *   words and the whole name, and each word paired with the amount's sign and band and
 *   with the account (so a merchant whose lines go to two categories by size or by account
 *   can be told apart), the sign, band and account themselves.
 */

export interface LineFacts {
  description: string;
  merchantName: string | null;
  amountCents: number;
  accountId: string;
}

/** Log-scale size bands: under $1, under $10, under $100, ... */
export function sizeBand(amountCents: number): number {
  const dollars = Math.abs(amountCents) / 100;
  return dollars < 1 ? 0 : Math.min(7, Math.floor(Math.log10(dollars)) + 1);
}

/** Numbers longer than this are written as this long: a 15-digit trace and a 20-digit one say the same. */
const LONGEST_NUMBER = 12;
/** A code's shape is cut to this many runs. */
const LONGEST_SHAPE = 6;

const isLetter = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;

/** A number as the model keeps it: its length. */
const numberOf = (length: number) => "0".repeat(Math.min(length, LONGEST_NUMBER));

/**
 * Four digits behind a mask (`XXXXXX4411`, `CHK ...4411`, `**4411`): the last four of an
 * account, all that some banks print of the other party of a transfer, and the same in
 * every bank's text. Kept as a word, `#4411`; the mask itself is dropped.
 */
const MASKED = /[^a-z0-9]*(?<![a-z0-9])(?:x{2,}|\.{2,}|\*{2,})([0-9]{4})(?![0-9])|[^a-z0-9]+/;

/**
 * A transfer between accounts, which banks print naming the other account by its last four
 * digits, masked or not (`CHK 1322`, `TRANSFER WITHDRAWAL 7636`), the word in full or in
 * one of the banks' shortenings (`Internet Trf To DDA 4559`, `XFR`, `TFR`, `TRNSFR`).
 */
const TRANSFER = /(?<![a-z])(?:transfer|xfer|xfr|trf|tfr|trnsfr)(?![a-z])/;
/**
 * One to three digits standing alone at the end of a transfer: the other account's last
 * four, cut short by the bank's width (`Withdrawal Transfer To COHEN 763` of `... 7631`).
 * Kept as what the line shows of the account (`#763`): each account the bank cuts so keeps
 * its own beginning, where a number's length (`000`) would make them one; the history reads
 * it as the one account an example has that begins so, if one alone does (history.ts,
 * `completed`).
 */
const CUT_FOUR = /(?<![a-z0-9/:.-])[0-9]{1,3}$/;
/** Four digits standing alone: not part of a longer number or a code, nor of a date or a time (`10/14/2026`, `2026-10-14`, `TIME:0912`). */
const BARE_FOUR = /(?<![a-z0-9/:.-])([0-9]{4})(?![a-z0-9/:.-])/g;

/** One lower-case token of letters and digits, as the model keeps it: one or more words. */
function canonical(token: string): string {
  const runs = token.match(/[a-z]+|[0-9]+/g)!;
  if (runs.length === 1) return isLetter(token.charCodeAt(0)) ? token : numberOf(token.length);
  // Words glued to numbers (WILLIAMS2354, 1234OAKLAND, WILLIAMS2354OAKLAND): the
  // words and the numbers. A run of one or two letters among digits makes it a code instead.
  if (runs.every((run) => isDigit(run.charCodeAt(0)) || run.length >= 3)) {
    return runs.map((run) => (isDigit(run.charCodeAt(0)) ? numberOf(run.length) : run)).join(" ");
  }
  // A code: the shape of its runs, `a` for letters and `9` for digits.
  return runs
    .slice(0, LONGEST_SHAPE)
    .map((run) => (isDigit(run.charCodeAt(0)) ? "9" : "a"))
    .join("");
}

/** Free text as the model keeps it: canonical tokens separated by single spaces. */
export function canonicalText(text: string): string {
  // Split on anything but letters and digits, and on a mask with its digits, which the split keeps (its captured group).
  let lower = text.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  // In a transfer, four digits standing alone are the other account's last four, as if masked.
  const transfer = TRANSFER.test(lower);
  if (transfer) lower = lower.replace(BARE_FOUR, "xx$1");
  const parts = lower.split(MASKED);
  const kept: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!part) continue;
    kept.push(i % 2 === 1 ? `#${part}` : canonical(part));
  }
  const cut = transfer ? CUT_FOUR.exec(lower.trimEnd())?.[0] : undefined;
  if (cut !== undefined) kept[kept.length - 1] = `#${cut}`;
  return kept.join(" ");
}

/** The line as the model keeps it: `description|merchant name|sign band|account`. */
export function lineKey(line: LineFacts): string {
  const sign = line.amountCents > 0 ? "+" : "-";
  const name = line.merchantName ? canonicalText(line.merchantName) : "";
  return `${canonicalText(line.description)}|${name}|${sign}${sizeBand(line.amountCents)}|${line.accountId.replace(/\|/g, " ")}`;
}

/**
 * A word that can name a merchant: letters only, this many or more. A word cut short at the
 * end of a narrow line (`SA`, `TY`), a state or an initial names nobody.
 */
export const NAME_LETTERS = 3;
const LETTERS = /^[a-z]+$/;
/** A token of letters alone, as the model keeps text (a word, not a number, a code or an account). */
export const isLetters = (token: string) => LETTERS.test(token);
export const isNameWord = (word: string) => word.length >= NAME_LETTERS && isLetters(word);

/** An account's last four digits as the model keeps them (`#4411`), or the first of them a cut line keeps (`#441`). */
export const isLastFour = (word: string) => LAST_FOUR_WORD.test(word);
const LAST_FOUR_WORD = /^#[0-9]{1,4}$/;

/**
 * The accounts a transfer names by their last four digits (`#7636` of `internet banking
 * transfer withdrawal #7636`; both of `transfer from chk #1234 to sav #5678`), in a
 * description as the model keeps it; none for any other line. The other account names the
 * party whatever the bank's words around it (`MOBILE BANKING` or `INTERNET BANKING`, the
 * channel the owner used that day) say.
 */
export function transferAccounts(description: string): string[] {
  return TRANSFER.test(description) ? description.split(" ").filter(isLastFour) : [];
}

/** The words of a check's line, as banks print them around its number. */
const CHECK = new Set(["check", "chk", "cheque", "draft"]);
const CHECK_WORDS = new Set([...CHECK, "share", "paid", "number"]);

/**
 * Whether a line's text names nobody: a check printed as its number alone (`check 0000`,
 * `share draft 0000`, `check paid 0000`), with no merchant name beside it, in a key's
 * description and name as the model keeps them. Its payee, and so its category, is not on
 * the line; a check that prints its payee (`CHECK 4165 NGUYEN T`) names somebody.
 */
export function namesNobody(description: string, merchantName: string): boolean {
  if (merchantName) return false;
  const words = nameWords(description);
  return words.some((word) => CHECK.has(word)) && words.every((word) => CHECK_WORDS.has(word));
}

/** The words of text as the model keeps it (`canonicalText`) that can name a merchant, each once. */
export function nameWords(text: string): string[] {
  return [...new Set(text.split(" "))].filter(isNameWord);
}

/** A key's words that can name a merchant: its description's and its merchant name's. */
export function keyNameWords(key: string): string[] {
  const { description, name } = keyParts(key);
  return nameWords(`${description} ${name}`);
}

/**
 * Whether a key's aggregator merchant name names none of what its description prints: no
 * word of the name's (of three letters or more) is a word of the description, or begins one
 * or is begun by one (a name cut short). The aggregator's guess, now and then another
 * merchant's (`NOTION LABS, INC.` as Panera Bread, `LOWE'S #6710` as Northern Fork Grill)
 * or the card processor's (`SQ *BLUE BOTTLE` as Square). False without a name, and where
 * the description names nobody (`CHECK 4165`): the name is then all that names the party.
 */
export function nameDisagrees(key: string): boolean {
  const { description, name } = keyParts(key);
  const named = nameWords(name);
  if (named.length === 0 || namesNobody(description, "")) return false;
  const printed = nameWords(description);
  return !named.some((word) => printed.some((p) => p.startsWith(word) || word.startsWith(p)));
}

/** The key without its aggregator merchant name. */
export const withoutName = (key: string) => {
  const { description, signBand, account } = keyParts(key);
  return `${description}||${signBand}|${account}`;
};

/** A key's parts. */
export function keyParts(key: string): { description: string; name: string; signBand: string; account: string } {
  const first = key.indexOf("|");
  const second = key.indexOf("|", first + 1);
  const third = key.indexOf("|", second + 1);
  return { description: key.slice(0, first), name: key.slice(first + 1, second), signBand: key.slice(second + 1, third), account: key.slice(third + 1) };
}

const GRAMS = [4, 5];

/** The features of one text (a description or a merchant name), each feature name starting with `prefix`. */
function textFeatures(text: string, prefix: string, into: Set<string>): string[] {
  const words: string[] = [];
  for (const token of text.split(" ")) {
    if (!token) continue;
    if (isLetter(token.charCodeAt(0)) && !/[0-9]/.test(token)) {
      if (token.length >= 2) words.push(token);
    } else if (token.startsWith("#")) {
      words.push(token);
    } else if (/^0+$/.test(token)) {
      into.add(`${prefix}n:${token.length}`);
    } else {
      into.add(`${prefix}x:${token}`);
    }
  }
  for (const word of words) {
    into.add(`${prefix}w:${word}`);
    if (word.length >= 3 && !word.startsWith("#")) {
      const padded = `^${word}$`;
      for (const n of GRAMS) for (let i = 0; i + n <= padded.length; i++) into.add(`${prefix}c:${padded.slice(i, i + n)}`);
    }
  }
  for (let i = 0; i + 1 < words.length; i++) into.add(`${prefix}b:${words[i]}_${words[i + 1]}`);
  return words;
}

/** Whether a feature names the line's merchant by its words (a word or a pair of words, in the text or the merchant name). */
export const isIdentity = (feature: string) => /^[wb]:/.test(feature) && !feature.includes("@");

/** The identity features (words and pairs of neighbouring words) that one text, as the model keeps it, prints. */
export function identitiesOf(text: string): Set<string> {
  const features = new Set<string>();
  textFeatures(text, "", features);
  for (const feature of features) if (!isIdentity(feature)) features.delete(feature);
  return features;
}

/** Every feature of a key (see the file's comment), each once. */
export function featuresOfKey(key: string): string[] {
  const { description, name, signBand, account } = keyParts(key);
  const features = new Set<string>();
  const words = textFeatures(description, "", features);
  if (name) {
    // The name's words are words like the description's: a bank that prints no name still shares them.
    words.push(...textFeatures(name, "", features));
    features.add(`mn:${name}`);
  }
  for (const word of new Set(words)) features.add(`w:${word}@${signBand}`).add(`w:${word}@@${account}`);
  features.add(`s:${signBand[0]}`).add(`sb:${signBand}`).add(`a:${account}`).add(`sa:${signBand[0]}${account}`);
  return [...features];
}

/** The features of a line. */
export function featuresOf(line: LineFacts): string[] {
  return featuresOfKey(lineKey(line));
}
