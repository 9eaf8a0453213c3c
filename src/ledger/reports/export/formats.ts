/**
 * The export bundle's four file formats, as pure functions: a header, then one chunk per
 * row, so a caller can stream pages of rows without ever holding the books in memory.
 *
 * - transactions.csv: RFC 4180 (CRLF, fields quoted when they hold a comma, a semicolon, a
 *   quote or edge spaces; quotes doubled).
 * - accounts.csv: the sub-accounts.
 * - accounting-bank.csv: the online accounting package's 3-column bank upload,
 *   `Date,Description,Amount`, MM/DD/YYYY, negative = money out, no currency symbols or
 *   thousands separators.
 * - accounting.iif: the desktop package's import file, the one that carries categories:
 *   tab-delimited; a `!ACCNT` list, then per line a TRNS row on the bank account and an SPL
 *   row on the category's account whose amounts sum to zero, then ENDTRNS.
 *
 * Every text cell (anything a bank, a tenant or a label can set) goes through `safeText`
 * on its way out, in every format and in a spreadsheet push; numbers (amounts, counts,
 * ids) never do, so a negative amount stays a number.
 */
import type { HeaderKey } from "../../books/categories";

export interface ExportLine {
  side: "A" | "B";
  src_id: number;
  posted_on: string;
  description: string;
  amount_cents: number;
  /** Null when the line has no category (the queue). */
  category: string | null;
  header: HeaderKey | null;
  account_id: string;
  state: string;
}

export interface ExportAccount {
  account_id: string;
  name: string;
  mask: string | null;
  type: string | null;
  subtype: string | null;
  /** The account's exported (booked) lines and their total. */
  booked_lines: number;
  booked_cents: number;
}

// --- Text made safe for a file ---

/**
 * Tabs and line breaks (C0's, NEL, the Unicode line and paragraph separators), a run of
 * them as one space: the words stay apart and every record stays on one line.
 */
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;

/**
 * Every other C0 and C1 control, DEL, and a surrogate that is not half of a pair: shown as
 * U+FFFD, so a reader sees that the bank sent something here that cannot be shown, rather
 * than words silently run together.
 */
const UNSHOWABLE = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * What a spreadsheet would read as a formula: `=`, `+`, `-` or `@` first, behind any
 * whitespace or double quotes (a program that trims the cell, or that strips the quotes
 * from an IIF field, would otherwise find the formula at its start).
 */
