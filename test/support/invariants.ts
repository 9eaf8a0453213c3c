/**
 * The ledger's invariants, checked over the whole tenant at once (a scan of the books: for
 * the soak and tests, reached through the sandbox surface, never a request path):
 * - op sequence numbers run 1..n with no gap;
 * - each rule key's revisions run 1..n;
 * - no rule, model or tail decision follows a human judgement on the same line;
 * - relation C as kept equals its derivation, row by row, in its running figures and its words;
 * - every label row names an op that exists and set that line to that label's category.
 * Answers the broken ones in words; an empty list is a healthy ledger.
 */
import { sql } from "drizzle-orm";
import type { LedgerHandle } from "../../src/ledger/store/db";
import { relationCDrift } from "./relation-c-drift";

const count = (db: LedgerHandle, query: string) => db.get<{ n: number }>(sql.raw(query)).n;

export function brokenInvariants(db: LedgerHandle): string[] {
  const broken: string[] = [];
  const ops = db.get<{ n: number; top: number | null }>(sql`SELECT count(*) AS n, max(seq) AS top FROM decisions`);
  if ((ops.top ?? 0) !== ops.n) broken.push(`op sequence numbers have gaps: ${ops.n} ops, the highest is ${ops.top}`);

  const gappedKeys = count(db, "SELECT count(*) AS n FROM (SELECT rule_key FROM rule_revisions GROUP BY rule_key HAVING max(revision) <> count(*) OR min(revision) <> 1)");
  if (gappedKeys > 0) broken.push(`${gappedKeys} rule key(s) have revisions that do not run 1..n`);

  const overridden = count(
    db,
    `SELECT count(*) AS n FROM decisions later WHERE later.engine <> 'human'
       AND EXISTS (SELECT 1 FROM decisions human WHERE human.a_id = later.a_id AND human.engine = 'human' AND human.seq < later.seq)`,
  );
  if (overridden > 0) broken.push(`${overridden} machine decision(s) follow a human judgement on the same line`);

  const drift = relationCDrift(db);
  if (drift.rows > 0) broken.push(`relation C as kept differs from its derivation in ${drift.rows} row(s)`);
  if (drift.totals > 0) broken.push(`relation C's running figures differ from its derivation in ${drift.totals} figure(s)`);
  if (drift.floorTotals > 0) broken.push(`relation C's figures before the paid floor differ from its derivation in ${drift.floorTotals} figure(s)`);
  if (drift.months > 0) broken.push(`relation C's month figures differ from its derivation in ${drift.months} figure(s)`);
  if (drift.days > 0) broken.push(`relation C's daily figures differ from its derivation in ${drift.days} figure(s)`);
  if (drift.words > 0) broken.push(`relation C's word index differs from its descriptions in ${drift.words} entr(ies)`);

  const unmatchedLabels = count(
    db,
    `SELECT count(*) AS n FROM labels l WHERE NOT EXISTS
       (SELECT 1 FROM decisions d WHERE d.seq = l.op_seq AND d.a_id = l.a_id AND d.category IS l.category)`,
  );
  if (unmatchedLabels > 0) broken.push(`${unmatchedLabels} label(s) name an op that did not set their category`);
  return broken;
}
