/**
 * The review: the exceptions queue the longest-waiting first, each line with the local
 * model's suggestion (what it would say, and how sure it is, though below the duh band).
 */
import type { Face } from "../face";
import type { Suggestion } from "../model/suggestions";
import type { LedgerDb } from "../store/db";
import { listExceptions, type ExceptionRow } from "./exceptions";

export interface ReviewLine extends ExceptionRow {
  suggestion: Suggestion | null;
}

export interface ReviewPage {
  lines: ReviewLine[];
  /** Lines in the queue on the face. */
  total: number;
}

export function reviewQueue(
  db: LedgerDb,
  face: Face,
  page: number,
  perPage: number,
  suggest: (aIds: number[]) => Map<number, Suggestion>,
): ReviewPage {
  const { exceptions, total } = listExceptions(db, face, page, perPage, "oldest");
  const suggestions = suggest(exceptions.map((e) => e.a_id));
  return { lines: exceptions.map((e) => ({ ...e, suggestion: suggestions.get(e.a_id) ?? null })), total };
}
