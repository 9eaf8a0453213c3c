/**
 * Landing the feed's pages in the books: each page applied (feed-pages.ts) and, in the
 * same transaction, the rulebook then the local model decide the page's new lines that
 * nobody has (the tail comes after, from the watcher), so a page never lands without its
 * decisions. Only the page's lines: earlier lines were offered to both when they arrived,
 * so a page costs what it carries, not what the vault holds.
 */
import { undecidedLines } from "../books/undecided";
import type { ModelKeeper } from "../model/model-keeper";
import { decideByRules } from "../rules/matching";
import { standingRules } from "../rules/rulebook";
import type { LedgerDb } from "../store/db";
import type { FeedPage } from "../../providers/bank/types";
import { applyFeedPage, type PageOutcome } from "./feed-pages";

export interface LandedPage extends PageOutcome {
  decidedByRules: number;
  decidedByModel: number;
}

export interface Landing {
  db: LedgerDb;
  model: ModelKeeper;
  connectionId: number;
  /** The duh band's floor in force: the model decides a line at this confidence or above. */
  bandFloor: number;
  at: string;
}

export function landFeedPage({ db, model, connectionId, bandFloor, at }: Landing, page: FeedPage): LandedPage {
  let decidedByRules = 0;
  let decidedByModel = 0;
  try {
    const outcome = applyFeedPage(db, connectionId, page, at, (tx, newerThan) => {
      decidedByRules = decideByRules(tx, undecidedLines(tx, { newerThan }), standingRules(tx), at);
      decidedByModel = model.decide(tx, undecidedLines(tx, { newerThan }), bandFloor, at);
    });
    return { ...outcome, decidedByRules, decidedByModel };
  } catch (error) {
    // The model may have learnt from this page's rule decisions, which are rolled back.
    model.forget();
    throw error;
  }
}

/**
 * Several pages in one transaction (`inTransaction`), each landed as it would be alone:
 * one commit for thousands of lines instead of one a page (docs/performance.md). If one
 * fails, none of them lands.
 */
export function landFeedPages(landing: Landing, pages: FeedPage[], inTransaction: <T>(work: () => T) => T): LandedPage[] {
  try {
    return inTransaction(() => pages.map((page) => landFeedPage(landing, page)));
  } catch (error) {
    // The model may have learnt from the earlier pages' rule decisions, now rolled back.
    landing.model.forget();
    throw error;
  }
}
