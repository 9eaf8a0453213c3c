/**
 * A seeded generator of realistic bank lines with their true categories, for the benchmarks
 * and the soak: a few hundred merchants across the five headers, printed in one text style
 * (processor prefixes, store numbers, card suffixes, cities, reference numbers, random
 * casing), recurring and one-off, with amounts of the right sign and size. The model's
 * evaluation prints its lines as thirteen banks do instead (bench/bank-text/).
 */

/** Mulberry32: small, fast, seedable. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface CategorySpec {
  category: string;
  header: "income" | "cogs" | "expense" | "draw" | "transfer";
  /** Money in (+) or out (-), and a typical size in dollars. */
  sign: 1 | -1;
  dollars: [number, number];
  stems: string[];
}

export const CATEGORIES: CategorySpec[] = [
  { category: "Sales", header: "income", sign: 1, dollars: [40, 4000], stems: ["STRIPE PAYOUT", "SQUARE DEPOSIT", "SHOPIFY PAYOUT", "CLIENT PAYMENT", "PAYPAL TRANSFER IN", "INVOICE PAYMENT", "ETSY DEPOSIT", "AMAZON MKTPLACE PMTS"] },
  { category: "Interest", header: "income", sign: 1, dollars: [0.05, 30], stems: ["INTEREST PAYMENT", "INTEREST EARNED"] },
  { category: "Inventory", header: "cogs", sign: -1, dollars: [80, 3000], stems: ["SYSCO FOODS", "ULINE", "GRAINGER", "RESTAURANT DEPOT", "COSTCO WHOLESALE", "US FOODS", "ALIBABA", "WEBSTAURANTSTORE"] },
  { category: "Packaging", header: "cogs", sign: -1, dollars: [20, 600], stems: ["PAPERMART", "PACKLANE", "NOISSUE", "ECOENCLOSE"] },
  { category: "Rent", header: "expense", sign: -1, dollars: [900, 6000], stems: ["OAKWOOD PROPERTIES", "REGUS", "WEWORK", "CENTURY PROPERTY MGMT"] },
  { category: "Software", header: "expense", sign: -1, dollars: [5, 300], stems: ["ADOBE", "GOOGLE GSUITE", "ZOOM.US", "SLACK", "DROPBOX", "INTUIT QUICKBOOKS", "MAILCHIMP", "GITHUB", "NOTION", "CANVA", "ATLASSIAN", "SHOPIFY SUBSCRIPTION"] },
  { category: "Meals", header: "expense", sign: -1, dollars: [6, 180], stems: ["BLUE BOTTLE COFFEE", "STARBUCKS", "CHIPOTLE", "SWEETGREEN", "PANERA BREAD", "JOE'S PIZZA", "DOORDASH", "UBER EATS", "GRUBHUB", "PHILZ COFFEE"] },
  { category: "Fuel", header: "expense", sign: -1, dollars: [25, 120], stems: ["SHELL OIL", "CHEVRON", "EXXONMOBIL", "BP", "ARCO", "VALERO", "76"] },
  { category: "Utilities", header: "expense", sign: -1, dollars: [40, 700], stems: ["PG&E", "COMCAST", "AT&T", "VERIZON WIRELESS", "WASTE MANAGEMENT", "CITY WATER DEPT"] },
  { category: "Insurance", header: "expense", sign: -1, dollars: [60, 900], stems: ["STATE FARM", "GEICO", "NEXT INSURANCE", "HISCOX", "THE HARTFORD"] },
  { category: "Advertising", header: "expense", sign: -1, dollars: [10, 1500], stems: ["FACEBK ADS", "GOOGLE ADS", "YELP ADS", "NEXTDOOR ADS", "LINKEDIN ADS"] },
  { category: "Bank fees", header: "expense", sign: -1, dollars: [2, 45], stems: ["MONTHLY SERVICE FEE", "WIRE FEE", "OVERDRAFT FEE", "STRIPE FEE"] },
  { category: "Office supplies", header: "expense", sign: -1, dollars: [8, 400], stems: ["STAPLES", "OFFICE DEPOT", "AMAZON.COM", "BEST BUY"] },
  { category: "Travel", header: "expense", sign: -1, dollars: [15, 1200], stems: ["UNITED AIRLINES", "DELTA AIR", "MARRIOTT", "HILTON HOTELS", "UBER TRIP", "LYFT RIDE", "AIRBNB"] },
  { category: "Owner draw", header: "draw", sign: -1, dollars: [100, 5000], stems: ["ATM WITHDRAWAL", "TRANSFER TO PERSONAL CHK", "ZELLE TO OWNER", "VENMO CASHOUT"] },
  { category: "Transfers", header: "transfer", sign: -1, dollars: [100, 10000], stems: ["ONLINE TRANSFER TO SAV", "TRANSFER TO CREDIT CARD", "AMEX EPAYMENT", "CHASE CARD PAYMENT"] },
];

