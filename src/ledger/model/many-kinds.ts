/**
 * Stores that sell many kinds of things: where a small business buys stock, materials or
 * office supplies and its owner does the household's shopping, on the same card, at the
 * same prices. What a bookkeeper knows before any label: their first few labels agreeing
 * tell little of the next line (two office-supply trips to Walmart, then the owner's
 * groceries), so the model holds their lines below the band until the tenant's own labels
 * of the store are many (held-below.ts, "sells-many-kinds"). A rule decides them at once.
 *
 * Two kinds of name say so: the national chains (general merchandise, warehouse clubs,
 * marketplaces, home improvement, grocers, pharmacies), and the words a store's own name
 * uses to say what it is (`PEREZ HARDWARE`, `COASTAL RIVER GENERAL STORE`, `MEMPHIS FARM &
 * HOME`, `NGUYEN FAMILY MARKET`). Product knowledge, not the tenant's data: a town's store
 * whose name says nothing of its kind (`THE MILL`, `OKAFOR & SONS`) is judged by its own
 * history alone (docs/decisions.md, "The classifier").
 */

/**
 * Each chain as the words of the model's canonical text (features.ts `canonicalText`: lower
 * case, punctuation as spaces), as banks and aggregators print it. Amazon by its retail
 * marketplace's descriptors only: `AMAZON WEB SERVICES` is a hosting bill.
 */
const CHAINS = [
  "walmart", "wal mart", "wm supercenter", "sams club", "sam s club", "samsclub",
  "target", "costco", "bjs wholesale", "bj s wholesale", "meijer",
  "amzn mktp", "amzn com", "amazon com", "amazon mktplace", "amazon mktpl", "amazon marketplace",
  "ebay", "etsy",
  "home depot", "homedepot", "lowes", "lowe s", "menards", "ace hardware",
  "trader joe", "whole foods", "wholefds", "kroger", "safeway", "publix", "albertsons", "aldi", "wegmans", "h e b",
  "cvs", "walgreens", "rite aid", "dollar general", "dollar tree", "family dollar",
  "best buy", "ikea",
];

/**
 * The words a store's name uses for a kind of store that sells many kinds of things, as
 * patterns over the canonical text. A market that is a street (`MARKET ST`) or an account
 * (`MONEY MARKET`) is not a store. A supplier that names itself so (`MILLER HARDWARE &
 * SUPPLY` selling only materials) waits for its dozen labels, or a rule: the safe way round.
 */
const KINDS = [
  "hardware", "hdwe",
  "general store", "gen store", "general merchandise", "mercantile", "variety store", "dollar store",
  "farm home", "farm and home", "farm ranch", "farm supply", "feed seed",
  "(?<!money )market(?! st | street | pl )", "mkt", "supermarket", "grocery", "groceries", "grocer",
  "pharmacy", "drug store", "drugstore", "drugs",
  "department store", "dept store",
];

const PATTERN = new RegExp(` (?:${[...CHAINS, ...KINDS].join("|")}) `);

/** The chains' and kinds' names as plain text (the kinds' patterns without their lookarounds). */
const NAMES = [...CHAINS, ...KINDS.map((kind) => kind.replace(/\(\?<?[=!][^)]*\)/g, ""))];

/**
 * The beginnings of the chains' and kinds' names that end inside a word, as a line cut at
 * its bank's width ends (`trader jo`, `tra`, `family mark` of `family market`, `gener` of
 * `general store`): the cut word of three letters or more, or of one where a whole word of
 * the name is before it (`home d`, `trader j`). Whole words are `PATTERN`'s.
 */
const BEGINNINGS: ReadonlySet<string> = (() => {
  const beginnings = new Set<string>();
  for (const name of NAMES) {
    for (let end = 1; end < name.length; end++) {
      if (!/[a-z]/.test(name[end - 1]!) || !/[a-z]/.test(name[end]!)) continue;
      const begun = name.slice(0, end);
      const cutWord = begun.length - begun.lastIndexOf(" ") - 1;
      if (cutWord >= 3 || (begun.includes(" ") && cutWord >= 1)) beginnings.add(begun);
    }
  }
  return beginnings;
})();

/** Whether a description ends in the beginning of a chain's or a kind's name, cut inside its word (`BEGINNINGS`). */
function endsInABeginning(description: string): boolean {
  for (let at = description.length; at > 0; ) {
    at = description.lastIndexOf(" ", at - 1);
    if (BEGINNINGS.has(description.slice(at + 1))) return true;
  }
  return false;
}

/** A name's last word of four letters or more (the longest first) glued to more letters, as a network's fixed columns glue it to the next field (`MARKETSAN DIEGO CA`). */
const GLUED = new RegExp(`(?<= |^)(${[...new Set(NAMES.map((name) => name.slice(name.lastIndexOf(" ") + 1)).filter((word) => word.length >= 4))].sort((a, b) => b.length - a.length).join("|")})([a-z]{2,})(?= |$)`, "g");
/** What English adds to a word to make another word (`MARKETING`, `MARKETPLACE`): never a field glued on. */
export const ENDINGS: ReadonlySet<string> = new Set(["s", "es", "ed", "er", "ers", "ing", "ings", "place", "places"]);

/** The description with each name's last word glued to a word of the tenant's lines (`isWord`) read apart (`marketsan` as `market san`). */
const unglued = (description: string, isWord: (word: string) => boolean) =>
  description.replace(GLUED, (glued: string, last: string, rest: string) => (!ENDINGS.has(rest) && isWord(rest) ? `${last} ${rest}` : glued));

/** How a line's description is read beyond its words: whether it was cut at its bank's width (bank-width.ts), and which words are the tenant's lines'. */
export interface Reading {
  cut?: boolean;
  isWord?: (word: string) => boolean;
}

/**
 * Whether a line's text (its description or the aggregator's merchant name, as the model
 * keeps them) names a chain or a kind of store that sells many kinds of things: where its
 * description was cut at its bank's width (`cut`), ending in the beginning of such a name
 * (`POS Withdrawal SCOTT FAMILY MARK`; a line that ends so short of the width ends in a
 * word of its own, `Zelle payment to SMITH MARK`); and read with such a name's last word
 * glued to a word of the tenant's lines (`isWord`: `SCOTT FAMILY MARKETSAN DIEGO CA`, a
 * network's fixed columns).
 */
export function sellsManyKinds(description: string, merchantName: string, { cut = false, isWord }: Reading = {}): boolean {
  if (PATTERN.test(` ${description} `) || (merchantName !== "" && PATTERN.test(` ${merchantName} `)) || (cut && endsInABeginning(description))) return true;
  return isWord !== undefined && PATTERN.test(` ${unglued(description, isWord)} `);
}
