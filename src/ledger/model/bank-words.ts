/**
 * A bank's own words: words of the tenant's lines that no example has, and that stand beside
 * the names of many different merchants (`TYPE:` on every ACH line a credit union prints,
 * `CONFIRMATION#` on a bank's transfers, `INTERNET` on an aggregator's). A word no example
 * has usually names a merchant that no example shows (history.ts, `nameOf`); one of these
 * names none, so a line printed by a bank the labels never came from is read by its other
 * words, its merchant's among them.
 *
 * The merchant a line stands beside is its most distinctive word that some example has. A
 * new merchant's words stand beside the few words of its own lines (its city, the
 * processor's prefix, the merchant whose name it shares: `EATS` beside `UBER`), a bank's
 * beside the names of every merchant it prints.
 */
import { byText, inverseFrequency, type Corpus, type Examples } from "./evidence";
import { keyNameWords } from "./features";
import { STEP_WORK } from "./steps";

/** A word no example has is the bank's once it stands beside this many different merchants' words. */
export const BANK_WORD_MERCHANTS = 10;

/** A line key read for its words, in the work units of `STEP_WORK`. */
const KEY_READ_WORK = 500;


/**
 * The bank's words among the corpus's line keys, given the examples: yields every
 * `STEP_WORK` of reading. Only words on two line keys or more count (a word on one line is a
 * one-off).
 */
export function* bankWordsInSteps(examples: Examples, corpus: Corpus): Generator<void, Set<string>> {
  const known = new Set<string>();
  for (const key of examples.keys()) for (const word of keyNameWords(key)) known.add(word);
  const frequency = (word: string) => corpus.frequencies.get(`w:${word}`) ?? 0;
  const idf = (word: string) => inverseFrequency(frequency(word), corpus.lines.size);
  const besides = new Map<string, Set<string>>();
  const bank = new Set<string>();
  let work = 0;
  for (const key of corpus.lines.keys()) {
    if ((work += KEY_READ_WORK) >= STEP_WORK) {
      work = 0;
      yield;
    }
    const words = keyNameWords(key).filter((word) => frequency(word) >= 2);
    let merchant: string | null = null;
    for (const word of words) {
      if (!known.has(word)) continue;
      if (merchant === null || idf(word) > idf(merchant) || (idf(word) === idf(merchant) && byText(word, merchant) < 0)) merchant = word;
    }
    if (merchant === null) continue;
    for (const word of words) {
      if (known.has(word) || bank.has(word)) continue;
      let merchants = besides.get(word);
      if (!merchants) besides.set(word, (merchants = new Set()));
      merchants.add(merchant);
      if (merchants.size >= BANK_WORD_MERCHANTS) {
        bank.add(word);
        besides.delete(word);
      }
    }
  }
  return bank;
}
