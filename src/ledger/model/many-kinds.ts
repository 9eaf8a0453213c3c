/**
 * Stores that sell many kinds of things: the national chains where a small business buys
 * stock, materials or office supplies and its owner does the household's shopping, on the
 * same card, at the same prices (general merchandise, warehouse clubs, marketplaces, home
 * improvement, grocers, pharmacies). What a bookkeeper knows before any label: their first
 * few labels agreeing tell little of the next line (two office-supply trips to Walmart, then
 * the owner's groceries), so the model holds their lines below the band until the tenant's
 * own labels of the store are many (held-below.ts, "sells-many-kinds"). A rule decides them at once.
 *
 * Product knowledge, not the tenant's data: it names chains, never a tenant's merchant, and
 * a store it does not name (a town's hardware store) is judged by its own history alone
 * (docs/decisions.md, "The classifier").
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

const PATTERN = new RegExp(` (?:${CHAINS.join("|")}) `);

/** Whether a line's text (its description or the aggregator's merchant name, as the model keeps them) names one of the chains. */
export function sellsManyKinds(description: string, merchantName: string): boolean {
  return PATTERN.test(` ${description} `) || (merchantName !== "" && PATTERN.test(` ${merchantName} `));
}
