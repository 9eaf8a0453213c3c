/**
 * Exports as of a moment. Opening an export records the ledger's high-water marks (the
 * newest line, line event, decision, taxonomy entry and account record) and the face's
 * floor; every file is then rendered from the append-only tables bounded by those marks,
 * so a receipt's files read the same today as on the day they were made.
 *
 * Booked lines only: side A lines that are not pending and that no event (superseded,
 * retracted) had reached by the mark, on the face as it was. Files are rendered a page at
 * a time, keyset-paged by (posted_on, id), so no call ever holds the whole ledger.
 */
import { and, asc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describeAccount } from "../../books/reads";
import { normalName, taxonomy, type HeaderKey } from "../../books/categories";
import type { LedgerDb, LedgerHandle } from "../../store/db";
import type { Face } from "../../face";
import { notFound, ok, type Outcome } from "../../outcome";
import { aLines, categoryEntries, decisions, exports, feedAccounts, lineEvents } from "../../store/schema";
import {
  ACCOUNTS_HEADER,
  accountsRow,
  BANK_HEADER,
  bankAccountName,
  bankAccountType,
  bankRow,
  iifAccountRow,
  iifCategoryAccountRow,
  IIF_HEADER,
  IIF_TRANSACTIONS_HEADER,
  iifTransaction,
  spreadsheetRow,
  TRANSACTIONS_HEADER,
  transactionsRow,
  uncategorizedAccount,
  type ExportAccount,
  type ExportLine,
} from "./formats";

export const EXPORT_FILES = ["transactions.csv", "accounts.csv", "accounting-bank.csv", "accounting.iif"] as const;
export type ExportFile = (typeof EXPORT_FILES)[number];

export type ExportRecord = typeof exports.$inferSelect;

/** Lines per rendered page: large enough to stream quickly, small enough to stay light. */
export const EXPORT_PAGE_LINES = 1000;

export interface OpenExport {
  /** Null for a bundle; the destination a resync op pushes to. */
  destinationId: number | null;
  destinations: "known" | "unreadable";
  actor: string;
  at: string;
}

/** Records the marks and the row counts of a new export, in one transaction. */
export function openExport(db: LedgerDb, face: Face, input: OpenExport): ExportRecord {
  return db.transaction((tx) => {
    const highest = (table: SQLiteTable, column: SQLiteColumn) => tx.select({ n: sql<number | null>`max(${column})` }).from(table).get()?.n ?? 0;
    const marks = {
      maxAId: highest(aLines, aLines.id),
      maxEventId: highest(lineEvents, lineEvents.id),
      maxDecisionSeq: highest(decisions, decisions.seq),
      maxCategoryEntryId: highest(categoryEntries, categoryEntries.id),
      maxAccountSeq: highest(feedAccounts, feedAccounts.seq),
      floor: face.effectiveFrom,
    };
    const transactions = tx.select({ n: sql<number>`count(*)` }).from(aLines).where(bookedAsOf(marks)).get()!.n;
    const accounts = tx.select({ n: sql<number>`count(DISTINCT ${aLines.accountId})` }).from(aLines).where(bookedAsOf(marks)).get()!.n;
    return tx
      .insert(exports)
      .values({ ...marks, destinationId: input.destinationId, destinations: input.destinations, transactions, accounts, actor: input.actor, createdAt: input.at })
      .returning()
      .get();
  });
}

export function findExport(db: LedgerHandle, id: number): ExportRecord | undefined {
  return db.select().from(exports).where(eq(exports.id, id)).get();
}

/** The line's category as of the export: its newest decision at or before the mark. */
function categoryAsOf(e: ExportRecord) {
  return sql<string | null>`(SELECT d.category FROM ${decisions} d WHERE d.a_id = ${aLines.id} AND d.seq <= ${e.maxDecisionSeq} ORDER BY d.seq DESC LIMIT 1)`;
}