const FORMULA_START = /^[\s"]*[=+\-@]/;

/**
 * The same after a `;` inside the text: a spreadsheet in a locale whose list separator is
 * `;` splits a comma-separated file there, and would start a cell with what follows.
 */
const FORMULA_AFTER_SEMICOLON = /;(?=[\s"]*[=+\-@])/g;

/** Control characters replaced (the stored text is untouched; this is only how a file shows it). */
export function showableText(text: string): string {
  return text.replace(LINE_BREAKS, " ").replace(UNSHOWABLE, "\ufffd");
}

/**
 * A text cell made safe for a spreadsheet, as OWASP's CSV Injection guidance says: control
 * characters replaced (`showableText`), then a cell that would start a formula is prefixed
 * with `'`, which spreadsheets take as "this cell is text" (and so is a formula after a
 * `;` inside it).
 */
export function safeText(text: string): string {
  return asText(showableText(text));
}

function asText(shown: string): string {
  const inner = shown.includes(";") ? shown.replace(FORMULA_AFTER_SEMICOLON, ";'") : shown;
  return FORMULA_START.test(inner) ? `'${inner}` : inner;
}

/** A number as a file writes it (an amount in dollars): never text, so never prefixed. */
export class Numeral {
  constructor(readonly written: string) {}
}

/** An amount cell: plain dollars, `-12.50`. */
export function amount(cents: number): Numeral {
  return new Numeral(dollars(cents));
}

/** A cell of an export row: a string is text (made safe); a number or a Numeral is written as it is. */
export type Cell = string | number | Numeral | null;

// --- CSV (RFC 4180) ---

/** A semicolon is quoted as well as a comma, so a spreadsheet that splits on either keeps the text in one cell. */
export function csvField(value: Cell): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  if (value instanceof Numeral) return value.written;
  const text = safeText(value);
  return /[",;]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(fields: Cell[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

/** Cents as plain dollars: `-1234.50`, never a symbol or a thousands separator. */
export function dollars(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** ISO date -> MM/DD/YYYY. */
export function usDate(isoDate: string): string {
  const [y, m, d] = isoDate.split("-");
  return `${m}/${d}/${y}`;
}

export const TRANSACTIONS_HEADER = csvRow(["date", "description", "amount", "category", "header", "account", "side", "id", "state"]);

export function transactionsRow(line: ExportLine): string {
  return csvRow([line.posted_on, line.description, amount(line.amount_cents), line.category ?? "", line.header ?? "", line.account_id, line.side, line.src_id, line.state]);
}

export const ACCOUNTS_HEADER = csvRow(["account_id", "name", "mask", "type", "subtype", "booked_lines", "booked_total"]);

export function accountsRow(account: ExportAccount): string {
  return csvRow([account.account_id, account.name, account.mask, account.type, account.subtype, account.booked_lines, amount(account.booked_cents)]);
}

export const BANK_HEADER = csvRow(["Date", "Description", "Amount"]);

export function bankRow(line: ExportLine): string {
  return csvRow([usDate(line.posted_on), line.description, amount(line.amount_cents)]);
}

// --- A spreadsheet push ---

/**
 * A row pushed to a spreadsheet destination: transactions.csv's columns, amounts as numbers
 * in dollars, text made safe as in the files. The push writes values RAW, so the sheet
 * itself never evaluates a string; the prefix is for whoever downloads the sheet as CSV.
 */
export function spreadsheetRow(line: ExportLine): (string | number)[] {
  const cells = [line.posted_on, line.description, line.amount_cents / 100, line.category ?? "", line.header ?? "", line.account_id, line.side, line.src_id, line.state];
  return cells.map((cell) => (typeof cell === "string" ? safeText(cell) : cell));
}

// --- IIF ---

const IIF_ACCOUNT_TYPE: Record<HeaderKey, string> = { income: "INC", cogs: "COGS", expense: "EXP", draw: "EQUITY", transfer: "BANK" };

/**
 * An IIF text field. The file is tab-delimited with one record a line and no quoting, so a
 * tab or a line break inside a field would split the record: they are written as a space
 * (`showableText`), edge spaces trimmed, then the field is made safe for a spreadsheet too,
 * since IIF files are commonly opened in one to be edited before the import.
 */
export function iifField(text: string): string {
  return asText(showableText(text).trim());
}

/** The desktop package's account for a sub-account: a card is CCARD, everything else BANK. */
export function bankAccountType(account: Pick<ExportAccount, "type" | "subtype">): "BANK" | "CCARD" {
  return account.type === "credit" || account.subtype === "credit card" ? "CCARD" : "BANK";
}

/** The account's name in the desktop package: its name, with its mask when the feed gave one (two cards may share a name). */
export function bankAccountName(account: Pick<ExportAccount, "account_id" | "name" | "mask">): string {
  return account.mask ? `${account.name} (${account.mask})` : account.name;
}

/** Where a line without a category is split to, so the file stays balanced and importable. */
export function uncategorizedAccount(amountCents: number): { name: string; type: string } {
  return amountCents > 0 ? { name: "Uncategorized Income", type: "INC" } : { name: "Uncategorized Expense", type: "EXP" };
}

export const IIF_HEADER = "!ACCNT\tNAME\tACCNTTYPE\r\n";

export function iifAccountRow(name: string, type: string): string {
  return `ACCNT\t${iifField(name)}\t${type}\r\n`;
}

export function iifCategoryAccountRow(category: string, header: HeaderKey): string {
  return iifAccountRow(category, IIF_ACCOUNT_TYPE[header]);
}

export const IIF_TRANSACTIONS_HEADER =
  "!TRNS\tTRNSID\tTRNSTYPE\tDATE\tACCNT\tAMOUNT\tMEMO\r\n" + "!SPL\tSPLID\tTRNSTYPE\tDATE\tACCNT\tAMOUNT\tMEMO\r\n" + "!ENDTRNS\r\n";

/** One line as a balanced transaction: TRNS on the bank account, SPL on the category's. */
export function iifTransaction(line: ExportLine, bankAccountName: string): string {
  const type = line.amount_cents >= 0 ? "DEPOSIT" : "CHECK";
  const date = usDate(line.posted_on);
  const memo = iifField(line.description);
  const splitAccount = line.category ?? uncategorizedAccount(line.amount_cents).name;
  return (
    `TRNS\t${line.side}${line.src_id}\t${type}\t${date}\t${iifField(bankAccountName)}\t${dollars(line.amount_cents)}\t${memo}\r\n` +
    `SPL\t${line.side}${line.src_id}\t${type}\t${date}\t${iifField(splitAccount)}\t${dollars(-line.amount_cents)}\t${memo}\r\n` +
    "ENDTRNS\r\n"
  );
}
