/**
 * Long work in the tenant's object done in slices: between slices the object answers other
 * calls, so no read waits for the whole of it (docs/decisions.md: run_rules, the model).
 */
import type { LedgerHandle } from "./store/db";
import { newestLineId } from "./feed/feed-pages";

/** What lets the object answer other calls between two slices (`scheduler.wait(0)` in the object). */
export type Pause = () => Promise<unknown>;

/** Visits the side-A lines in ranges of `size` ids, (after, upTo], up to the newest, with `pause()` between ranges. */
export async function inLineRanges(db: LedgerHandle, size: number, pause: Pause, visit: (after: number, upTo: number) => void): Promise<void> {
  const lastLine = newestLineId(db);
  for (let after = 0; after < lastLine; after += size) {
    if (after > 0) await pause();
    visit(after, after + size);
  }
}