const PREFIXES = ["", "", "", "SQ *", "TST* ", "PAYPAL *", "POS ", "DEBIT CARD PURCHASE ", "CHECKCARD 1104 ", "PURCHASE AUTHORIZED ON 11/03 "];
const CITIES = ["OAKLAND CA", "SAN FRANCISCO CA", "AUSTIN TX", "CHICAGO IL", "BROOKLYN NY", "DENVER CO", "SEATTLE WA", "PORTLAND OR"];
const BRANCHES = ["DOWNTOWN", "NORTH", "MARKET ST", "AIRPORT", "WESTSIDE", "MAIN ST"];

export interface GeneratedLine {
  id: number;
  description: string;
  merchantName: string | null;
  amountCents: number;
  accountId: string;
  postedOn: string;
  category: string;
  header: CategorySpec["header"];
  merchant: string;
}

export interface Merchant {
  name: string;
  spec: CategorySpec;
  /** Recurring merchants show up again and again; one-offs rarely. */
  weight: number;
}

/** A few hundred merchants: each stem in several local variants (branches, cities). */
export function merchants(random: () => number): Merchant[] {
  const out: Merchant[] = [];
  for (const spec of CATEGORIES) {
    for (const stem of spec.stems) {
      const variants = 1 + Math.floor(random() * 4);
      for (let v = 0; v < variants; v++) {
        const name = v === 0 ? stem : `${stem} ${BRANCHES[Math.floor(random() * BRANCHES.length)]}`;
        out.push({ name, spec, weight: random() < 0.3 ? 0.2 : 1 + random() * 6 });
      }
    }
  }
  return out;
}

/** As a bank prints it: prefixes, store numbers, card suffixes, cities, references, casing. */
function printed(name: string, random: () => number): string {
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  let text = pick(PREFIXES) + name;
  if (random() < 0.5) text += ` #${Math.floor(random() * 9000) + 100}`;
  if (random() < 0.4) text += ` ${pick(CITIES)}`;
  if (random() < 0.2) text += ` XXXX${Math.floor(random() * 9000) + 1000}`;
  if (random() < 0.15) text += ` REF${Math.floor(random() * 1e6)}`;
  return random() < 0.2 ? text.toLowerCase() : text;
}

/** `count` lines over three years ending on 2026-11-20, from a seeded merchant population. */
export function generateLines(count: number, seed = 42): GeneratedLine[] {
  const random = prng(seed);
  const population = merchants(random);
  const total = population.reduce((s, m) => s + m.weight, 0);
  const start = Date.UTC(2023, 10, 21);
  const span = Date.UTC(2026, 10, 20) - start;
  const lines: GeneratedLine[] = [];
  for (let id = 1; id <= count; id++) {
    let r = random() * total;
    const merchant = population.find((m) => (r -= m.weight) <= 0) ?? population.at(-1)!;
    const [low, high] = merchant.spec.dollars;
    const dollars = low * Math.pow(high / low, random());
    lines.push({
      id,
      description: printed(merchant.name, random),
      merchantName: random() < 0.6 ? merchant.name.split(" ").slice(0, 2).join(" ") : null,
      amountCents: merchant.spec.sign * Math.max(1, Math.round(dollars * 100)),
      accountId: random() < 0.85 ? "acc_checking" : "acc_card",
      postedOn: new Date(start + random() * span).toISOString().slice(0, 10),
      category: merchant.spec.category,
      header: merchant.spec.header,
      merchant: merchant.name,
    });
  }
  return lines;
}

/** The order a bank's feed delivers lines in. */
export type Arrival = "posted" | "shuffled";

/** The benchmarks' ARRIVAL setting: "posted" unless it says otherwise. */
export function arrivalFrom(setting = "posted"): Arrival {
  if (setting !== "posted" && setting !== "shuffled") throw new Error(`ARRIVAL is "posted" or "shuffled", not "${setting}"`);
  return setting;
}

/**
 * The lines in the order a bank delivers them: as they post, each up to three days late
 * (card lines settle after the purchase date they carry), so dates run forward with local
 * disorder. Numbered again in that order. "shuffled" keeps the generator's order, every
 * line at a random date of the three years: no feed delivers that, but it is the worst
 * case for every index keyed by date, so the benchmark can still be run with it.
 */
export function inArrivalOrder(lines: GeneratedLine[], arrival: Arrival, seed: number): GeneratedLine[] {
  if (arrival === "shuffled") return lines;
  const random = prng(seed + 2);
  const day = 86_400_000;
  return lines
    .map((line) => ({ line, arrives: Date.parse(line.postedOn) + Math.floor(random() * 4) * day }))
    .sort((a, b) => a.arrives - b.arrives || a.line.id - b.line.id)
    .map(({ line }, i) => ({ ...line, id: i + 1 }));
}
