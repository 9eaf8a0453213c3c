/**
 * The local model's suggestion for lines it did not decide: what it would say and how
 * sure it is, below the duh band as well as in it. Nothing is written as a decision: a
 * person reviewing the queue reads the suggestion and decides.
 */
import { sql } from "drizzle-orm";
import type { LedgerHandle } from "../store/db";
import { lineKey, type LineFacts } from "./features";
import type { HeldBelow } from "./held-below";
import type { ModelKeeper } from "./model-keeper";

export type { HeldBelow };

export interface Suggestion {
  category: string;
  /** 0..1, calibrated as the model's decisions are. */
  confidence: number;
  /** Set where the category is what other businesses file the merchant under (the shared merchant prior), not what the tenant's own labels say. */
  byOthers?: true;
  /** Set where the line is held below the band (classifier.ts, `Prediction.heldBelow`): a person decides it, however sure the suggestion. */
  heldBelow?: HeldBelow;
  /** Set where the suggestion reaches the band's floor but the band is not open yet (classifier.ts, `bandOpens`): a person decides it. */
  bandNotOpen?: true;
}

/**
 * The model's suggestion for each side-A line named, posted on or after `postedFrom` (the
 * face's floor), that it has one for: none when it has learnt nothing and reads no shared
 * merchant prior. `bandFloor`: the deployment's duh band floor.
 */
export function suggestionsFor(db: LedgerHandle, keeper: ModelKeeper, aIds: readonly number[], postedFrom: string | null, bandFloor: number): Map<number, Suggestion> {
  const suggestions = new Map<number, Suggestion>();
  if (aIds.length === 0) return suggestions;
  const model = keeper.forReads();
  if (!model || (model.size === 0 && !model.readsSharedPrior)) return suggestions;
  const lines = db.all<LineFacts & { aId: number }>(sql`
    SELECT id AS aId, description, merchant_name AS merchantName, amount_cents AS amountCents, account_id AS accountId
    FROM a_lines WHERE id IN (SELECT value FROM json_each(${JSON.stringify(aIds)})) ${postedFrom === null ? sql`` : sql`AND posted_on >= ${postedFrom}`}`);
  const bandOpen = model.bandOpens(bandFloor);
  for (const line of lines) {
    const prediction = model.predictAsFitted(lineKey(line));
    if (!prediction) continue;
    const { category, confidence, byOthers, heldBelow } = prediction;
    const waits = !bandOpen && !byOthers && !heldBelow && confidence >= bandFloor;
    suggestions.set(line.aId, { category, confidence, byOthers, heldBelow, ...(waits ? { bandNotOpen: true as const } : {}) });
  }
  return suggestions;
}
