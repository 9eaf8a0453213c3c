/**
 * Lines the model never decides however sure its calibration is (`heldBelowBy`): they wait
 * for a person or a rule, and the review page says why (docs/decisions.md, "The
 * classifier"). The fit (fit.ts) measures each line's history, and holds the line at
 * `HELD_CEILING` at most where this says so (a line whose money goes a new way at
 * `NEW_DIRECTION_CEILING`).
 */
import { atMost, CHANCE } from "./chance";
import { keyParts, namesNobody, transferAccounts } from "./features";
import type { MerchantHistory, Tally } from "./history";
import { sellsManyKinds, type Reading } from "./many-kinds";

/**
 * The most a line held below the band may be (`heldBelowBy`): below the default duh band
 * however sure the calibration is of its other words, whatever it says below that.
 */
export const HELD_CEILING = 0.9;

/**
 * The most a line whose money goes a new way may be (`new-direction`): an even chance. The
 * category it is given is one whose examples of its merchant all went the other way, and
 * no example says where such money goes: a refund filed where the purchase was, or a
 * customer who shares a supplier's name. On styles never trained on, at 1,000 labels, such
 * lines at 0.8-0.9 were right none of 300 times (docs/model-evaluation.md, "Held lines read
 * by a constant of their own").
 */
export const NEW_DIRECTION_CEILING = 0.5;

/** The most a line held below the band for this reason may be. */
export const ceilingOf = (held: HeldBelow | null) => (held === "new-direction" ? NEW_DIRECTION_CEILING : held ? HELD_CEILING : 1);

/** Why a line is held below the band whatever the calibration says (`heldBelowBy`). */
export type HeldBelow = "names-no-party" | "new-direction" | "new-account" | "split-history" | "sells-many-kinds";

/**
 * A view of a merchant's history splits where fewer of its lines than this went the chosen
 * category's way: more than about one in seven went elsewhere, which no view can outvote
 * into a band of 95%. A view a little short of whole (11 lines of 12) is most often another
 * party sharing the merchant's word, which the regression tells apart by the line's other
 * words; a split is the merchant's own.
 */
const SPLIT = 0.85;
const splits = ({ agree, lines }: Tally) => lines > 0 && agree < SPLIT * lines;

/** A merchant's examples fewer than this, all from other accounts than the line's, say nothing of it (`new-account`). */
const FEW_FROM_OTHER_ACCOUNTS = 3;

/**
 * Whether a view of a split merchant's history (its lines in the line's amount band, or in
 * its account) tells the line apart: the view does not split, and its lines went the chosen
 * category's way so much more often than the merchant's did that the merchant's split alone
 * would give such a run less often than `chance` (`CHANCE` unless said). Five lines of
 * five on the credit card where the merchant's seventeen went five to twelve separate
 * (0.2%); nine of ten in a band where its sixteen went thirteen to three do not (41%).
 */
function separates(view: Tally, merchant: Tally, chance = CHANCE): boolean {
  if (view.lines === 0 || splits(view)) return false;
  return atMost(view.lines - view.agree, view.lines, 1 - merchant.agree / merchant.lines) < chance;
}

/**
 * Whether a merchant's history splits where nothing on the line tells it apart: its lines
 * split, and neither its lines in the line's amount band nor those in its account separate
 * the line; or the merchant's lines are a part of the name's (`whole`), which split, and
 * neither that part nor those views of it separate the line from them.
 * `doubt`: lines counted as gone elsewhere before any was (a store that sells many kinds of
 * things, `MANY_KINDS_DOUBT`).
 */
function splitForTheLine(history: MerchantHistory, doubt = 0): boolean {
  const merchant = { agree: history.merchant.agree, lines: history.merchant.lines + doubt };
  if (splits(merchant)) return !separates(history.band, merchant) && !separates(history.account, merchant);
  // The merchant's lines that agree are a part of the name's, which split: the part may agree by chance.
  const { whole } = history;
  if (whole === null || !splits(whole)) return false;
  // The part was chosen as the one of several that agrees best: its run must be rarer than chance by as many.
  const chance = CHANCE / Math.max(1, history.chosenAmong);
  return !separates(history.merchant, whole, chance) && !separates(history.band, whole) && !separates(history.account, whole);
}

