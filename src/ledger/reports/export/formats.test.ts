/** The export formats, parsed back. */
import { describe, expect, it } from "vitest";
import {
  ACCOUNTS_HEADER,
  accountsRow,
  BANK_HEADER,
  bankAccountName,
  bankAccountType,
  bankRow,
  csvRow,
  dollars,
  IIF_HEADER,
  IIF_TRANSACTIONS_HEADER,
  iifAccountRow,
  iifCategoryAccountRow,
  iifTransaction,
  safeText,
  spreadsheetRow,
  TRANSACTIONS_HEADER,
  transactionsRow,
  usDate,
  type ExportLine,
} from "./formats";
import { formulasSplitOnSemicolons, parseCsv, parseIif, spreadsheetReads } from "../../../../test/fixtures/export-files";

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
    const tricky = ['say "hi", then leave', "semi;colon", " padded ", "plain", "", "a-b", "x=y", "pay@bank", "'quoted already"];
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

});

/** Text a bank, a tenant or a label could set, that a spreadsheet would run as a formula. */
const FORMULAS = [
  '=HYPERLINK("http://x","y")',
  "=cmd|' /C calc'!A0",
  "+1+2",
  "-2+3",
  "@SUM(1,2)",
  "\t=1+1",
  "\r=1+1",
  "\n=1+1",
  " =1+1",
  "\u00a0\u3000@SUM(1)",
  '"=1+1',
  "  \t -1",
];

describe("text that would start a formula", () => {
  it("is prefixed with ', so a spreadsheet reads it as text, and is otherwise kept", () => {
    expect(FORMULAS.map(safeText)).toEqual([
      `'=HYPERLINK("http://x","y")`,
      "'=cmd|' /C calc'!A0",
      "'+1+2",
      "'-2+3",
      "'@SUM(1,2)",
      "' =1+1",
      "' =1+1",
      "' =1+1",
      "' =1+1",
      "'\u00a0\u3000@SUM(1)",
      `'"=1+1`,
      "'    -1",
    ]);
    for (const text of FORMULAS) expect(spreadsheetReads(safeText(text)), JSON.stringify(text)).toBe("text");
    for (const text of ["SQ *BLUE BOTTLE", "a-b", "x=y", "pay@bank", "1+1", "'=quoted already", ""]) expect(safeText(text)).toBe(text);
  });

  it("is prefixed after a `;` inside it too, where a spreadsheet splitting on `;` would start a cell", () => {
    expect(safeText("REF 7;=1+1; -2;ok;@x")).toBe("REF 7;'=1+1;' -2;ok;'@x");
    expect(formulasSplitOnSemicolons(csvRow(["REF 7;=1+1", "x; @SUM(1)"]))).toEqual([]);
    expect(formulasSplitOnSemicolons(csvRow(["REF 7;=1+1"]).replace("'", ""))).toEqual(["=1+1\""]);
  });

  it("is neutralised in every text column of transactions.csv, while a negative amount stays a number", () => {
    for (const text of FORMULAS) {
      const rows = parseCsv(TRANSACTIONS_HEADER + transactionsRow(line({ description: text, category: text, account_id: text, amount_cents: -1250 })));
      const [date, description, amount, category, header, account] = rows[1]!;
      expect([description!, category!, account!].map(spreadsheetReads), JSON.stringify(text)).toEqual(["text", "text", "text"]);
      expect(description).toBe(safeText(text));
      expect([date, amount, header]).toEqual(["2026-11-05", "-12.50", "expense"]);
      expect(spreadsheetReads(amount!)).toBe("number");
    }
  });

  it("is neutralised in the bank upload, whose amounts stay plain numbers", () => {
    const rows = parseCsv(BANK_HEADER + bankRow(line({ description: "=HYPERLINK(\"http://x\",\"y\")", amount_cents: -1250 })) + bankRow(line({ description: "-REFUND", amount_cents: 99 })));
    expect(rows.slice(1)).toEqual([
      ["11/05/2026", `'=HYPERLINK("http://x","y")`, "-12.50"],
      ["11/05/2026", "'-REFUND", "0.99"],
    ]);
  });

  it("is neutralised in accounts.csv: the account's id, name, mask, type and subtype", () => {
    const account = { account_id: "@acc", name: "=Checking", mask: "-0042", type: "+depository", subtype: " @checking", booked_lines: 3, booked_cents: -4200 };
    const [, row] = parseCsv(ACCOUNTS_HEADER + accountsRow(account));
    expect(row).toEqual(["'@acc", "'=Checking", "'-0042", "'+depository", "' @checking", "3", "-42.00"]);
  });

  it("is neutralised in a spreadsheet push's rows, whose amounts and ids stay numbers", () => {
    expect(spreadsheetRow(line({ description: "=1+1", category: "+Fees", account_id: "@acc", amount_cents: -1250 }))).toEqual([
      "2026-11-05",
      "'=1+1",
      -12.5,
      "'+Fees",
      "expense",
      "'@acc",
      "A",
      7,
      "in books",
    ]);
  });

  it("is neutralised in every IIF name and memo, with the same name on the ACCNT, TRNS and SPL records", () => {
    const bank = bankAccountName({ account_id: "acc", name: "=Checking", mask: "0042" });
    const text =
      IIF_HEADER +
      iifAccountRow(bank, "BANK") +
      iifCategoryAccountRow("+Fees", "expense") +
      IIF_TRANSACTIONS_HEADER +
      iifTransaction(line({ description: "@SUM(1,2)", category: "+Fees", amount_cents: -1250 }), bank);
    const iif = parseIif(text);
    expect(iif.accounts).toEqual([
      { name: "'=Checking (0042)", type: "BANK" },
      { name: "'+Fees", type: "EXP" },
    ]);
    expect(iif.transactions).toEqual([
      [
        ["TRNS", "A7", "CHECK", "11/05/2026", "'=Checking (0042)", "-12.50", "'@SUM(1,2)"],
        ["SPL", "A7", "CHECK", "11/05/2026", "'+Fees", "12.50", "'@SUM(1,2)"],
      ],
    ]);
  });
});

