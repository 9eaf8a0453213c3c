/**
 * The parity verdicts as filed, read back: the newest days with their latest revisions,
 * and one day's verdict whole (deltas and localisations).
 */
import { sql } from "drizzle-orm";
import type { LedgerHandle } from "../store/db";
import type { Verdict } from "./parity";

export interface VerdictSummary {
  as_of: string;
  revision: number;
  coefficient: number;
  localisations: number;
  filed_at: string;
}

/** The latest revision of each of the newest `limit` days, newest day first. */
export function recentVerdicts(db: LedgerHandle, limit: number): VerdictSummary[] {
  return db.all<VerdictSummary>(sql`
    SELECT as_of, revision, json_extract(verdict, '$.coefficient') AS coefficient,
      json_array_length(verdict, '$.localisations') AS localisations, filed_at
    FROM parity_verdicts v
    WHERE revision = (SELECT max(revision) FROM parity_verdicts w WHERE w.as_of = v.as_of)
    ORDER BY as_of DESC LIMIT ${limit}`);
}

export interface FiledVerdict {
  verdict: Verdict;
  filed_at: string;
  actor: string;
}

/** A day's verdict as its latest revision has it; undefined when none was filed that day. */
export function verdictOn(db: LedgerHandle, asOf: string): FiledVerdict | undefined {
  const row = db.get<{ verdict: string; filed_at: string; actor: string } | undefined>(sql`
    SELECT verdict, filed_at, actor FROM parity_verdicts WHERE as_of = ${asOf} ORDER BY revision DESC LIMIT 1`);
  return row ? { verdict: JSON.parse(row.verdict) as Verdict, filed_at: row.filed_at, actor: row.actor } : undefined;
}
