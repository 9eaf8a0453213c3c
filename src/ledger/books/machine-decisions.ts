/**
 * Appending the decisions of rules and the local model in bulk: one statement per
 * thousand decisions, their values passed as one JSON parameter (the object's SQLite
 * binds at most 100 values per statement). Op numbers follow the order given.
 */
import { sql } from "drizzle-orm";
import type { LedgerHandle } from "../store/db";

export type MachineDecision =
  | { engine: "rule"; aId: number; category: string; ruleKey: string; ruleRevision: number }
  | { engine: "model"; aId: number; category: string; modelVersion: string; confidencePpm: number; bandFloorPpm: number };

const CHUNK = 1_000;

export function appendMachineDecisions(db: LedgerHandle, decided: MachineDecision[], at: string): void {
  for (let from = 0; from < decided.length; from += CHUNK) {
    const chunk = JSON.stringify(decided.slice(from, from + CHUNK));
    db.run(sql`
      INSERT INTO decisions (a_id, category, engine, rule_key, rule_revision, model_version, confidence_ppm, band_floor_ppm, decided_at, recorded_at)
      SELECT value ->> 'aId', value ->> 'category', value ->> 'engine', value ->> 'ruleKey', value ->> 'ruleRevision',
        value ->> 'modelVersion', value ->> 'confidencePpm', value ->> 'bandFloorPpm', ${at}, ${at}
      FROM json_each(${chunk}) ORDER BY key`);
  }
}
