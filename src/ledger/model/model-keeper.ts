/**
 * The local model as a tenant's object keeps it between calls: trained on the ledger's
 * evidence and kept while that evidence is unchanged, learning in slices where it would
 * learn afresh, one learning at a time. The object holds one keeper; the keeper holds no
 * state the ledger does not (a fresh object rebuilds it from the kept evidence).
 */
import type { UndecidedLine } from "../books/undecided";
import type { Pause } from "../slices";
import type { LedgerDb, LedgerHandle, LedgerTx } from "../store/db";
import { ok, type Outcome } from "../outcome";
import { currentModel, decideByModel, learnInTurns, refitInTurns, type TrainedModel } from "./local-model";

export class ModelKeeper {
  private trained: TrainedModel | undefined;
  /** Learning under way in slices (`prepare`). */
  private learning: Promise<Outcome<null>> | undefined;

  /** The model as of the ledger now, learning what changed since the kept one. */
  current(db: LedgerHandle): TrainedModel {
    this.trained = currentModel(db, this.trained);
    return this.trained;
  }

  /** The model decides `lines` (the rules left them) at the band's floor or above; answers how many it decided. */
  decide(tx: LedgerTx, lines: UndecidedLine[], bandFloor: number, at: string): number {
    if (lines.length === 0) return 0;
    return decideByModel(tx, this.current(tx).model, bandFloor, at, lines);
  }

  /** What the model learnt from a transaction that rolled back is forgotten with it. */
  forget(): void {
    this.trained = undefined;
  }

  /**
   * Before a sync's pages: where the model would learn afresh (after a whole-book
   * run-rules), it learns in slices with the object answering between them, so the pages'
   * transactions only catch up what came after; otherwise the standing model is caught up
   * and refitted in slices where a refit is due (a person's labels since the last sync).
   * Concurrent callers share one learning.
   */
  prepare(db: LedgerDb, pause: Pause): Promise<Outcome<null>> {
    this.learning ??= learnInTurns(db, this.trained, pause)
      .then(async (learnt) => {
        this.trained = learnt ?? (await refitInTurns(db, this.trained, pause));
        return ok(null);
      })
      .finally(() => {
        this.learning = undefined;
      });
    return this.learning;
  }

  /** The model's version and how many examples it learnt from, once any learning under way has ended. */
  async describe(db: LedgerDb, pause: Pause): Promise<{ version: string; examples: number }> {
    await this.prepare(db, pause);
    const { model } = this.current(db);
    return { version: model.version, examples: model.size };
  }
}
