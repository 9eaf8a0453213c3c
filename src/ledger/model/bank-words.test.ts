/** A bank's own words: a word no example has that stands beside many merchants' names names none of them. */
import { describe, expect, it } from "vitest";
import { BANK_WORD_MERCHANTS, bankWordsInSteps } from "./bank-words";
import { bump, type Corpus, type Examples } from "./evidence";
import { featuresOfKey, lineKey } from "./features";
import { Histories } from "./history";
import { toEnd } from "./steps";

const CATEGORIES = ["Payroll", "Travel", "Utilities"];
const key = (description: string, cents = -20_000) => lineKey({ description, merchantName: null, amountCents: cents, accountId: "checking" });

/** The examples and the corpus of labelled keys and the rest of the feed, and the histories read with and without the bank's words. */
function learn(labelled: [string, string][], feed: string[]) {
  const examples: Examples = new Map();
  for (const [k, category] of labelled) bump(examples.get(k) ?? examples.set(k, new Map()).get(k)!, category, 1);
  const corpus: Corpus = { frequencies: new Map(), lines: new Map() };
  for (const k of [...labelled.map(([k]) => k), ...feed]) {
    if ((corpus.lines.get(k) ?? 0) === 0) for (const f of featuresOfKey(k)) bump(corpus.frequencies, f, 1);
    bump(corpus.lines, k, 1);
  }
  const bankWords = toEnd(bankWordsInSteps(examples, corpus));
  const histories = (words: Set<string>) => {
    const h = new Histories(CATEGORIES.length, words);
    for (const [k, category] of labelled) {
      const lines = new Float64Array(CATEGORIES.length);
      lines[CATEGORIES.indexOf(category)] = 1;
      h.add(k, featuresOfKey(k), lines);
    }
    return (k: string, category: string) => h.read(k, featuresOfKey(k), CATEGORIES.indexOf(category), corpus);
  };
  return { bankWords, read: histories(bankWords), readWithout: histories(new Set()) };
}

const COMPANIES = ["ADP", "GUSTO", "PAYCHEX", "XCEL ENERGY", "COMCAST", "VERIZON", "PGANDE", "WASTE MGMT", "CITY WATER", "AT&T", "HISCOX", "GEICO"];
const nachaLine = (company: string, i: number, entry: string, cents: number) => key(`ORIG CO NAME:${company} ORIG ID:${4400 + i} CO ENTRY DESCR:${entry} SEC:CCD`, cents);
/** Each company's payments printed the NACHA way by the labels' bank: two labelled, more in the feed. */
const nacha = COMPANIES.map((company, i): [string, string] => [nachaLine(company, i, "PAYMENT", -20_000), i < 3 ? "Payroll" : "Utilities"]);
const nachaFeed = COMPANIES.flatMap((company, i) => ["AUTOPAY", "BILL", "INVOICE", "DEBIT"].flatMap((entry) => [-1_000, -10_000, -100_000].map((cents) => nachaLine(company, i, entry, cents))));
/** And once by a credit union no label came from. */
const creditUnionLine = (company: string, i: number) => key(`Withdrawal ACH ${company} TYPE: PAYMENT ID: ${4400 + i}`, -30_000);
const creditUnion = COMPANIES.map(creditUnionLine);

describe("a bank's own words", () => {
  it("are the words no example has that stand beside the names of many merchants", () => {
    const { bankWords } = learn(nacha, [...nachaFeed, ...creditUnion]);
    expect(COMPANIES.length).toBeGreaterThanOrEqual(BANK_WORD_MERCHANTS);
    // The credit union's field words, and the entry descriptions no label has, stand beside every company; the companies' names are the examples' words.
    expect([...bankWords].sort()).toEqual(["ach", "autopay", "bill", "debit", "invoice", "type", "withdrawal"]);
  });

  it("name no merchant: a line a new bank prints is read by the merchant's words beside them", () => {
    const { read, readWithout } = learn(nacha, [...nachaFeed, ...creditUnion]);
    const gusto = creditUnionLine("GUSTO", 1);
    expect(read(gusto, "Payroll")!.merchant).toEqual({ agree: 1, lines: 1 });
    // Read as a merchant's name, `TYPE` (on fewer of the tenant's lines than any company's name) would say no example shows the line's merchant.
    expect(readWithout(gusto, "Payroll")).toBeNull();
  });

  it("leave a new merchant's word that stands beside a known one new: UBER *EATS after UBER *TRIP", () => {
    const rides = Array.from({ length: 6 }, (_, i): [string, string] => [key(`PURCHASE UBER *TRIP ${i}X${i}Q HELP.UBER.COM CA`, -150 * 10 ** (i % 3)), "Travel"]);
    const eats = Array.from({ length: 4 }, (_, i) => key(`PURCHASE UBER *EATS ${i}Z${i}W HELP.UBER.COM CA`, -250 * 10 ** (i % 2)));
    const { bankWords, read } = learn([...nacha, ...rides], [...nachaFeed, ...creditUnion, ...eats]);
    expect(bankWords.has("eats")).toBe(false);
    expect(read(eats[0]!, "Travel")).toBeNull();
  });

  it("need as many merchants beside them: a word beside a few is still a merchant's", () => {
    const few = COMPANIES.slice(0, BANK_WORD_MERCHANTS - 1).map(creditUnionLine);
    const { bankWords } = learn(nacha, [...nachaFeed, ...few]);
    expect(bankWords.has("type")).toBe(false);
  });
});
