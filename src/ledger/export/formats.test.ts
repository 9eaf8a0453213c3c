/** The export formats, parsed back. */
import { describe, expect, it } from "vitest";
import {
  BANK_HEADER,
  bankAccountType,
  bankRow,
  csvRow,
  dollars,
  IIF_HEADER,
  IIF_TRANSACTIONS_HEADER,
  iifAccountRow,
  iifCategoryAccountRow,
  iifTransaction,
  TRANSACTIONS_HEADER,
  transactionsRow,
  usDate,
  type ExportLine,
} from "./formats";
import { parseCsv } from "../../../test/fixtures/export-files";

const line = (fields: Partial<ExportLine>): ExportLine => ({
  side: "A",
  src_id: 7,
  posted_on: "2026-11-05",
  description: "SQ *BLUE BOTTLE",
  amount_cents: -1250,
  category: "Meals",
  header: "expense",
  account_id: "acc_checking",
  state: "in books",
  ...fields,
});

describe("CSV", () => {
  it("quotes what needs quoting and reads back exactly", () => {
    const tricky = ['say "hi", then leave', "two\r\nlines", " padded ", "plain", ""];
    expect(parseCsv(csvRow(tricky))).toEqual([tricky]);
  });

  it("writes transactions.csv with dollars and the line's identity", () => {
    const text = TRANSACTIONS_HEADER + transactionsRow(line({})) + transactionsRow(line({ src_id: 8, amount_cents: 123456, category: null, header: null, description: "Client, Inc." }));
    expect(parseCsv(text)).toEqual([
      ["date", "description", "amount", "category", "header", "account", "side", "id", "state"],
      ["2026-11-05", "SQ *BLUE BOTTLE", "-12.50", "Meals", "expense", "acc_checking", "A", "7", "in books"],
      ["2026-11-05", "Client, Inc.", "1234.56", "", "", "acc_checking", "A", "8", "in books"],
    ]);
  });

  it("writes the 3-column bank upload: MM/DD/YYYY, negative = money out, no symbols or separators", () => {
    const rows = parseCsv(BANK_HEADER + bankRow(line({})) + bankRow(line({ amount_cents: 123456789 })));
    expect(rows).toEqual([["Date", "Description", "Amount"], ["11/05/2026", "SQ *BLUE BOTTLE", "-12.50"], ["11/05/2026", "SQ *BLUE BOTTLE", "1234567.89"]]);
  });

  it("formats cents and dates exactly", () => {
    expect([dollars(0), dollars(5), dollars(-5), dollars(100), dollars(-123456)]).toEqual(["0.00", "0.05", "-0.05", "1.00", "-1234.56"]);
    expect(usDate("2028-02-29")).toBe("02/29/2028");
  });
});

describe("IIF", () => {
  const lines = [line({}), line({ src_id: 9, amount_cents: 50000, category: "Sales", header: "income" }), line({ src_id: 10, amount_cents: -300, category: null, header: null })];
  const text =
    IIF_HEADER +
    iifAccountRow("Business Checking", bankAccountType({ type: "depository", subtype: "checking" })) +
    iifAccountRow("Visa", bankAccountType({ type: "credit", subtype: "credit card" })) +
    iifCategoryAccountRow("Meals", "expense") +
    iifCategoryAccountRow("Sales", "income") +
    IIF_TRANSACTIONS_HEADER +
    lines.map((l) => iifTransaction(l, "Business Checking")).join("");
  const records = text.trimEnd().split("\r\n").map((r) => r.split("\t"));

  it("lists the accounts with the desktop package's types", () => {
    expect(records.filter((r) => r[0] === "ACCNT").map((r) => [r[1], r[2]])).toEqual([
      ["Business Checking", "BANK"],
      ["Visa", "CCARD"],
      ["Meals", "EXP"],
      ["Sales", "INC"],
    ]);
  });

  it("balances every transaction: TRNS on the bank, SPL on the category, summing to zero", () => {
    const transactions: string[][][] = [];
    let current: string[][] = [];
    for (const r of records) {
      if (r[0] === "TRNS" || r[0] === "SPL") current.push(r);
      if (r[0] === "ENDTRNS") transactions.push(current), (current = []);
    }
    expect(transactions).toHaveLength(3);
    for (const t of transactions) {
      expect(t.map((r) => r[0])).toEqual(["TRNS", "SPL"]);
      expect(t[0]![4]).toBe("Business Checking");
      const cents = t.map((r) => Math.round(Number(r[5]) * 100));
      expect(cents[0]! + cents[1]!).toBe(0);
      expect(t[0]![3]).toBe("11/05/2026");
    }
    expect(transactions.map((t) => [t[0]![2], t[1]![4]])).toEqual([["CHECK", "Meals"], ["DEPOSIT", "Sales"], ["CHECK", "Uncategorized Expense"]]);
  });

  it("keeps every field on one line", () => {
    const messy = iifTransaction(line({ description: "two\tfields\nand lines" }), "Checking");
    expect(messy.split("\r\n").filter(Boolean).every((r) => r.split("\t").length === 7 || r === "ENDTRNS")).toBe(true);
  });
});
