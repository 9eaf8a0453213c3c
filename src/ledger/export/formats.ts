/**
 * The export bundle's four file formats, as pure functions: a header, then one chunk per
 * row, so a caller can stream pages of rows without ever holding the books in memory.
 *
 * - transactions.csv: RFC 4180 (CRLF, fields quoted when they hold a comma, a quote, a
 *   line break or edge spaces; quotes doubled).
 * - accounts.csv: the sub-accounts.
 * - accounting-bank.csv: the online accounting package's 3-column bank upload,
 *   `Date,Description,Amount`, MM/DD/YYYY, negative = money out, no currency symbols or
 *   thousands separators.
 * - accounting.iif: the desktop package's import file, the one that carries categories:
 *   tab-delimited; a `!ACCNT` list, then per line a TRNS row on the bank account and an SPL
 *   row on the category's account whose amounts sum to zero, then ENDTRNS.
 */
import type { HeaderKey } from "../categories";

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

// --- CSV (RFC 4180) ---

export function csvField(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(fields: (string | number | null)[]): string {
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
  return csvRow([line.posted_on, line.description, dollars(line.amount_cents), line.category ?? "", line.header ?? "", line.account_id, line.side, line.src_id, line.state]);
}

export const ACCOUNTS_HEADER = csvRow(["account_id", "name", "mask", "type", "subtype", "booked_lines", "booked_total"]);

export function accountsRow(account: ExportAccount): string {
  return csvRow([account.account_id, account.name, account.mask, account.type, account.subtype, account.booked_lines, dollars(account.booked_cents)]);
}

export const BANK_HEADER = csvRow(["Date", "Description", "Amount"]);

export function bankRow(line: ExportLine): string {
  return csvRow([usDate(line.posted_on), line.description, dollars(line.amount_cents)]);
}

// --- IIF ---

const IIF_ACCOUNT_TYPE: Record<HeaderKey, string> = { income: "INC", cogs: "COGS", expense: "EXP", draw: "EQUITY", transfer: "BANK" };

/** Tabs and line breaks would break the row: IIF fields are single-line text. */
function iifField(text: string): string {
  return text.replace(/[\t\r\n]+/g, " ").trim();
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
