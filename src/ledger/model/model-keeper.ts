/**
 * The local model as a tenant's object keeps it between calls: trained on the ledger's
 * evidence and kept while that evidence is unchanged. A transaction never learns more than
 * its own lines' changes and never refits: whatever is longer (catching up many changes,
 * learning the book afresh, refitting) runs in slices of about 10 ms with the object
 * answering other calls between them (docs/decisions.md, "The local model").
 *
 * The rule that keeps a label meaningful: a model decision on a line is never made by a fit
 * that has not learnt every person's label and relabel made before it that may speak of
 * the line's merchant. So before a transaction decides lines (`ready`), whatever a person
 * changed is learnt and refitted, in slices. A small model's transaction waits for that
 * (milliseconds); a large one's does not (a refit at 100,000 lines takes seconds, and
 * learning the book afresh after a run of the rules longer): its standing fit decides the
 * lines that name none of the changed lines' merchants and holds back the others, which
 * the tail then asks about (`heldBack`). Rules' decisions, the feed's new lines and the
 * calibration's refit never hold anything back, and are learnt in slices while the
 * standing fit keeps deciding. The keeper holds no state the ledger does not (a fresh
 * object restores it from the kept evidence).
 */
import type { UndecidedLine } from "../books/undecided";
import type { Pause } from "../slices";
import type { LedgerDb, LedgerHandle, LedgerTx } from "../store/db";
import { ok, type Outcome } from "../outcome";
import { taxonomy } from "../books/categories";
import { LocalModel } from "./classifier";
import { sharedCategoryName, type SharedPrior } from "./shared-prior";
import { keptSharedPrior } from "./shared-prior-kept";
import {
  catchUpInSlices,
  CHANGES_CAUGHT_UP_AT_ONCE,
  currentModel,
  decideByModel,
  learnAfreshInSlices,
  learnsAfreshFor,
  marksNow,
  marksOf,
  pendingSince,
  personDecidedSince,
  personDecidedKeysSince,
  evidenceSince,
  keepCalibration,
  refitInSlices,
  restoreKept,
  type Marks,
  type TrainedModel,
} from "./local-model";

/** Learning under way in slices, and what it learns: the ledger as of `marks`, with a person's change or not. */
interface Learning {
  done: Promise<void>;
  marks: Marks;
  byPerson: boolean;
  failed?: boolean;
}

export class ModelKeeper {
  private standing: TrainedModel | undefined;
  private learning: Learning | undefined;
  /** Whether the last learning in slices failed (logged). */
  private failedLast = false;
  /** The shared merchant prior the tenant opted in to, as last handed to it (read once, until `sharedPriorChanged`). */
  private shared: SharedPrior | null | undefined;

  constructor(
    private readonly db: LedgerDb,
    /** What lets the object answer other calls between two slices. */
    private readonly pause: Pause,
  ) {}

  /**
   * Before a transaction decides lines: every person's change learnt and fitted, in slices
   * (waiting for learning under way where it holds one, or where one was made since it
   * began), unless the standing fit may hold back the lines it speaks to instead
   * (`heldBack`): then the work starts and the transaction goes on. Other changes only
   * where they are few. Concurrent callers share the work.
   */
  async ready(): Promise<Outcome<null>> {
    for (;;) {
      const learning = this.learning;
      if (learning) {
        if (!learning.byPerson && !personDecidedSince(this.db, learning.marks)) return ok(null);
        if (this.heldBack(this.db)) return ok(null);
        await learning.done;
        if (learning.failed) return ok(null);
        continue;
      }
      const work = this.nextWork(false);
      if (!work) return ok(null);
      if (this.heldBack(this.db)) {
        void this.run(work);
        return ok(null);
      }
      await this.run(work);
      // A learning that failed is not tried again in this call: `decide` then decides nothing
      // (no fit has learnt the person's change) and the next call starts it again.
      if (this.failedLast) return ok(null);
    }
  }

  /**
   * Before a sync's pages, and after a run of the rules: `ready`, then whatever else is due
   * (many rules' decisions, the examples or lines grown, the calibration) started in
   * slices, the pages deciding by the standing fit meanwhile.
   */
  async prepare(): Promise<Outcome<null>> {
    await this.ready();
    if (!this.learning) {
      const work = this.nextWork(true);
      if (work) void this.run(work);
    }
    return ok(null);
  }

  /** The model's version and how many examples it learnt from, once whatever is due is learnt and refitted (in slices). */
  async describe(): Promise<{ version: string; examples: number }> {
    for (;;) {
      const learning = this.learning;
      if (learning) {
        await learning.done;
        if (learning.failed) break;
        continue;
      }
      const work = this.nextWork(true);
      if (!work) break;
      await this.run(work);
      if (this.failedLast) break;
    }
    const { model } = this.current(this.db);
    return { version: model.fittedVersion ?? model.version, examples: model.size };
  }

