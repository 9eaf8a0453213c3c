/**
 * The shared merchant prior (opt-in): what other businesses' labels say of how a merchant
 * splits. A hardware store, a warehouse club, a check: at most businesses their lines go to
 * more than one category, which a tenant's first two or three labels, all agreeing by
 * chance, cannot show. Pooled over the tenants that opted in, per merchant word, it holds
 * only how many of them have the merchant and how far their lines agree (the mean share of
 * their most frequent category): never a tenant's lines, labels, categories or amounts.
 *
 * It is read only where at least `SHARED_PRIOR_TENANTS` tenants have the merchant, and only
 * while a tenant's own labels of it all agree: once they show a split, the tenant's own
 * history (overall, in the line's amount band and in its account) is the evidence, as
 * without the prior. There, the line's confidence is at most what its labels say with the
 * others' agreement counted as `SHARED_PRIOR_LINES` more lines (`sharedCap`).
 */
import type { Examples } from "./evidence";
import { keyParts } from "./features";
import type { MerchantHistory } from "./history";

/** What the tenants that opted in say of one merchant word. */
export interface SharedMerchant {
  /** How many tenants have at least `CONTRIBUTED_LINES` labelled lines of it. */
  tenants: number;
  /** The mean, over those tenants, of the share of its lines in its most frequent category. */
  agreement: number;
}

/** Merchant word -> what the tenants that opted in say of it; only words at least `SHARED_PRIOR_TENANTS` tenants have. */
export type SharedPrior = ReadonlyMap<string, SharedMerchant>;

/** One tenant's part in the prior: a merchant word and the share of its labelled lines in their most frequent category. */
export interface Contribution {
  word: string;
  agreement: number;
}

/** A merchant is read from the prior only where at least this many tenants have it. */
export const SHARED_PRIOR_TENANTS = 5;
/** A tenant contributes a word once this many of its labelled lines have it. */
export const CONTRIBUTED_LINES = 5;
/** The others' agreement weighs as this many of the tenant's own lines. */
export const SHARED_PRIOR_LINES = 5;
/**
 * A word names one merchant in a tenant's book when at least this share of its lines have
 * the same words beside it: `MILLER` in `MILLER'S DELI` and `MILLER DENTAL` names two, and
 * their categories' differing says nothing of either; a bank's word beside every merchant
 * names none.
 */
const ONE_MERCHANT = 0.9;

/** A word a merchant may be named by: three letters or more (a state, an initial or a word cut short names nobody). */
const NAME_WORD = /^[a-z]{3,}$/;
/** A word or a masked account beside a name (numbers, codes' shapes aside: they change from line to line). */
const NEIGHBOUR = /^(?:[a-z]+|#[0-9]{4})$/;

/**
 * What a tenant's examples contribute: each word of letters in their descriptions that
 * names one merchant there (`ONE_MERCHANT`) on at least `CONTRIBUTED_LINES` labelled lines,
 * with the share of those lines in their most frequent category.
 */
export function contribution(examples: Examples): Contribution[] {
  const perWord = new Map<string, { categories: Map<string, number>; beside: Map<string, number> }>();
  for (const [key, perCategory] of examples) {
    const tokens = keyParts(key).description.split(" ");
    const seen = new Set<string>();
    tokens.forEach((word, i) => {
      if (!NAME_WORD.test(word) || seen.has(word)) return;
      seen.add(word);
      const beside = [tokens[i - 1], tokens[i + 1]].map((t) => (t && NEIGHBOUR.test(t) ? t : "")).join(" ");
      let entry = perWord.get(word);
      if (!entry) perWord.set(word, (entry = { categories: new Map(), beside: new Map() }));
      for (const [category, lines] of perCategory) {
        entry.categories.set(category, (entry.categories.get(category) ?? 0) + lines);
        entry.beside.set(beside, (entry.beside.get(beside) ?? 0) + lines);
      }
    });
  }
  const contributed: Contribution[] = [];
  for (const [word, { categories, beside }] of perWord) {
    const lines = sum(categories.values());
    if (lines < CONTRIBUTED_LINES || Math.max(...beside.values()) < ONE_MERCHANT * lines) continue;
    contributed.push({ word, agreement: Math.max(...categories.values()) / lines });
  }
  return contributed.sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
}

/** Pools tenants' contributions (one list per tenant) into the prior: only the words at least `SHARED_PRIOR_TENANTS` of them have. */
export function pool(contributions: readonly (readonly Contribution[])[]): SharedPrior {
  const perWord = new Map<string, { tenants: number; agreement: number }>();
  for (const tenant of contributions) {
    for (const { word, agreement } of tenant) {
      const entry = perWord.get(word) ?? { tenants: 0, agreement: 0 };
      entry.tenants++;
      entry.agreement += agreement;
      perWord.set(word, entry);
    }
  }
  const prior = new Map<string, SharedMerchant>();
  for (const [word, { tenants, agreement }] of perWord) if (tenants >= SHARED_PRIOR_TENANTS) prior.set(word, { tenants, agreement: agreement / tenants });
  return prior;
}

/**
 * The most a line's confidence may be by the prior: while the tenant's own labels of the
 * merchant all agree, what they say with the others' agreement counted as
 * `SHARED_PRIOR_LINES` more lines; 1 where the prior says nothing of the merchant or the
 * tenant's labels already show how it splits.
 */
export function sharedCap(history: MerchantHistory | null, prior: SharedPrior | null): number {
  if (!history?.name || !prior) return 1;
  const shared = prior.get(history.name);
  const { agree, lines } = history.merchant;
  if (!shared || shared.tenants < SHARED_PRIOR_TENANTS || agree < lines) return 1;
  return (agree + SHARED_PRIOR_LINES * shared.agreement) / (lines + SHARED_PRIOR_LINES);
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