describe("control characters in bank text", () => {
  // NUL, BEL, ESC (an ANSI colour), DEL, C1's NEL and CSI, a lone surrogate of each kind, and a
  // pair that is one character (kept).
  const RAW = "A\u0000B\u0007C\u001b[31mD\u007fE\u0085F\u009bG\ud800H\udc00I\ud83d\ude00J";
  const SHOWN = "A\ufffdB\ufffdC\ufffd[31mD\ufffdE F\ufffdG\ufffdH\ufffdI\ud83d\ude00J";
  // Compared as JSON: a lone surrogate in a failure's message would break the test runner's report.
  const json = JSON.stringify;

  it("are shown as U+FFFD, a line break or a tab as a space, in every format, each record on one line", () => {
    expect(json(safeText(RAW))).toBe(json(SHOWN));
    expect(safeText("two\r\nlines\n\nand\ta\u2028tab")).toBe("two lines and a tab");

    const csv = TRANSACTIONS_HEADER + transactionsRow(line({ description: RAW, category: "Meals\u0000", account_id: "acc\u009f" })) + bankRow(line({ description: "two\r\nlines" }));
    expect(csv.split("\r\n")).toHaveLength(4);
    expect(json(csv.replaceAll("\r\n", "").match(/[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/g)?.join(""))).toBe(json("\ud83d\ude00"));
    const rows = parseCsv(csv);
    expect(json(rows[1]!.slice(1, 6))).toBe(json([SHOWN, "-12.50", "Meals\ufffd", "expense", "acc\ufffd"]));
    expect(rows[2]).toEqual(["11/05/2026", "two lines", "-12.50"]);
    expect(json(spreadsheetRow(line({ description: RAW }))[1])).toBe(json(SHOWN));
  });

  it("never split an IIF record: a tab or a line break inside a field is a space, and edge ones are trimmed", () => {
    const text = iifAccountRow("Busy\tChecking\r\n", "BANK") + iifTransaction(line({ description: "\ttwo\tfields\nand\r\nlines\u0000\r\n", category: "Meals\n=1" }), "Checking\t(0042)");
    const records = text.trimEnd().split("\r\n").map((r) => r.split("\t"));
    expect(records).toEqual([
      ["ACCNT", "Busy Checking", "BANK"],
      ["TRNS", "A7", "CHECK", "11/05/2026", "Checking (0042)", "-12.50", "two fields and lines\ufffd"],
      ["SPL", "A7", "CHECK", "11/05/2026", "Meals =1", "12.50", "two fields and lines\ufffd"],
      ["ENDTRNS"],
    ]);
  });
});
