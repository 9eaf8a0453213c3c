/**
 * The ledger's side of the tail (the external model): which lines to ask about, the
 * tenant's category list to choose from, and what came back. A line is asked once; an
 * abstention is remembered in `tail_asks`, not as a decision, so a rule or a person can
 * still decide the line later.
 */
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { taxonomy } from "../books/categories";
import type { LedgerDb, LedgerHandle } from "../store/db";
import { undecidedLines } from "../books/undecided";
import { decisions, tailAsks } from "../store/schema";

export interface TailLineFacts {
  aId: number;
  description: string;
  merchantName: string | null;
  amountCents: number;
}

/** Lines nobody has decided and the tail has never been asked about, oldest first. */
export function tailCandidates(db: LedgerHandle, limit: number): TailLineFacts[] {
  return undecidedLines(db, { unaskedByTail: true, limit })
    .map(({ aId, description, merchantName, amountCents }) => ({ aId, description, merchantName, amountCents }));
}

/** The categories the tail may answer with: the taxonomy and every label a person or rule gave. */
export function tenantCategories(db: LedgerHandle): string[] {
  const given = db
    .selectDistinct({ category: decisions.category })
    .from(decisions)
    .where(and(inArray(decisions.engine, ["human", "rule"]), isNotNull(decisions.category)))
    .all()
    .map((r) => r.category!);
  return [...new Set([...taxonomy(db).map((e) => e.name), ...given])].sort();
}

/**
 * Records what the tail answered for each line it was asked about, and decides the lines
 * it answered that are still undecided. Returns how many it decided.
 */
export function recordTailAnswers(db: LedgerDb, answers: { aId: number; answer: string | null }[], model: string, at: string): number {
  return db.transaction((tx) => {
    let decided = 0;
    for (const { aId, answer } of answers) {
      tx.insert(tailAsks).values({ aId, model, answer, askedAt: at }).run();
      if (answer === null) continue;
      const undecided = tx
        .select({ seq: decisions.seq })
        .from(decisions)
        .where(eq(decisions.aId, aId))
        .limit(1)
        .all().length === 0;
      if (!undecided) continue;
      tx.insert(decisions).values({ aId, category: answer, engine: "tail", modelVersion: model, decidedAt: at, recordedAt: at }).run();
      decided++;
    }
    return decided;
  });
}

/** What the tail is asked next: the tenant's categories to choose from and up to `limit` lines. */
export function tailWork(db: LedgerHandle, limit: number): { categories: string[]; lines: TailLineFacts[] } {
  return { categories: tenantCategories(db), lines: tailCandidates(db, limit) };
}
