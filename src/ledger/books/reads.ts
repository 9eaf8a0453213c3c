/**
 * The reads of the books. Every query goes through relation C (`c_rows`) and the
 * face, so every number is computed over the rows the caller is served. Counts and
 * totals come from the running figures (`c_totals`) wherever no filter narrows them,
 * so they cost the same at 100,000 lines as at 100.
 */
import { and, asc, desc, eq, gte, isNotNull, isNull, lte, sql, type SQL } from "drizzle-orm";
import { addDays } from "../../clock";
import type { LedgerDb, LedgerHandle } from "../store/db";
import type { Face } from "../face";
import { BOOKS_CURRENCY } from "./currency";
import { isQueueLabel } from "./queue-label";
import { aLines, bLines, cFloor, cFloorTotals, cRows, cTotals, feedAccounts, lineEvents } from "../store/schema";
import { noSuchLine, ok, type Outcome } from "../outcome";

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
  /** The line's currency: the bank's code, or the books' own where it named none. */
  currency: string;
  /** True when the bank gave the line in a currency other than the books': listed, and in no P&L. */
  foreign_currency: boolean;
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
  currency: cRows.currency,
  booksCurrency: BOOKS_CURRENCY,
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
  currency: string | null;
  booksCurrency: string;
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
    currency: r.currency ?? r.booksCurrency,
    foreign_currency: r.currency !== null && r.currency !== r.booksCurrency,
  };
}

/** The rows this face serves. */
export function onFace(face: Face): SQL | undefined {
  return face.effectiveFrom === null ? undefined : gte(cRows.postedOn, face.effectiveFrom);
}

/** The running figures of one account, state and category (null = the queue) on a face. */
interface Figure {
  accountId: string;
  state: Row["state"];
  category: string | null;
  lines: number;
  amountCents: number;
}

/**
 * The running figures of the rows a face serves. With no floor they are `c_totals` as
 * kept. The free tier's floor is two days back, so its few rows are summed directly; a
 * paid tenant's floor (its sign-up) subtracts the kept figures of the rows before it
 * (`c_floor_totals`), since the history before a floor can be most of the books.
 */
export function faceFigures(db: LedgerHandle, face: Face): Figure[] {
  const kept = sql`SELECT ${cTotals.accountId} AS account_id, ${cTotals.state} AS state, ${cTotals.queued} AS queued, ${cTotals.category} AS category,
    ${cTotals.lines} AS lines, ${cTotals.amountCents} AS amount_cents FROM ${cTotals}`;
  const keptBefore = (floor: string) => {
    keepFiguresBefore(db, floor);
    return sql`SELECT ${cFloorTotals.accountId}, ${cFloorTotals.state}, ${cFloorTotals.queued}, ${cFloorTotals.category},
      -${cFloorTotals.lines}, -${cFloorTotals.amountCents} FROM ${cFloorTotals}`;
  };
  const summed = (range: SQL) => sql`SELECT ${cRows.accountId} AS account_id, ${cRows.state} AS state, ${cRows.category} IS NULL AS queued,
    coalesce(${cRows.category}, '') AS category, count(*) AS lines, sum(${cRows.amountCents}) AS amount_cents
    FROM ${cRows} WHERE ${range} GROUP BY 1, 2, 3, 4`;
  const source =
    face.effectiveFrom === null
      ? kept
      : face.tier === "free"
        ? summed(gte(cRows.postedOn, face.effectiveFrom))
        : sql`${kept} UNION ALL ${keptBefore(face.effectiveFrom)}`;
  return db
    .all<{ account_id: string; state: Row["state"]; queued: number; category: string; lines: number; amount_cents: number }>(
      sql`SELECT account_id, state, queued, category, sum(lines) AS lines, sum(amount_cents) AS amount_cents
        FROM (${source}) GROUP BY 1, 2, 3, 4 HAVING sum(lines) <> 0 ORDER BY 1, 2, 3, 4`,
    )
    .map((f) => ({ accountId: f.account_id, state: f.state, category: f.queued ? null : f.category, lines: f.lines, amountCents: f.amount_cents }));
}

/**
 * Makes `c_floor_totals` hold the figures of the rows before `floor`. A tenant's floor
 * never moves, so this sums them once, at the first read on its face; the triggers keep
 * them from then on (migration 0017). The floor is recorded last: cut short, the next read
 * starts again.
 */
function keepFiguresBefore(db: LedgerHandle, floor: string): void {
  if (db.get<{ floor: string }>(sql`SELECT ${cFloor.floor} AS floor FROM ${cFloor}`)?.floor === floor) return;
  db.run(sql`DELETE FROM ${cFloor}`);
  db.run(sql`DELETE FROM ${cFloorTotals}`);
  db.run(sql`INSERT INTO ${cFloorTotals} (account_id, state, queued, category, lines, amount_cents)
    SELECT account_id, state, category IS NULL, coalesce(category, ''), count(*), sum(amount_cents) FROM ${cRows} WHERE posted_on < ${floor} GROUP BY 1, 2, 3, 4`);
  db.run(sql`INSERT INTO ${cFloor} (floor) VALUES (${floor})`);
}

