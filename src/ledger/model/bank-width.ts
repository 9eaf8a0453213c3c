/**
 * A bank's width: where it cuts its lines' text (a credit union's 32 characters, a bank's
 * 40), read from the tenant's own feed. A line cut there may end in the beginning of a word
 * (`POS Withdrawal SCOTT FAMILY MARK`, `Withdrawal POS #372993959755 TRA`), which
 * many-kinds.ts reads as the store that word begins; a line that ends so short of the width
 * ends in a word of its own (`Zelle payment to SMITH MARK`, `MONTHLY SERVICE FEE`).
 *
 * Read per account (a credit union's checking account and a card issuer's card print
 * differently). Where a bank cuts, its longer lines pile up at the width and none is much
 * longer: the most common length of the account's line keys' descriptions (canonical
 * text, features.ts, whose lengths are the printed ones or a little less) holds at least
 * `PILED` of them, and at most `BEYOND` are longer than it by more than `CUT_SLACK`. Feeds
 * that print the whole name spread their lengths (in the evaluation's styles, no length
 * holds more than 15% of the keys).
 */
import type { Corpus } from "./evidence";
import { keyParts } from "./features";
import { STEP_WORK } from "./steps";

/** A line within this many characters of the width is cut there (the canonical text drops a `#`, folds spaces). */
export const CUT_SLACK = 2;
/** The share of the line keys the most common length holds where the bank cuts there. */
const PILED = 0.2;
/** The share of the line keys that may be longer than the width by more than `CUT_SLACK` (an account's other bank, a memo). */
const BEYOND = 0.05;
/** Too few of an account's line keys show no width; nor does a length too short to have been cut. */
const FEWEST_KEYS = 50;
const NARROWEST = 20;

/** Each account's width, where its bank cuts its lines (accounts at other banks print theirs whole). */
export type Widths = ReadonlyMap<string, number>;

/** A line key's length read, in the work units of `STEP_WORK`. */
const KEY_LENGTH_WORK = 50;

/**
 * The width at which each account's bank cuts the descriptions of these lines, for the
 * accounts whose bank does: yields every `STEP_WORK` of reading, as the fit does.
 */
export function* bankWidthsInSteps(corpus: Corpus): Generator<void, Map<string, number>> {
  const byAccount = new Map<string, Map<number, number>>();
  let work = 0;
  for (const key of corpus.lines.keys()) {
    if ((work += KEY_LENGTH_WORK) >= STEP_WORK) {
      work = 0;
      yield;
    }
    const { description, account } = keyParts(key);
    let byLength = byAccount.get(account);
    if (!byLength) byAccount.set(account, (byLength = new Map()));
    byLength.set(description.length, (byLength.get(description.length) ?? 0) + 1);
  }
  const widths = new Map<string, number>();
  for (const [account, byLength] of byAccount) {
    const width = widthOf(byLength);
    if (width !== null) widths.set(account, width);
  }
  return widths;
}

/** The width that these line keys' description lengths (length -> keys) pile up at, or null. */
function widthOf(byLength: ReadonlyMap<number, number>): number | null {
  let keys = 0;
  for (const count of byLength.values()) keys += count;
  if (keys < FEWEST_KEYS) return null;
  let width = 0;
  for (const [length, count] of byLength) if (count > (byLength.get(width) ?? 0) || (count === byLength.get(width) && length > width)) width = length;
  if (width < NARROWEST || byLength.get(width)! < PILED * keys) return null;
  let beyond = 0;
  for (const [length, count] of byLength) if (length > width + CUT_SLACK) beyond += count;
  return beyond <= BEYOND * keys ? width : null;
}

/** Whether a line key's description was cut at its account's bank's width. */
export function cutAt(key: string, widths: Widths): boolean {
  const { description, account } = keyParts(key);
  const width = widths.get(account);
  return width !== undefined && description.length >= width - CUT_SLACK;
}
