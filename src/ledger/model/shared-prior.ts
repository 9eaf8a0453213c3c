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
 *
 * Where the tenant's labels show nothing of a line's merchant (a new tenant's first lines,
 * a merchant new to it), the others' category is suggested (`sharedGuess`): the category
 * most of them file the merchant under, named as they name it (`sharedCategoryName`:
 * businesses' taxonomies differ, and a name is shared only where at least
 * `SHARED_PRIOR_TENANTS` of them file the merchant under it), where the tenant has a
 * category of that name, as sure as the rule of succession over the tenants that keep the
 * name makes it: of the businesses that keep `Taxes & licenses`, how many file the IRS
 * there. It never decides a line: a business files now and then one merchant where others
 * never do, which no count of the others can tell (docs/decisions.md).
 */
import { catKeyOf } from "../books/categories";
import { byText, type Examples } from "./evidence";
import { isLastFour, isLetters, isNameWord, keyParts, nameWords } from "./features";
import type { MerchantHistory } from "./history";

/** What the tenants that opted in say of one merchant word. */
export interface SharedMerchant {
  /** How many tenants have at least `CONTRIBUTED_LINES` labelled lines of it. */
  tenants: number;
  /** The mean, over those tenants, of the share of its lines in its most frequent category. */
  agreement: number;
  /** The category most of them file it under (`sharedCategoryName`), where at least `SHARED_PRIOR_TENANTS` do; null otherwise. */
  category: string | null;
  /** How many of them file it under `category` (0 without one). */
  categoryTenants: number;
  /** How many of them have a category of that name, wherever they file the merchant (0 without one). */
  namingTenants: number;
}

/** Merchant word -> what the tenants that opted in say of it; only words at least `SHARED_PRIOR_TENANTS` tenants have. */
export type SharedPrior = ReadonlyMap<string, SharedMerchant>;

/**
 * A merchant word a tenant contributes: the share of its labelled lines in their most
 * frequent category, and that category's shared name where it holds at least `FILED_UNDER`
 * of them (null otherwise).
 */
export interface ContributedWord {
  word: string;
  agreement: number;
  category: string | null;
}