/** The lines that were in books, on the face, when the export was made. */
function bookedAsOf(e: Pick<ExportRecord, "maxAId" | "maxEventId" | "floor">): SQL {
  return and(
    lte(aLines.id, e.maxAId),
    eq(aLines.pending, false),
    e.floor === null ? undefined : gte(aLines.postedOn, e.floor),
    sql`NOT EXISTS (SELECT 1 FROM ${lineEvents} ev WHERE ev.a_id = ${aLines.id} AND ev.id <= ${e.maxEventId})`,
  )!;
}

/** Where the next page starts: after (posted_on, id). */
interface Cursor {
  postedOn: string;
  id: number;
}

function encodeCursor(c: Cursor): string {
  return `${c.postedOn}~${c.id}`;
}

function decodeCursor(text: string): Cursor {
  const match = /^(\d{4}-\d{2}-\d{2})~(\d+)$/.exec(text);
  if (!match) throw new RangeError(`not an export cursor: ${text}`);
  return { postedOn: match[1]!, id: Number(match[2]) };
}

function headersAsOf(db: LedgerHandle, e: ExportRecord): Map<string, HeaderKey> {
  return new Map(taxonomy(db, e.maxCategoryEntryId).map((t) => [normalName(t.name), t.header_key]));
}

/** Up to `limit` booked lines after the cursor, in (posted_on, id) order, with their category and header as of the export. */
function exportLines(db: LedgerHandle, e: ExportRecord, cursor: string | null, limit: number): { lines: ExportLine[]; next: string | null } {
  const after = cursor === null ? null : decodeCursor(cursor);
  const headerOf = headersAsOf(db, e);
  // Raw rows, spared drizzle's per-row mapping: a whole ledger passes through here, three
  // times a bundle.
  const rows = db.all<{ id: number; accountId: string; postedOn: string; description: string; amountCents: number; category: string | null }>(sql`
    SELECT ${aLines.id} AS id, ${aLines.accountId} AS accountId, ${aLines.postedOn} AS postedOn, ${aLines.description} AS description,
      ${aLines.amountCents} AS amountCents, ${categoryAsOf(e)} AS category
    FROM ${aLines}
    WHERE ${and(bookedAsOf(e), after === null ? undefined : sql`(${aLines.postedOn}, ${aLines.id}) > (${after.postedOn}, ${after.id})`)}
    ORDER BY ${aLines.postedOn}, ${aLines.id}
    LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    lines: page.map((r) => ({
      side: "A",
      src_id: r.id,
      posted_on: r.postedOn,
      description: r.description,
      amount_cents: r.amountCents,
      category: r.category,
      header: r.category === null ? null : (headerOf.get(normalName(r.category)) ?? null),
      account_id: r.accountId,
      state: "in books",
    })),
    next: rows.length > limit && last ? encodeCursor({ postedOn: last.postedOn, id: last.id }) : null,
  };
}

/** The account records as of the export, for the accounts its booked lines are on, with their totals. */
export function exportAccounts(db: LedgerHandle, e: ExportRecord): ExportAccount[] {
  const perAccount = db
    .select({ accountId: aLines.accountId, lines: sql<number>`count(*)`, cents: sql<number>`sum(${aLines.amountCents})` })
    .from(aLines)
    .where(bookedAsOf(e))
    .groupBy(aLines.accountId)
    .orderBy(asc(aLines.accountId))
    .all();
  return perAccount.map((a) => ({ ...describeAccount(db, a.accountId, e.maxAccountSeq), booked_lines: a.lines, booked_cents: a.cents }));
}


/** The desktop package's account list: the bank accounts, the categories, and where uncategorised lines go. */
function iifAccountList(db: LedgerHandle, e: ExportRecord, accounts: ExportAccount[], headerOf: Map<string, HeaderKey>): string {
  const byCategory = db
    .select({ category: categoryAsOf(e), cents: sql<number>`sum(${aLines.amountCents})`, moneyIn: sql<number>`max(${aLines.amountCents} > 0)`, moneyOut: sql<number>`max(${aLines.amountCents} <= 0)` })
    .from(aLines)
    .where(bookedAsOf(e))
    .groupBy(categoryAsOf(e))
    .orderBy(asc(categoryAsOf(e)))
    .all();
  let text = IIF_HEADER;
  for (const account of accounts) text += iifAccountRow(bankAccountName(account), bankAccountType(account));
  for (const c of byCategory) {
    if (c.category === null) {
      if (c.moneyIn) text += iifAccountRow(uncategorizedAccount(1).name, uncategorizedAccount(1).type);
      if (c.moneyOut) text += iifAccountRow(uncategorizedAccount(-1).name, uncategorizedAccount(-1).type);
      continue;
    }
    const header = headerOf.get(normalName(c.category));
    // A label the taxonomy does not hold has no header: its booked total's sign decides.
    text += header ? iifCategoryAccountRow(c.category, header) : iifAccountRow(c.category, uncategorizedAccount(c.cents).type);
  }
  return text;
}

export interface RenderedPage {
  text: string;
  /** Where the next page starts; null after the last. */
  next: string | null;
}

/**
 * One page of one of the export's files: the file's header on the first page (cursor
 * null), then up to `pageLines` lines. Concatenating every page gives the whole file.
 */
export function renderPage(db: LedgerHandle, e: ExportRecord, file: ExportFile, cursor: string | null, pageLines = EXPORT_PAGE_LINES): RenderedPage {
  if (file === "accounts.csv") {
    // One page: a tenant has a handful of sub-accounts.
    return { text: ACCOUNTS_HEADER + exportAccounts(db, e).map(accountsRow).join(""), next: null };
  }
  const { lines, next } = exportLines(db, e, cursor, pageLines);
  const first = cursor === null;
  switch (file) {
    case "transactions.csv":
      return { text: (first ? TRANSACTIONS_HEADER : "") + lines.map(transactionsRow).join(""), next };
    case "accounting-bank.csv":
      return { text: (first ? BANK_HEADER : "") + lines.map(bankRow).join(""), next };
    case "accounting.iif": {
      const head = first ? iifAccountList(db, e, exportAccounts(db, e), headersAsOf(db, e)) + IIF_TRANSACTIONS_HEADER : "";
      // Only this page's accounts: the totals of every account would cost a pass over the books per page.
      const bankName = new Map<string, string>();
      for (const id of new Set(lines.map((l) => l.account_id))) bankName.set(id, bankAccountName(describeAccount(db, id, e.maxAccountSeq)));
      return { text: head + lines.map((l) => iifTransaction(l, bankName.get(l.account_id)!)).join(""), next };
    }
  }
}

/** The books as spreadsheet rows (`spreadsheetRow`), a page at a time, for a push. */
export function spreadsheetPage(db: LedgerHandle, e: ExportRecord, cursor: string | null, pageLines = EXPORT_PAGE_LINES) {
  const { lines, next } = exportLines(db, e, cursor, pageLines);
  return {
    rows: lines.map(spreadsheetRow),
    next,
  };
}

/** The header row of a push: transactions.csv's columns. */
export const SPREADSHEET_HEADER = ["date", "description", "amount", "category", "header", "account", "side", "id", "state"];

export function noSuchExport(id: number): Outcome<never> {
  return notFound(`This tenant made no export ${id}.`);
}

/** One page of one of an export's files. */
export function exportFilePage(db: LedgerHandle, id: number, file: ExportFile, cursor: string | null): Outcome<RenderedPage> {
  const record = findExport(db, id);
  return record ? ok(renderPage(db, record, file, cursor)) : noSuchExport(id);
}

/** One page of an export's rows as its spreadsheet push writes them. */
export function exportSpreadsheetPage(db: LedgerHandle, id: number, cursor: string | null): Outcome<{ rows: (string | number)[][]; next: string | null }> {
  const record = findExport(db, id);
  return record ? ok(spreadsheetPage(db, record, cursor)) : noSuchExport(id);
}