const sumOf = (figures: Figure[], pick: (f: Figure) => number) => figures.reduce((total, f) => total + pick(f), 0);
const linesIn = (figures: Figure[], state?: Row["state"]) => sumOf(state ? figures.filter((f) => f.state === state) : figures, (f) => f.lines);
const bookedCentsIn = (figures: Figure[]) => sumOf(figures.filter((f) => f.state === "in books"), (f) => f.amountCents);

/** Booked figures per category (null = the queue), most money first (by absolute total), ties by label as SQLite orders text. */
function byCategory(figures: Figure[]): { category: string | null; totalCents: number; lines: number }[] {
  const totals = new Map<string | null, { category: string | null; totalCents: number; lines: number }>();
  for (const f of figures) {
    if (f.state !== "in books") continue;
    const total = totals.get(f.category) ?? { category: f.category, totalCents: 0, lines: 0 };
    total.totalCents += f.amountCents;
    total.lines += f.lines;
    totals.set(f.category, total);
  }
  return [...totals.values()].sort((x, y) => Math.abs(y.totalCents) - Math.abs(x.totalCents) || compareText(x.category, y.category));
}

/** SQLite's order for text: null first, then by UTF-8 bytes (which code point order matches). */
function compareText(x: string | null, y: string | null): number {
  if (x === y) return 0;
  if (x === null) return -1;
  if (y === null) return 1;
  const [a, b] = [Array.from(x), Array.from(y)];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = a[i]!.codePointAt(0)! - b[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

const inBooks = sql`${cRows.state} = 'in books'`;
const bookedCents = sql<number>`coalesce(sum(case when ${inBooks} then ${cRows.amountCents} else 0 end), 0)`;

export interface RowFilter {
  from?: string;
  to?: string;
  cat?: string;
  q?: string;
}

/**
 * Rows whose description holds `q`, ignoring ASCII case: SQLite's LIKE, which folds ASCII
 * case only (as its lower() does), with `q`'s wildcards escaped. For three characters or
 * more the trigram index (`c_words`) names the candidates first; its case folding covers
 * ASCII's, so it never misses a row the exact rule takes.
 */
function containing(q: string): SQL {
  const exact = sql`${cRows.description} LIKE ${`%${q.replace(/[!%_]/g, (c) => `!${c}`)}%`} ESCAPE '!'`;
  if ([...q].length < 3 || q.includes("\u0000")) return exact;
  const phrase = `"${q.replaceAll('"', '""')}"`;
  return and(
    sql`${cRows.side} IN ('A', 'B')`,
    sql`${cRows.srcId} IN (SELECT rowid >> 1 FROM c_words WHERE c_words MATCH ${phrase})`,
    exact,
  )!;
}

/** The rows of relation C a filter takes, on the face. */
export function rowConditions(face: Face, filter: RowFilter): SQL | undefined {
  const category =
    filter.cat === undefined ? undefined : isQueueLabel(filter.cat) ? isNull(cRows.category) : eq(cRows.category, filter.cat);
  return and(
    onFace(face),
    filter.from ? gte(cRows.postedOn, filter.from) : undefined,
    filter.to ? lte(cRows.postedOn, filter.to) : undefined,
    category,
    filter.q ? containing(filter.q) : undefined,
  );
}

/** The list's order: newest posted first. */
export const LIST_ORDER = [desc(cRows.postedOn), asc(cRows.side), desc(cRows.srcId)];

export function listRows(db: LedgerDb, face: Face, filter: RowFilter, page: number, perPage: number) {
  const where = rowConditions(face, filter);
  const listOrder = LIST_ORDER;
  if (filter.q) {
    // A word filter reads every matching row anyway (the exact check needs its
    // description), so the page's keys and the totals come from one pass: aggregates over
    // all the matches, and the page's slice of their keys (narrow rows to sort); then the
    // page's rows by key.
    const matches = db
      .select({ side: cRows.side, srcId: cRows.srcId, total: sql<number>`count(*) OVER ()`, totalCents: sql<number>`sum(case when ${inBooks} then ${cRows.amountCents} else 0 end) OVER ()` })
      .from(cRows)
      .where(where)
      .orderBy(...listOrder)
      .limit(perPage)
      .offset((page - 1) * perPage)
      .all();
    const first = matches[0];
    // Past the last page no row carries the totals: count them.
    if (!first) return { rows: [], ...matchedTotals(db, face, filter, where) };
    const keys = JSON.stringify(matches.map((m) => [m.side, m.srcId]));
    const rows = db
      .select(rowColumns)
      .from(cRows)
      .where(sql`(${cRows.side}, ${cRows.srcId}) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${keys}))`)
      .orderBy(...listOrder)
      .all();
    return { rows: rows.map(toRow), total: first.total, total_cents: first.totalCents };
  }
  // The page's keys first, from the index alone: skipping a deep offset then reads index
  // entries, not rows (the table is WITHOUT ROWID, so SQLite cannot defer the row reads).
  const pageKeys = db
    .select({ side: cRows.side, srcId: cRows.srcId })
    .from(cRows)
    .where(where)
    .orderBy(...listOrder)
    .limit(perPage)
    .offset((page - 1) * perPage);
  const rows = db
    .select(rowColumns)
    .from(cRows)
    .where(sql`(${cRows.side}, ${cRows.srcId}) IN ${pageKeys}`)
    .orderBy(...listOrder)
    .all();
  return { rows: rows.map(toRow), ...matchedTotals(db, face, filter, where) };
}

/** How many rows a filter matches and their booked total: from the running figures unless dates or words narrow it. */
function matchedTotals(db: LedgerDb, face: Face, filter: RowFilter, where: SQL | undefined) {
  if (filter.from || filter.to || filter.q) {
    const totals = db.select({ total: sql<number>`count(*)`, totalCents: bookedCents }).from(cRows).where(where).get()!;
    return { total: totals.total, total_cents: totals.totalCents };
  }
  const queue = filter.cat !== undefined && isQueueLabel(filter.cat);
  const figures = faceFigures(db, face).filter(
    (f) => filter.cat === undefined || (queue ? f.category === null : f.category === filter.cat),
  );
  return { total: linesIn(figures), total_cents: bookedCentsIn(figures) };
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
  /** The provider's record as it arrived, as JSON text (side A); null for side B. */
  raw: string | null;
}

/** One line with its lineage in words and, for side A, the provider's record. */
export function transactionDetail(db: LedgerDb, face: Face, side: Side, srcId: number): Outcome<TransactionDetail> {
  const row = findRow(db, face, side, srcId);
  if (!row) return noSuchLine(side, srcId);
  if (side === "B") {
    const b = db.select().from(bLines).where(eq(bLines.id, srcId)).get()!;
    return ok({
      row,
      lineage: [
        `B:${b.id} arrived on ${b.arrivedAt} as a second delivery of bank transaction ${b.transactionId}.`,
        `It is the archived twin of A:${b.twinAId} and counts in no total.`,
      ],
      raw: null,
    });
  }
  const a = db.select().from(aLines).where(eq(aLines.id, srcId)).get()!;
  return ok({ row, lineage: lineageOf(db, a), raw: a.raw });
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
  const figures = faceFigures(db, face);
  const lines = linesIn(figures);
  return {
    lines,
    booked: linesIn(figures, "in books"),
    archived: linesIn(figures, "archived"),
    pending: linesIn(figures, "pending"),
    superseded: linesIn(figures, "superseded"),
    retracted: linesIn(figures, "retracted"),
    total_cents: bookedCentsIn(figures),
    by_category: byCategory(figures).map((c): CategoryTotal => ({
      category: c.category ?? UNCATEGORISED,
      total_cents: c.totalCents,
      lines: c.lines,
    })),
    vault_rows: vaultRows(db),
    visible_rows: lines,
  };
}

/** Every row of the vault, side A and side B, whatever the face: relation C has one row per line. */
export function vaultRows(db: LedgerHandle): number {
  return db.select({ n: sql<number>`coalesce(sum(${cTotals.lines}), 0)` }).from(cTotals).get()!.n;
}

export function listAccounts(db: LedgerDb, face: Face) {
  const perAccount = new Map<string, Figure[]>();
  for (const f of faceFigures(db, face)) {
    const figures = perAccount.get(f.accountId) ?? [];
    figures.push(f);
    perAccount.set(f.accountId, figures);
  }
  return [...perAccount.entries()]
    .sort(([x], [y]) => compareText(x, y))
    .map(([accountId, figures]) => ({
      ...describeAccount(db, accountId),
      lines: linesIn(figures),
      booked: linesIn(figures, "in books"),
      pending: linesIn(figures, "pending"),
      booked_cents: bookedCentsIn(figures),
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
  // The oldest date through the order index, then the first row on it.
  const oldestDate = db.select({ postedOn: sql<string | null>`min(${cRows.postedOn})` }).from(cRows).where(onFace(face)).get()?.postedOn ?? null;
  const oldest =
    oldestDate === null
      ? undefined
      : db
          .select({ side: cRows.side, srcId: cRows.srcId, postedOn: cRows.postedOn })
          .from(cRows)
          .where(eq(cRows.postedOn, oldestDate))
          .orderBy(asc(cRows.side), asc(cRows.srcId))
          .limit(1)
          .get();
  return {
    visible_from: face.visibleFrom,
    tier: face.tier,
    window_hours: face.windowHours,
    effective_from: face.effectiveFrom,
    oldest_visible_row: oldest ? { side: oldest.side, src_id: oldest.srcId, posted_on: oldest.postedOn } : null,
    vault_rows: vaultRows(db),
    visible_rows: linesIn(faceFigures(db, face)),
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
export function listCategoryTotals(db: LedgerHandle, face: Face): CategoryTotal[] {
  return byCategory(faceFigures(db, face))
    .filter((c) => c.category !== null)
    .map((c) => ({ category: c.category!, total_cents: c.totalCents, lines: c.lines }));
}
