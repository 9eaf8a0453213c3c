/**
 * The filed parity verdicts, read back: the history (newest day first, each day's newest
 * revision or every revision) and one verdict with the oracle report it was computed
 * against. A verdict is served as it was filed, on the face of that day; `match` and
 * `unexplained` are functions of its numbers, so a verdict filed before they were kept
 * reads with them too.
 */
import { and, count, desc, eq, gte, lte, sql } from "drizzle-orm";
import { notFound, ok, type Outcome } from "../outcome";
import type { LedgerHandle } from "../store/db";
import { JsonFragment, toJson } from "../store/json-text";
import { parityVerdicts } from "../store/schema";
import { unexplainedOf, type Localisation, type Unexplained, type Verdict } from "./parity";

export interface VerdictFilter {
  /** Inclusive bounds on the verdict's day (`as_of`); null for none. */
  from: string | null;
  to: string | null;
  /** `latest`: each day's newest revision, the day's verdict; `all`: every revision filed. */
  revisions: "latest" | "all";
}

/** Where a verdict's oracle came from, and who filed it. */
export interface OracleOrigin {
  /** `daily`: the daily run fetched it from the tenant's oracle source; `manual`: a caller sent it to record_pnl_parity. */
  source: "manual" | "daily";
  /** The daily source's address (no query or fragment); null for `manual`. */
  url: string | null;
  /** The actor that filed it: `cron:daily-parity`, or the caller's. */
  filed_by: string;
}

export interface VerdictSummary {
  as_of: string;
  revision: number;
  filed_at: string;
  match: boolean;
  coefficient: number;
  deltas: Record<string, number>;
  unexplained: Unexplained[];
  localisation_count: number;
  oracle: OracleOrigin;
}

const originOf = (row: { oracleUrl: string | null; actor: string }): OracleOrigin => ({
  source: row.oracleUrl === null ? "manual" : "daily",
  url: row.oracleUrl,
  filed_by: row.actor,
});

/** A page of the history, newest day first and, within a day, newest revision first. */
export function listVerdicts(db: LedgerHandle, filter: VerdictFilter, page: number, perPage: number): { verdicts: VerdictSummary[]; total: number } {
  const where = and(
    filter.from === null ? undefined : gte(parityVerdicts.asOf, filter.from),
    filter.to === null ? undefined : lte(parityVerdicts.asOf, filter.to),
    // The day's newest revision, found by the (as_of, revision) index.
    filter.revisions === "latest" ? sql`${parityVerdicts.revision} = (SELECT max(p.revision) FROM parity_verdicts p WHERE p.as_of = ${parityVerdicts.asOf})` : undefined,
  );
  const total = db.select({ n: count() }).from(parityVerdicts).where(where).get()?.n ?? 0;
  // The numbers are taken out of the stored JSON by SQLite: the localisations (thousands on a
  // large book) are counted, never parsed.
  const rows = db
    .select({
      asOf: parityVerdicts.asOf,
      revision: parityVerdicts.revision,
      filedAt: parityVerdicts.filedAt,
      actor: parityVerdicts.actor,
      oracleUrl: parityVerdicts.oracleUrl,
      coefficient: sql<number>`json_extract(${parityVerdicts.verdict}, '$.coefficient')`,
      deltas: sql<string>`json_extract(${parityVerdicts.verdict}, '$.deltas')`,
      unexplained: sql<string | null>`json_extract(${parityVerdicts.verdict}, '$.unexplained')`,
      localisationCount: sql<number>`json_array_length(${parityVerdicts.verdict}, '$.localisations')`,
      id: parityVerdicts.id,
    })
    .from(parityVerdicts)
    .where(where)
    .orderBy(desc(parityVerdicts.asOf), desc(parityVerdicts.revision))
    .limit(perPage)
    .offset((page - 1) * perPage)
    .all();
  const verdicts = rows.map((row): VerdictSummary => {
    const deltas = JSON.parse(row.deltas) as Record<string, number>;
    const unexplained = row.unexplained === null ? unexplainedOf(deltas, storedLocalisations(db, row.id)) : (JSON.parse(row.unexplained) as Unexplained[]);
    return {
      as_of: row.asOf,
      revision: row.revision,
      filed_at: row.filedAt,
      match: row.coefficient === 0,
      coefficient: row.coefficient,
      deltas,
      unexplained,
      localisation_count: row.localisationCount,
      oracle: originOf(row),
    };
  });
  return { verdicts, total };
}

function storedLocalisations(db: LedgerHandle, id: number): Localisation[] {
  const row = db.select({ list: sql<string>`json_extract(${parityVerdicts.verdict}, '$.localisations')` }).from(parityVerdicts).where(eq(parityVerdicts.id, id)).get();
  return row ? (JSON.parse(row.list) as Localisation[]) : [];
}

/**
 * One verdict as JSON text: the day's newest revision, or the revision named. The oracle
 * report it was computed against (as large as the P&L) is spliced in as it was stored.
 */
export function filedVerdictJson(db: LedgerHandle, asOf: string, revision: number | null): Outcome<string> {
  const row = db
    .select()
    .from(parityVerdicts)
    .where(and(eq(parityVerdicts.asOf, asOf), revision === null ? undefined : eq(parityVerdicts.revision, revision)))
    .orderBy(desc(parityVerdicts.revision))
    .limit(1)
    .get();
  if (!row) {
    return notFound(revision === null ? `No parity verdict is filed for ${asOf}.` : `No revision ${revision} of the parity verdict for ${asOf} is filed.`);
  }
  const stored = storedVerdict(row.verdict);
  return ok(
    toJson({
      verdict: {
        as_of: stored.as_of,
        revision: stored.revision,
        filed_at: row.filedAt,
        match: stored.match,
        coefficient: stored.coefficient,
        deltas: stored.deltas,
        unexplained: stored.unexplained,
        localisations: stored.localisations,
        oracle: { ...originOf(row), report: new JsonFragment(row.oracle) },
      },
    }),
  );
}

export interface FiledVerdict {
  verdict: Verdict;
  filed_at: string;
  actor: string;
}

/** A day's verdict as its newest revision has it, parsed (for a page that shows it whole); undefined when none was filed that day. */
export function verdictOn(db: LedgerHandle, asOf: string): FiledVerdict | undefined {
  const row = db.select().from(parityVerdicts).where(eq(parityVerdicts.asOf, asOf)).orderBy(desc(parityVerdicts.revision)).limit(1).get();
  if (!row) return undefined;
  return { verdict: storedVerdict(row.verdict), filed_at: row.filedAt, actor: row.actor };
}

/** A stored verdict whole: `match` and `unexplained` are functions of its numbers, so one filed before they were kept reads with them too. */
function storedVerdict(json: string): Verdict {
  const stored = JSON.parse(json) as Omit<Verdict, "match" | "unexplained"> & Partial<Pick<Verdict, "unexplained">>;
  return { ...stored, match: stored.coefficient === 0, unexplained: stored.unexplained ?? unexplainedOf(stored.deltas, stored.localisations) } as Verdict;
}
