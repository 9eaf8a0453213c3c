/**
 * The reads of the books. Every query goes through relation C (`c_rows`) and the
 * face, so every number is computed over the rows the caller is served.
 */
import { and, asc, desc, eq, gte, isNotNull, isNull, lte, sql, type SQL } from "drizzle-orm";
import { addDays } from "../clock";
import type { LedgerDb, LedgerHandle } from "./db";
import type { Face } from "./face";
import { isQueueLabel } from "./queue-label";
import { aLines, bLines, cRows, feedAccounts, lineEvents } from "./schema";

export const UNCATEGORISED = "uncategorised";

export type Side = "A" | "B";

export interface Row {
  side: Side;
  src_id: number;
  account_id: string;
  posted_on: string;
  description: string;
  amount_cents: number;
  category: string;
  in_books: boolean;
  exclude_reason: string;
  state: "in books" | "pending" | "superseded" | "retracted" | "archived";
}

export const rowColumns = {
  side: cRows.side,
  srcId: cRows.srcId,
  accountId: cRows.accountId,
  postedOn: cRows.postedOn,
  description: cRows.description,
  amountCents: cRows.amountCents,
  category: cRows.category,
  state: cRows.state,
  excludeReason: cRows.excludeReason,
};

interface RowRecord {
  side: Side;
  srcId: number;
  accountId: string;
  postedOn: string;
  description: string;
  amountCents: number;
  category: string | null;
  state: Row["state"];
  excludeReason: string;
}

export function toRow(r: RowRecord): Row {
  return {
    side: r.side,
    src_id: r.srcId,
    account_id: r.accountId,
    posted_on: r.postedOn,
    description: r.description,
    amount_cents: r.amountCents,
    category: r.category ?? UNCATEGORISED,
    in_books: r.state === "in books",
    exclude_reason: r.excludeReason,
    state: r.state,
  };
}

/** The rows this face serves. */
export function onFace(face: Face): SQL | undefined {
  return face.effectiveFrom === null ? undefined : gte(cRows.postedOn, face.effectiveFrom);
}

const inBooks = sql`${cRows.state} = 'in books'`;
const bookedCents = sql<number>`coalesce(sum(case when ${inBooks} then ${cRows.amountCents} else 0 end), 0)`;
const countWhere = (condition: SQL) => sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;

export interface RowFilter {
  from?: string;
  to?: string;
  cat?: string;
  q?: string;
}

export function listRows(db: LedgerDb, face: Face, filter: RowFilter, page: number, perPage: number) {
  const where = and(
    onFace(face),
    filter.from ? gte(cRows.postedOn, filter.from) : undefined,
    filter.to ? lte(cRows.postedOn, filter.to) : undefined,
    filter.cat === undefined ? undefined : isQueueLabel(filter.cat) ? isNull(cRows.category) : eq(cRows.category, filter.cat),
    filter.q ? sql`instr(lower(${cRows.description}), lower(${filter.q})) > 0` : undefined,
  );
  const totals = db
    .select({ total: sql<number>`count(*)`, totalCents: bookedCents })
    .from(cRows)
    .where(where)
    .get()!;
  const rows = db
    .select(rowColumns)
    .from(cRows)
    .where(where)
    .orderBy(desc(cRows.postedOn), asc(cRows.side), desc(cRows.srcId))
    .limit(perPage)
    .offset((page - 1) * perPage)
    .all();
  return { rows: rows.map(toRow), total: totals.total, total_cents: totals.totalCents };
}

export function findRow(db: LedgerHandle, face: Face, side: Side, srcId: number): Row | undefined {
  const r = db
    .select(rowColumns)
    .from(cRows)
    .where(and(onFace(face), eq(cRows.side, side), eq(cRows.srcId, srcId)))
    .get();
  return r ? toRow(r) : undefined;
}

export interface TransactionDetail {
  row: Row;
  lineage: string[];
  raw: unknown;
}