/**
 * A store that sells many kinds of things (many-kinds.ts) is read as if two of its lines
 * had gone elsewhere before any label: twelve agreeing labels outweigh that (12 of 14 is
 * not a split), or its band's or account's lines separate a line as they would a split.
 */
const MANY_KINDS_DOUBT = 2;

/**
 * Why a line waits for a person or a rule however sure the calibration is, or null:
 * - "names-no-party", its text names no party the examples show:
 *   - a check printed as its number alone (`namesNobody`): every check the business wrote
 *     is one history, whoever each paid, and the next may pay someone none of them did (a
 *     supplier paid by check for the first time); the text cannot tell, so a person or a
 *     rule decides it, however many checks agreed;
 *   - a transfer to an account no example shows: its words are the channel's (`INTERNET
 *     BANKING TRANSFER WITHDRAWAL`), which the regression may be sure of from the
 *     tenant's other transfers, and which say nothing of who owns that account;
 * - "new-direction", its money goes the way no example of its merchant's went: money in
 *   from a name every example paid (a refund, or a customer who shares a supplier's name:
 *   `ROBINSON HOLDING` the landlord and `ROBINSON HOLDING` paying an invoice), or money out
 *   to one that only ever paid in (a processor's fee beside its payouts). The merchant's
 *   history speaks of the other direction only;
 * - "new-account", its merchant's examples are fewer than `FEW_FROM_OTHER_ACCOUNTS` and none
 *   was paid from the line's account: a store bought from with the business's card for
 *   supplies may be bought from with the owner's for the house, and one or two labels from
 *   one account cannot say it is not (a merchant taught so on three lines or more is judged
 *   by the calibration, its account's empty history an input of it);
 * - "split-history", its merchant's lines went to several categories and nothing on the line
 *   tells which: the merchant's lines split (`splits`), and neither those in the line's
 *   amount band nor those in its account tell the line apart (`separates`: a hardware store
 *   bought from for materials and for the owner, at any price, on either card). The
 *   regression, which learns each of the merchant's few examples by its amounts and codes,
 *   may be sure of a line its history is not. Where the band or the account separates the
 *   line, the calibration judges how far. Where a word or pair narrower than the line's
 *   name speaks for the merchant, it is judged against all the name's lines too
 *   (`Withdrawal POS #085569672213 THE`: two lines of THE HOME DEPOT cut so, agreeing, tell
 *   nothing where the store's forty split; `VISA DDA PUR 979029 PEREZ BROS`, one of one,
 *   where the store's three went two to one);
 * - "sells-many-kinds", the line names a store that sells many kinds of things
 *   (many-kinds.ts: a chain such as Walmart, Costco, Amazon's marketplace or Home Depot, or a
 *   store whose name says its kind, `PEREZ HARDWARE`), or its merchant's examples mostly do
 *   (a line cut before the name), and its labels are not yet enough to say which this line
 *   is (`MANY_KINDS_DOUBT`), or no label shows the store. `reading`: whether the line was
 *   cut at its bank's width, and the tenant's words, which may be glued to such a name.
 */
export function heldBelowBy(key: string, history: MerchantHistory | null, reading: Reading = {}): HeldBelow | null {
  const { description, name } = keyParts(key);
  if (namesNobody(description, name) || (!history && transferAccounts(description).length > 0)) return "names-no-party";
  if (history && history.direction.lines === 0) return "new-direction";
  if (history && history.account.lines === 0 && history.merchant.lines < FEW_FROM_OTHER_ACCOUNTS) return "new-account";
  if (history && splitForTheLine(history)) return "split-history";
  if ((sellsManyKinds(description, name, reading) || history?.ofManyKinds) && (!history || splitForTheLine(history, MANY_KINDS_DOUBT))) return "sells-many-kinds";
  return null;
}
