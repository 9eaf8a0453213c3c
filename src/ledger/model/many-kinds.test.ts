import { describe, expect, it } from "vitest";
import { canonicalText } from "./features";
import { sellsManyKinds, type Reading } from "./many-kinds";

const names = (text: string, merchantName = "", reading: Reading = {}) => sellsManyKinds(canonicalText(text), merchantName === "" ? "" : canonicalText(merchantName), reading);

describe("stores that sell many kinds of things", () => {
  it("are named however a bank prints them", () => {
    for (const text of [
      "WAL-MART #6531 SAN DIEGO CA",
      "PURCHASE AUTHORIZED ON 10/14 WM SUPERCENTER #1234 OAKLAND CA S3826 CARD 4821",
      "POS Debit - Visa Check Card 4821 - TARGET 00012345",
      "AMZN Mktp US*2K4XY9ZT1",
      "AMAZON.COM*2K4XY9ZT1 AMZN.COM/BILL WA",
      "COSTCO WHSE #0123 OAKLAND CA",
      "Point of Sale Withdrawal The Home Depot #4001 Oakland Ca",
      "LOWE'S #0013 BOULDER CO",
      "TRADER JOE S #441 BOULDER CO",
      "WHOLEFDS MKT 10234",
      "H-E-B #123 AUSTIN TX",
      "SAM'S CLUB #4821",
    ])
      expect(names(text), text).toBe(true);
    // The aggregator's merchant name names the store where the bank's text does not.
    expect(names("POS PURCHASE 4821 OAKLAND CA", "Walmart")).toBe(true);
  });

  it("are a town's own store whose name says what kind of store it is", () => {
    for (const text of [
      "PEREZS HARDWARE SAN DIEGO CA",
      "NOVAK HDWE & LUMBER",
      "COASTAL RIVER GEN STORE SAN DIEG",
      "Urban Fork General Store",
      "MEMPHIS FARM & HOME",
      "BOULDER FARM AND HOME #12",
      "TAYLORS MARKET",
      "ANDERSON FAMILY MKT",
      "CHECKCARD 1014 OKAFOR MERCANTILE 24013394",
    ])
      expect(names(text), text).toBe(true);
  });

  it("are not a word that happens to begin one, nor another business of the same company, a street or an account", () => {
    for (const text of [
      "AMAZON WEB SERVICES AWS.AMAZON.CO",
      "TARGETED ADS INC",
      "SHELL OIL 57999",
      "CVSA CONSULTING",
      "OKAFOR & SONS OAKLAND CA",
      "ACME MARKETING GROUP",
      "BLUE BOTTLE COFFEE 1200 MARKET ST SAN FRANCISCO",
      "Online Transfer to MONEY MARKET XXXXXX4411",
      // A word a name begins with, ending a line: a bank's fee, a payment to a person.
      "MONTHLY SERVICE FEE",
      "Zelle payment to SMITH MARK",
    ])
      expect(names(text), text).toBe(false);
  });

  it("are the beginning of such a name that ends a line cut at its bank's width, and not a word that ends a whole line", () => {
    for (const text of [
      "POS Withdrawal SCOTT FAMILY MARK",
      "Withdrawal POS #372993959755 TRA",
      "POS DEBIT-DC 1006 RED DOOR GENER",
      "POS DEBIT-DC 4723 MURPHY HARDWAR",
      "Withdrawal POS #833753790836 COS",
      "POS DEBIT-DC 4821 THE HOME D",
      "Withdrawal POS #372993959755 TRADER J",
    ]) {
      expect(names(text, "", { cut: true }), text).toBe(true);
      // Not cut, the same end is a word of its own.
      expect(names(text), text).toBe(false);
    }
    // A whole word that ends a cut line is read as itself, and a word a name begins with only where it is cut inside.
    for (const text of ["POS Withdrawal 4821 SMITH MARKUS", "POS DEBIT-DC 1006 OKAFOR & SONS", "ACH DEBIT GENERAL MILLS PAYMNT", "POS DEBIT-DC 4821 BLUE BOTTLE CO"])
      expect(names(text, "", { cut: true }), text).toBe(false);
  });

  it("are such a name glued to a word of the tenant's lines, and not a word English makes of it", () => {
    // The tenant's lines print the city's words apart elsewhere.
    const reading = { isWord: (word: string) => ["san", "diego", "oakland", "watch"].includes(word) };
    for (const text of ["SCOTT FAMILY MARKETSAN DIEGO CA", "PEREZ HARDWAREOAKLAND CA", "THE HOME DEPOTOAKLAND CA"]) {
      expect(names(text, "", reading), text).toBe(true);
      expect(names(text), text).toBe(false);
    }
    for (const text of ["ACME MARKETING GROUP", "FACEBK MARKETPLACES", "MARKETSUMO SOFTWARE", "TARGETED ADS INC"]) expect(names(text, "", reading), text).toBe(false);
  });
});