/** One tenant's part in the prior: its merchant words, and the shared names of its categories. */
export interface Contribution {
  words: ContributedWord[];
  categories: string[];
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
/** A tenant files a merchant under a category when at least this share of its labelled lines are there. */
const FILED_UNDER = 0.9;

/**
 * A category's name as tenants share it: `Meals & Entertainment`, `meals and entertainment`
 * and `Meals and Entertainment` are one name; `Meals` is another.
 */
export function sharedCategoryName(name: string): string {
  return catKeyOf(name.replace(/&/g, " and "));
}

/** A word or an account's last four beside a name (numbers, codes' shapes aside: they change from line to line). */
const isNeighbour = (token: string) => isLetters(token) || isLastFour(token);

/**
 * What a tenant contributes: each word of letters in its examples' descriptions that names
 * one merchant there (`ONE_MERCHANT`) on at least `CONTRIBUTED_LINES` labelled lines, with
 * the share of those lines in their most frequent category; and the shared names of its
 * categories (`categories`, its taxonomy's, and those its examples name).
 */
export function contribution(examples: Examples, categories: Iterable<string> = []): Contribution {
  const names = new Set([...categories].map(sharedCategoryName));
  const perWord = new Map<string, { categories: Map<string, number>; beside: Map<string, number> }>();
  for (const [key, perCategory] of examples) {
    for (const [category] of perCategory) names.add(sharedCategoryName(category));
    const tokens = keyParts(key).description.split(" ");
    const seen = new Set<string>();
    tokens.forEach((word, i) => {
      if (!isNameWord(word) || seen.has(word)) return;
      seen.add(word);
      const beside = [tokens[i - 1], tokens[i + 1]].map((t) => (t && isNeighbour(t) ? t : "")).join(" ");
      let entry = perWord.get(word);
      if (!entry) perWord.set(word, (entry = { categories: new Map(), beside: new Map() }));
      for (const [category, lines] of perCategory) {
        entry.categories.set(category, (entry.categories.get(category) ?? 0) + lines);
        entry.beside.set(beside, (entry.beside.get(beside) ?? 0) + lines);
      }
    });
  }
  const words: ContributedWord[] = [];
  for (const [word, { categories, beside }] of perWord) {
    const lines = sum(categories.values());
    if (lines < CONTRIBUTED_LINES || Math.max(...beside.values()) < ONE_MERCHANT * lines) continue;
    const [top, most] = mostOf(categories);
    const agreement = most / lines;
    words.push({ word, agreement, category: agreement >= FILED_UNDER ? sharedCategoryName(top) : null });
  }
  return { words: words.sort((a, b) => byText(a.word, b.word)), categories: [...names].sort(byText) };
}

/** Pools tenants' contributions (one per tenant) into the prior: only the words at least `SHARED_PRIOR_TENANTS` of them have. */
export function pool(contributions: readonly Contribution[]): SharedPrior {
  const perWord = new Map<string, { tenants: number; agreement: number; filed: Map<string, number>; names: Set<string>[] }>();
  for (const { words, categories } of contributions) {
    const names = new Set(categories);
    for (const { word, agreement, category } of words) {
      const entry = perWord.get(word) ?? { tenants: 0, agreement: 0, filed: new Map<string, number>(), names: [] };
      entry.tenants++;
      entry.agreement += agreement;
      entry.names.push(names);
      if (category !== null) entry.filed.set(category, (entry.filed.get(category) ?? 0) + 1);
      perWord.set(word, entry);
    }
  }
  const prior = new Map<string, SharedMerchant>();
  for (const [word, { tenants, agreement, filed, names }] of perWord) {
    if (tenants < SHARED_PRIOR_TENANTS) continue;
    const [category, categoryTenants] = filed.size > 0 ? mostOf(filed) : ["", 0];
    const named = categoryTenants >= SHARED_PRIOR_TENANTS;
    prior.set(word, {
      tenants,
      agreement: agreement / tenants,
      category: named ? category : null,
      categoryTenants: named ? categoryTenants : 0,
      namingTenants: named ? names.filter((n) => n.has(category)).length : 0,
    });
  }
  return prior;
}

/**
 * How sure the others' category is for a tenant that keeps a category of its name: the rule
 * of succession over the tenants that keep the name (how many of them file the merchant
 * there), times their mean agreement on the merchant's lines.
 */
export function othersConfidence({ categoryTenants, namingTenants, agreement }: SharedMerchant): number {
  return namingTenants === 0 ? 0 : ((categoryTenants + 0.5) / (namingTenants + 1)) * agreement;
}

/**
 * What the others say a line is, where the tenant's own labels show nothing of its
 * merchant: the category they file it under (the one the tenant names so in
 * `categories`, shared name -> the tenant's category), as sure as `othersConfidence` says. Every word of the line the prior holds must say the same
 * category: a word the others split (`UBER` in `UBER *EATS`) or file where the tenant has no
 * category of the name leaves the line to the tenant. Null where nothing is said.
 */
export function sharedGuess(key: string, prior: SharedPrior, categories: ReadonlyMap<string, string>): { category: string; confidence: number } | null {
  let guess: { category: string; confidence: number } | null = null;
  for (const word of nameWords(keyParts(key).description)) {
    const shared = prior.get(word);
    if (!shared) continue;
    const category = shared.category === null ? undefined : categories.get(shared.category);
    if (category === undefined || (guess && guess.category !== category)) return null;
    const confidence = othersConfidence(shared);
    if (!guess || confidence > guess.confidence) guess = { category, confidence };
  }
  return guess;
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

/** The entry with the most, the first by name among equals. */
function mostOf(counts: ReadonlyMap<string, number>): [string, number] {
  return [...counts].reduce((a, b) => (b[1] > a[1] || (b[1] === a[1] && b[0] < a[0]) ? b : a));
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