  /**
   * The model a read predicts from (a suggestion), by its standing fit, costing the read
   * some milliseconds at most: a few changes are caught up and a small model (up to
   * FRESH_READS_UP_TO examples) refitted in place, so a person's latest labels show at
   * once; anything longer is started in slices and the read answers by the standing fit.
   * Undefined where no model stands (unless the tenant reads the shared merchant prior:
   * then one that learnt nothing suggests the others' categories).
   */
  forReads(): LocalModel | undefined {
    const model = this.standingForReads() ?? (this.sharedPrior(this.db) ? new LocalModel() : undefined);
    if (model) this.readSharedPrior(this.db, model);
    return model;
  }

  private standingForReads(): LocalModel | undefined {
    if (this.learning) return this.standing?.model;
    this.standing ??= restoreKept(this.db);
    const standing = this.standing;
    if (!standing) {
      if (!personDecidedSince(this.db, NO_MARKS)) return undefined;
      // A small book is learnt in place (as a catch-up of few changes would be); a large one in slices.
      if (marksNow(this.db).throughLine > FRESH_READS_UP_TO) {
        void this.run({ kind: "afresh", byPerson: true });
        return undefined;
      }
      return this.forReadsInPlace((this.standing = currentModel(this.db, undefined)));
    }
    const pending = pendingSince(this.db, standing);
    if (pending.changes > CHANGES_CAUGHT_UP_AT_ONCE) {
      void this.run(this.workFor(standing, pending));
      return standing.model;
    }
    return this.forReadsInPlace(pending.changes > 0 ? (this.standing = currentModel(this.db, standing)) : standing);
  }

  private forReadsInPlace(current: TrainedModel): LocalModel {
    const due = current.model.refitDue();
    if (due !== null) {
      if (current.model.size <= FRESH_READS_UP_TO) current.model.refitIfStale();
      else void this.run({ kind: "refit", byPerson: due === "now" });
    }
    return current.model;
  }

  /** The model as of the ledger now, catching up what changed since the standing one in one step (tests, `describe`). */
  current(db: LedgerHandle): TrainedModel {
    this.standing = currentModel(db, this.standing);
    return this.standing;
  }

  /**
   * The model decides `lines` (the rules left them) at the band's floor or above, inside
   * the caller's transaction; answers how many it decided. It learns the transaction's own
   * changes first unless learning is under way in slices (then the standing fit decides,
   * and the changes are learnt after). Where a person's change waits for a fit, it holds
   * back the lines that may name its merchant, or decides nothing where the fit may not
   * (`heldBack`); nothing either where no fit stands yet: the lines wait for the tail.
   */
  decide(tx: LedgerTx, lines: UndecidedLine[], bandFloor: number, at: string): number {
    if (lines.length === 0) return 0;
    if (!this.learning) {
      this.standing ??= restoreKept(tx);
      if (!this.standing) {
        // A tenant whose rules decided lines so far: its first model is learnt in slices (none
        // where nothing is evidence yet: the feed's first pages, before any rule or label).
        if (evidenceSince(tx, NO_MARKS)) void this.run({ kind: "afresh", byPerson: false });
        return 0;
      }
      const pending = pendingSince(tx, this.standing);
      if (pending.changes > CHANGES_CAUGHT_UP_AT_ONCE) void this.run(this.workFor(this.standing, pending));
      else this.standing = currentModel(tx, this.standing);
    }
    const standing = this.standing;
    if (!standing) return 0;
    // A small model refits in place (milliseconds), as a read does: its few lines' new keys weigh much.
    if (!this.learning && standing.model.refitDue() !== null && standing.model.size <= FRESH_READS_UP_TO) {
      standing.model.refitIfStale();
      keepCalibration(tx, standing.model);
    }
    const heldBack = this.heldBack(tx);
    if (!heldBack) return 0;
    if (!this.learning && standing.model.refitDue() === "now") void this.run({ kind: "refit", byPerson: true });
    this.readSharedPrior(tx, standing.model);
    return decideByModel(tx, standing.model, bandFloor, at, lines, heldBack);
  }

  /**
   * The lines the standing fit must leave alone, as a test of their keys: those that may
   * name the merchant of a person's change it has not learnt (in its evidence or still in
   * the ledger only). None where it has learnt every one. Null where the caller must wait
   * for a fit instead: none stands, or one small enough to refit at once, or more such
   * changes than `HELD_BACK_AT_MOST`. A large book learnt for rules' decisions or new lines
   * with no fit standing (its first model, after a run of the rules) holds back every line:
   * nothing waited for that learning before the person's change either.
   */
  private heldBack(db: LedgerHandle): ((key: string) => boolean) | null {
    const standing = this.standing;
    if (!standing || standing.model.fittedVersion === null) {
      return this.learning && !this.learning.byPerson && marksNow(db).throughLine > FRESH_READS_UP_TO ? () => true : null;
    }
    const unfitted = standing.model.unfittedPersonKeys();
    const inLedger = personDecidedKeysSince(db, standing, HELD_BACK_AT_MOST);
    if (unfitted.length === 0 && inLedger?.length === 0) return () => false;
    if (standing.model.size <= FRESH_READS_UP_TO || !inLedger || unfitted.length + inLedger.length > HELD_BACK_AT_MOST) return null;
    return standing.model.holdsBack([...unfitted, ...inLedger]);
  }