/** One line with its lineage in words and, for side A, the provider's record. */
export function transactionDetail(db: LedgerDb, face: Face, side: Side, srcId: number): TransactionDetail | undefined {
  const row = findRow(db, face, side, srcId);
  if (!row) return undefined;
  if (side === "B") {
    const b = db.select().from(bLines).where(eq(bLines.id, srcId)).get()!;
    return {
      row,
      lineage: [
        `B:${b.id} arrived on ${b.arrivedAt} as a second delivery of bank transaction ${b.transactionId}.`,
        `It is the archived twin of A:${b.twinAId} and counts in no total.`,
      ],
      raw: null,
    };
  }
  const a = db.select().from(aLines).where(eq(aLines.id, srcId)).get()!;
  return { row, lineage: lineageOf(db, a), raw: JSON.parse(a.raw) };
}

function lineageOf(db: LedgerDb, a: typeof aLines.$inferSelect): string[] {
  const words: string[] = [];
  const how = a.arrival === "modified" ? "as the bank's modification of an earlier line" : "as a new line";
  words.push(`A:${a.id} arrived on ${a.arrivedAt} from bank transaction ${a.transactionId} ${how}${a.pending ? ", pending" : ""}.`);
  const predecessors = db.select().from(lineEvents).where(and(eq(lineEvents.byAId, a.id), eq(lineEvents.kind, "superseded"))).all();
  for (const p of predecessors) {
    const reason = a.arrival === "modified" ? "modified" : "posted";
    words.push(`It supersedes A:${p.aId}, which the bank ${reason}.`);
  }
  const events = db.select().from(lineEvents).where(eq(lineEvents.aId, a.id)).orderBy(asc(lineEvents.id)).all();
  for (const e of events) {
    if (e.kind === "superseded") words.push(`On ${e.at} it was superseded by A:${e.byAId}.`);
    else words.push(`On ${e.at} the bank removed it: it is retracted and out of the books.`);
  }
  const twins = db.select({ id: bLines.id }).from(bLines).where(eq(bLines.twinAId, a.id)).all();
  for (const t of twins) words.push(`The bank delivered it again; the duplicate is archived as B:${t.id}.`);
  if (events.length === 0) words.push(a.pending ? "It is pending: listed, but in no total until the bank posts it." : "It is in the books.");
  return words;
}

export interface CategoryTotal {
  category: string;
  total_cents: number;
  lines: number;
}

export function booksSummary(db: LedgerDb, face: Face) {
  const where = onFace(face);
  const counts = db
    .select({
      lines: sql<number>`count(*)`,
      booked: countWhere(inBooks),
      archived: countWhere(sql`${cRows.state} = 'archived'`),
      pending: countWhere(sql`${cRows.state} = 'pending'`),
      superseded: countWhere(sql`${cRows.state} = 'superseded'`),
      retracted: countWhere(sql`${cRows.state} = 'retracted'`),
      totalCents: bookedCents,
    })
    .from(cRows)
    .where(where)
    .get()!;
  const byCategory = db
    .select({ category: cRows.category, totalCents: sql<number>`sum(${cRows.amountCents})`, lines: sql<number>`count(*)` })
    .from(cRows)
    .where(and(where, inBooks))
    .groupBy(cRows.category)
    .orderBy(sql`abs(sum(${cRows.amountCents})) desc`, asc(cRows.category))
    .all();
  return {
    lines: counts.lines,
    booked: counts.booked,
    archived: counts.archived,
    pending: counts.pending,
    superseded: counts.superseded,
    retracted: counts.retracted,
    total_cents: counts.totalCents,
    by_category: byCategory.map((c): CategoryTotal => ({
      category: c.category ?? UNCATEGORISED,
      total_cents: c.totalCents,
      lines: c.lines,
    })),
    vault_rows: vaultRows(db),
    visible_rows: counts.lines,
  };
}

/** The id of the newest side-A line (0 for none): lines after it are newer. */
export function newestLineId(db: LedgerHandle): number {
  return db.select({ id: sql<number | null>`max(${aLines.id})` }).from(aLines).get()?.id ?? 0;
}

export function vaultRows(db: LedgerDb): number {
  const a = db.select({ n: sql<number>`count(*)` }).from(aLines).get()!.n;
  const b = db.select({ n: sql<number>`count(*)` }).from(bLines).get()!.n;
  return a + b;
}

