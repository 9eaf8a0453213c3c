/** A bank's width: where an account's bank cuts its lines, read from the account's own feed. */
import { describe, expect, it } from "vitest";
import { bankWidthsInSteps, cutAt } from "./bank-width";
import { bump, type Corpus } from "./evidence";
import { canonicalText, lineKey } from "./features";
import { toEnd } from "./steps";

const key = (description: string, account: string, cents = -2_000) => lineKey({ description, merchantName: null, amountCents: cents, accountId: account });
const bankWidths = (corpus: Corpus) => toEnd(bankWidthsInSteps(corpus));
const corpusOf = (keys: string[]): Corpus => {
  const corpus: Corpus = { frequencies: new Map(), lines: new Map() };
  for (const k of keys) bump(corpus.lines, k, 1);
  return corpus;
};

const MERCHANTS = ["SCOTT FAMILY MARKET", "RED DOOR GENERAL STORE", "MURPHY HARDWARE", "BLUE BOTTLE COFFEE", "SHELL OIL", "ADOBE CREATIVE CLOUD", "STATE FARM INSURANCE", "ULINE SHIP SUPPLIES"];
/** The merchants' lines as a bank prints them, at three sizes, cut at `width` characters where the bank cuts. */
const printed = (width: number | null, account: string) =>
  MERCHANTS.flatMap((merchant) =>
    ["POS Withdrawal", "POS DEBIT-DC 4821", "DBT CRD 1328 01/23/25"].flatMap((channel) =>
      [-650, -6_500, -65_000].map((cents) => {
        const text = `${channel} ${merchant} OAKLAND CA`;
        return key(width === null ? text : text.slice(0, width), account, cents);
      }),
    ),
  );

describe("a bank's width", () => {
  it("is read per account where the longer lines pile up at one length and none is much longer", () => {
    const widths = bankWidths(corpusOf([...printed(32, "checking"), ...printed(null, "card")]));
    // The credit union's checking account cuts at 32 (the canonical text keeps its length); the card's bank prints the whole name.
    expect(widths.get("checking")).toBe(32);
    expect(widths.has("card")).toBe(false);
  });

  it("reads a line within a couple of characters of the width as cut there, and a shorter one as whole", () => {
    const widths = new Map([["checking", 32]]);
    expect(cutAt(key("POS Withdrawal SCOTT FAMILY MARK", "checking"), widths)).toBe(true);
    expect(canonicalText("Withdrawal POS #372993959755 TRA").length).toBe(31);
    expect(cutAt(key("Withdrawal POS #372993959755 TRA", "checking"), widths)).toBe(true);
    expect(cutAt(key("Zelle payment to SMITH MARK", "checking"), widths)).toBe(false);
    expect(cutAt(key("POS Withdrawal SCOTT FAMILY MARK", "card"), widths)).toBe(false);
  });

  it("is none where too few lines show one, or the lengths spread", () => {
    expect(bankWidths(corpusOf(printed(32, "checking").slice(0, 45))).size).toBe(0);
    const spread = MERCHANTS.flatMap((merchant, m) => Array.from({ length: 10 }, (_, i) => key(`${"POS ".repeat(1 + ((i + m) % 7))}${merchant} ${i}`, "checking")));
    expect(bankWidths(corpusOf(spread)).size).toBe(0);
  });
});