  private sharedPrior(db: LedgerHandle): SharedPrior | null {
    if (this.shared === undefined) this.shared = keptSharedPrior(db);
    return this.shared;
  }

  /** Has the model read the prior the tenant opted in to, or none; the tenant's categories are read only where there is one. */
  private readSharedPrior(db: LedgerHandle, model: LocalModel): void {
    const prior = this.sharedPrior(db);
    model.useSharedPrior(prior, prior ? sharedNamesOf(db, model) : undefined);
  }

  /** The tenant's choice or its copy of the pooled prior changed: the next decision reads it again. */
  sharedPriorChanged(): void {
    this.shared = undefined;
  }

  /**
   * What the model learnt from a transaction that rolled back is forgotten with it (the
   * ledger's kept evidence rolled back too); learning under way takes the kept model again.
   */
  forget(): void {
    this.standing = undefined;
  }

  /** The work due now: a person's change, or (`all`) anything stale. Restores the kept model first (one step). */
  private nextWork(all: boolean): Work | null {
    this.standing ??= restoreKept(this.db);
    const standing = this.standing;
    // None kept: learnt afresh once a person has decided a line (a tenant whose rules decide
    // every line learns its first model at the first line they leave, in `decide`).
    if (!standing) return personDecidedSince(this.db, NO_MARKS) ? { kind: "afresh", byPerson: true } : null;
    const pending = pendingSince(this.db, standing);
    if (pending.changes > CHANGES_CAUGHT_UP_AT_ONCE) return all || pending.byPerson ? this.workFor(standing, pending) : null;
    const current = pending.changes > 0 ? (this.standing = currentModel(this.db, standing)) : standing;
    const due = current.model.refitDue();
    return due === "now" || (due === "soon" && all) ? { kind: "refit", byPerson: due === "now" } : null;
  }

  private workFor(standing: TrainedModel, pending: { changes: number; byPerson: boolean }): Work {
    return { kind: learnsAfreshFor(pending, standing) ? "afresh" : "catch-up", byPerson: pending.byPerson };
  }

  /** Runs one piece of work in slices, the only one under way; a failure is logged, and the next `ready` starts again. */
  private run(work: Work): Promise<void> {
    if (this.learning) return this.learning.done;
    const learning: Learning = { done: Promise.resolve(), marks: marksNow(this.db), byPerson: work.byPerson };
    learning.done = (async () => {
      await this.pause();
      if (work.kind === "afresh") {
        learning.marks = marksNow(this.db);
        this.standing = await learnAfreshInSlices(this.db, this.pause);
        return;
      }
      // The standing model again: a transaction that rolled back meanwhile dropped it.
      const standing = (this.standing ??= restoreKept(this.db));
      if (!standing) return;
      if (work.kind === "catch-up") {
        learning.marks = marksNow(this.db);
        this.standing = await catchUpInSlices(this.db, standing, this.pause);
      } else {
        // A refit learns the standing evidence only: what came after its marks is the next catch-up's.
        learning.marks = marksOf(standing);
        await refitInSlices(this.db, standing, this.pause);
      }
    })()
      .then(() => {
        this.failedLast = false;
      })
      .catch((error: unknown) => {
        console.error("the local model's learning in slices failed; the next sync starts it again:", error);
        this.standing = undefined;
        this.failedLast = learning.failed = true;
      })
      .finally(() => {
        if (this.learning === learning) this.learning = undefined;
      });
    this.learning = learning;
    return learning.done;
  }
}

/**
 * Up to this many examples a refit costs a read a few milliseconds (measured: about 5 ms at
 * 5,000), so a read refits in place; beyond, in slices (0.1-0.4 s at 100,000 lines).
 */
export const FRESH_READS_UP_TO = 5_000;

/**
 * A fit that has not learnt persons' changes to at most this many lines decides the lines
 * that name none of their merchants; more (a person's bulk relabel), and a transaction
 * waits for the refit.
 */
export const HELD_BACK_AT_MOST = 500;

const NO_MARKS: Marks = { throughSeq: 0, throughEvent: 0, throughLine: 0 };

/**
 * The tenant's categories by their shared names (`sharedCategoryName`), what the shared
 * prior's categories are read as: its live taxonomy's, and those its model learnt from its
 * labels (the taxonomy's spelling first where two fold alike).
 */
function sharedNamesOf(db: LedgerHandle, model: LocalModel): Map<string, string> {
  const names = new Map<string, string>();
  for (const name of [...taxonomy(db).map((entry) => entry.name), ...model.labelledCategories]) {
    const shared = sharedCategoryName(name);
    if (!names.has(shared)) names.set(shared, name);
  }
  return names;
}

interface Work {
  kind: "afresh" | "catch-up" | "refit";
  byPerson: boolean;
}