export function listAccounts(db: LedgerDb, face: Face) {
  const perAccount = db
    .select({
      accountId: cRows.accountId,
      lines: sql<number>`count(*)`,
      booked: countWhere(inBooks),
      pending: countWhere(sql`${cRows.state} = 'pending'`),
      bookedCents,
    })
    .from(cRows)
    .where(onFace(face))
    .groupBy(cRows.accountId)
    .orderBy(asc(cRows.accountId))
    .all();
  return perAccount.map((a) => ({
    ...describeAccount(db, a.accountId),
    lines: a.lines,
    booked: a.booked,
    pending: a.pending,
    booked_cents: a.bookedCents,
  }));
}

/** The account's newest record from the feed (as delivered by record `upToSeq`, when given). */
export function accountRecord(db: LedgerHandle, accountId: string, upToSeq?: number) {
  return db
    .select()
    .from(feedAccounts)
    .where(and(eq(feedAccounts.accountId, accountId), upToSeq === undefined ? undefined : lte(feedAccounts.seq, upToSeq)))
    .orderBy(desc(feedAccounts.seq))
    .limit(1)
    .get();
}

/** An account as served: its newest record's fields (as of record `upToSeq`, when given), its id standing in for a name it never had. */
export function describeAccount(db: LedgerHandle, accountId: string, upToSeq?: number) {
  const record = accountRecord(db, accountId, upToSeq);
  return {
    account_id: accountId,
    name: record?.name ?? accountId,
    mask: record?.mask ?? null,
    type: record?.type ?? null,
    subtype: record?.subtype ?? null,
  };
}

export function visibility(db: LedgerDb, face: Face) {
  const oldest = db
    .select({ side: cRows.side, srcId: cRows.srcId, postedOn: cRows.postedOn })
    .from(cRows)
    .where(onFace(face))
    .orderBy(asc(cRows.postedOn), asc(cRows.side), asc(cRows.srcId))
    .limit(1)
    .get();
  const visibleRows = db.select({ n: sql<number>`count(*)` }).from(cRows).where(onFace(face)).get()!.n;
  return {
    visible_from: face.visibleFrom,
    tier: face.tier,
    window_hours: face.windowHours,
    effective_from: face.effectiveFrom,
    oldest_visible_row: oldest ? { side: oldest.side, src_id: oldest.srcId, posted_on: oldest.postedOn } : null,
    vault_rows: vaultRows(db),
    visible_rows: visibleRows,
  };
}

/** Money in, and money out as a positive number, summed over the selected rows of C. */
export const moneyInCents = sql<number>`coalesce(sum(case when ${cRows.amountCents} > 0 then ${cRows.amountCents} else 0 end), 0)`;
export const moneyOutCents = sql<number>`coalesce(sum(case when ${cRows.amountCents} < 0 then -${cRows.amountCents} else 0 end), 0)`;

/** Money in and out over the trailing `days` (ending today), booked lines on the face. */
export function volume(db: LedgerDb, face: Face, days: number) {
  const from = addDays(face.today, -(days - 1));
  const totals = db
    .select({
      moneyIn: moneyInCents,
      moneyOut: moneyOutCents,
      lines: sql<number>`count(*)`,
    })
    .from(cRows)
    .where(and(onFace(face), inBooks, gte(cRows.postedOn, from), lte(cRows.postedOn, face.today)))
    .get()!;
  return {
    days,
    from,
    to: face.today,
    lines: totals.lines,
    money_in_cents: totals.moneyIn,
    money_out_cents: totals.moneyOut,
    // The larger of money in and money out: never their sum, never the net.
    volume_cents: Math.max(totals.moneyIn, totals.moneyOut),
  };
}

/**
 * The labels booked lines carry on this face (the queue excluded), with their booked
 * total and line count, most money first (by absolute total), ties by label.
 */
export function listCategoryTotals(db: LedgerDb, face: Face): CategoryTotal[] {
  return db
    .select({ category: cRows.category, totalCents: sql<number>`sum(${cRows.amountCents})`, lines: sql<number>`count(*)` })
    .from(cRows)
    .where(and(onFace(face), inBooks, isNotNull(cRows.category)))
    .groupBy(cRows.category)
    .orderBy(sql`abs(sum(${cRows.amountCents})) desc`, asc(cRows.category))
    .all()
    .map((c) => ({ category: c.category!, total_cents: c.totalCents, lines: c.lines }));
}
