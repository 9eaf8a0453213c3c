/**
 * The filed parity verdicts, read back: the history (newest day first, each day's newest
 * revision or every revision, with the daily runs that filed none) and one verdict with the
 * oracle report it was computed against. A verdict is served as it was filed, on the face
 * of that day; `match` and `unexplained` are functions of its numbers, so a verdict filed
 * before they were kept reads with them too.
 */
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { notFound, ok, type Outcome } from "../outcome";
import type { LedgerHandle } from "../store/db";
import { JsonFragment, toJson } from "../store/json-text";
import { oracleRuns, parityVerdicts } from "../store/schema";
import { unexplainedOf, type Localisation, type Unexplained, type Verdict } from "./parity";

export interface VerdictFilter {
  /** Inclusive bounds on the verdict's day (`as_of`); null for none. */
  from: string | null;
  to: string | null;
  /**
   * `latest`: each day's newest revision, the day's verdict, or, for a day without one, its
   * last failed run; `all`: every revision filed and every failed run.
   */
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
  status: "filed";
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

/** A daily run that filed no verdict for its day, and why. */
export interface FailedRunSummary {
  status: "failed";
  as_of: string;
  /** The daily run's scheduled time. */
  ran_at: string;
  recorded_at: string;
  error: string;
  /** The oracle source's address, without query or fragment. */
  oracle_url: string;
  /** `cron:daily-parity` (the oracle's answer failed) or `service:job-queue` (the queue gave up on the day). */
  recorded_by: string;
}

export type HistoryEntry = VerdictSummary | FailedRunSummary;

const originOf = (row: { oracleUrl: string | null; actor: string }): OracleOrigin => ({
  source: row.oracleUrl === null ? "manual" : "daily",
  url: row.oracleUrl,
  filed_by: row.actor,
});

interface HistoryRow {
  status: "filed" | "failed";
  id: number;
  asOf: string;
  at: string;
  revision: number | null;
  actor: string;
  oracleUrl: string | null;
  coefficient: number | null;
  deltas: string | null;
  unexplained: string | null;
  localisationCount: number | null;
  ranAt: string | null;
  error: string | null;
}

/** Verdicts and failed runs as one list's rows (a failed run has no numbers; a verdict no reason). */
function historyRows(filter: VerdictFilter): SQL {
  const within = (asOf: string) =>
    sql.join([sql`1 = 1`, ...(filter.from === null ? [] : [sql`${sql.raw(asOf)} >= ${filter.from}`]), ...(filter.to === null ? [] : [sql`${sql.raw(asOf)} <= ${filter.to}`])], sql` AND `);
  const latest = filter.revisions === "latest";
  // The numbers are taken out of the stored JSON by SQLite: the localisations (thousands on a
  // large book) are counted, never parsed. The day's newest revision is found by the (as_of, revision) index.
  const verdicts = sql`SELECT 'filed' AS status, v.id AS id, v.as_of AS asOf, v.filed_at AS at, v.revision AS revision, v.actor AS actor,
      v.oracle_url AS oracleUrl, json_extract(v.verdict, '$.coefficient') AS coefficient, json_extract(v.verdict, '$.deltas') AS deltas,
      json_extract(v.verdict, '$.unexplained') AS unexplained, json_array_length(v.verdict, '$.localisations') AS localisationCount,
      NULL AS ranAt, NULL AS error
    FROM parity_verdicts v
    WHERE ${within("v.as_of")}${latest ? sql` AND v.revision = (SELECT max(p.revision) FROM parity_verdicts p WHERE p.as_of = v.as_of)` : sql``}`;
  const failed = sql`SELECT 'failed', r.id, r.as_of, r.recorded_at, NULL, r.actor, r.oracle_url, NULL, NULL, NULL, NULL, r.ran_at, r.error
    FROM oracle_runs r
    WHERE r.status = 'failed' AND ${within("r.as_of")}${
      latest
        ? sql` AND NOT EXISTS (SELECT 1 FROM parity_verdicts p WHERE p.as_of = r.as_of) AND r.id = (SELECT max(q.id) FROM oracle_runs q WHERE q.as_of = r.as_of AND q.status = 'failed')`
        : sql``
    }`;
  return sql`${verdicts} UNION ALL ${failed}`;
}

/**
 * A page of the history, newest day first and, within a day, newest first (a verdict's
 * revisions in order): the verdicts filed, and the daily runs that filed none.
 */
export function listVerdicts(db: LedgerHandle, filter: VerdictFilter, page: number, perPage: number): { verdicts: HistoryEntry[]; total: number } {
  const rows = historyRows(filter);
  const total = db.get<{ n: number }>(sql`SELECT count(*) AS n FROM (${rows})`).n;
  const found = db.all<HistoryRow>(sql`${rows} ORDER BY asOf DESC, at DESC, revision DESC, id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`);
  const verdicts = found.map((row): HistoryEntry => {
    if (row.status === "failed") {
      return { status: "failed", as_of: row.asOf, ran_at: row.ranAt!, recorded_at: row.at, error: row.error!, oracle_url: row.oracleUrl!, recorded_by: row.actor };
    }
    const deltas = JSON.parse(row.deltas!) as Record<string, number>;
    const unexplained = row.unexplained === null ? unexplainedOf(deltas, storedLocalisations(db, row.id)) : (JSON.parse(row.unexplained) as Unexplained[]);
    return {
      status: "filed",
      as_of: row.asOf,
      revision: row.revision!,
      filed_at: row.at,
      match: row.coefficient === 0,
      coefficient: row.coefficient!,
      deltas,
      unexplained,
      localisation_count: row.localisationCount!,
      oracle: originOf(row),
    };
  });
  return { verdicts, total };
}

/** The newest day's verdict as the dashboard shows it; undefined while none is filed. */
export function latestVerdict(db: LedgerHandle): { asOf: string; revision: number; match: boolean } | undefined {
  const row = db
    .select({ asOf: parityVerdicts.asOf, revision: parityVerdicts.revision, coefficient: sql<number>`json_extract(${parityVerdicts.verdict}, '$.coefficient')` })
    .from(parityVerdicts)
    .orderBy(desc(parityVerdicts.asOf), desc(parityVerdicts.revision))
    .limit(1)
    .get();
  return row ? { asOf: row.asOf, revision: row.revision, match: row.coefficient === 0 } : undefined;
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
    if (revision !== null) return notFound(`No revision ${revision} of the parity verdict for ${asOf} is filed.`);
    const failed = db.select().from(oracleRuns).where(and(eq(oracleRuns.asOf, asOf), eq(oracleRuns.status, "failed"))).orderBy(desc(oracleRuns.id)).limit(1).get();
    return notFound(failed ? `No parity verdict is filed for ${asOf}: the oracle run failed on ${asOf}: ${failed.error}` : `No parity verdict is filed for ${asOf}.`);
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
