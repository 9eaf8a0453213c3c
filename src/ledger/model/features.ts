/**
 * What the local model reads of a line: the description as a bookkeeper would read it
 * (processor prefixes, store numbers, card suffixes and reference numbers stripped), a
 * merchant key, the merchant name, the amount's sign and size band, and the account.
 */

export interface LineFacts {
  description: string;
  merchantName: string | null;
  amountCents: number;
  accountId: string;
}

/** Card processors and bank words that say nothing about the merchant. */
const PREFIXES = /^(?:sq \*|sq\*|tst\* ?|paypal \*|pp\*|sp \*|sp\*|pos |ach |checkcard \d*|debit card purchase|purchase authorized on \d+\/\d+|recurring payment|card purchase|visa purchase|dbt crd|pos debit)\s*/;

export function normaliseDescription(text: string): string {
  let s = text.toLowerCase().replace(/\s+/g, " ").trim();
  for (let previous = ""; previous !== s; ) {
    previous = s;
    s = s.replace(PREFIXES, "");
  }
  return s
    .replace(/x{2,}\d+/g, " ") // card suffixes: xxxx1234
    .replace(/\bcard \d{2,}\b/g, " ")
    .replace(/\b\d{1,2}\/\d{1,2}(\/\d{2,4})?\b/g, " ") // dates
    .replace(/#\s*\d+/g, " ") // store numbers
    .replace(/\b(?:ref|id|conf|trace)[:# ]*\w*\d\w*\b/g, " ") // reference numbers
    .replace(/\b[a-z]*\d[\w-]*\b/g, " ") // any token with digits: phone numbers, codes
    .replace(/[^a-z& ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The merchant as the first two words of the normalised description, or the merchant name. */
export function merchantKey(line: Pick<LineFacts, "description" | "merchantName">): string {
  return keyOf(normaliseDescription(line.description), line.merchantName ? normaliseDescription(line.merchantName) : "");
}

function keyOf(description: string, name: string): string {
  return name || description.split(" ").slice(0, 2).join(" ");
}

/** Log-scale size bands: under $10, under $100, under $1,000, ... */
export function sizeBand(amountCents: number): number {
  const dollars = Math.abs(amountCents) / 100;
  return dollars < 1 ? 0 : Math.min(7, Math.floor(Math.log10(dollars)) + 1);
}

export function featuresOf(line: LineFacts): string[] {
  // Each text normalised once: training reads every line of the books (100,000 in about a second).
  const description = normaliseDescription(line.description);
  const name = line.merchantName ? normaliseDescription(line.merchantName) : "";
  const words = description.split(" ").filter((w) => w.length >= 2);
  const features = words.map((w) => `w:${w}`);
  for (let i = 0; i + 1 < words.length; i++) features.push(`b:${words[i]}_${words[i + 1]}`);
  const key = keyOf(description, name);
  if (key) features.push(`key:${key}`);
  if (name) for (const w of name.split(" ")) if (w.length >= 2) features.push(`m:${w}`);
  features.push(line.amountCents > 0 ? "sign:in" : "sign:out", `band:${sizeBand(line.amountCents)}`, `acct:${line.accountId}`);
  return features;
}
