/**
 * A small US business as its bank sees it: a few hundred counterparties (national brands
 * drawn from a catalogue, local businesses and people with generated names), each paid or
 * paying in its own way (card, ACH, wire, transfer, Zelle, check), and the stream of
 * transactions between them over about two years. Nothing here is text a bank prints:
 * styles.ts prints each transaction in a bank's style.
 *
 * The stream has a training period (the labelled past) and a test period; about a tenth of
 * the test period's lines come from counterparties the training period never saw. Some
 * merchants are ambiguous (a hardware store: materials, or the owner's own shopping):
 * their lines go to more than one category, separable by the amount or the account for
 * some, by nothing on the line for others.
 */
import { ADJECTIVES, CITIES, CLIENT_TRADES, EATERIES, FIRST_NAMES, LEGAL_SUFFIXES, NOUNS, SUPPLIER_TRADES, SURNAMES, TRADES } from "./names";
import { Rand } from "./random";

export type Header = "income" | "cogs" | "expense" | "draw" | "transfer";

export const BANK_CATEGORIES: { name: string; header: Header }[] = [
  { name: "Sales", header: "income" },
  { name: "Interest", header: "income" },
  { name: "Inventory", header: "cogs" },
  { name: "Materials", header: "cogs" },
  { name: "Packaging", header: "cogs" },
  { name: "Shipping", header: "cogs" },
  { name: "Rent", header: "expense" },
  { name: "Payroll", header: "expense" },
  { name: "Contractors", header: "expense" },
  { name: "Taxes", header: "expense" },
  { name: "Professional fees", header: "expense" },
  { name: "Software", header: "expense" },
  { name: "Meals", header: "expense" },
  { name: "Fuel", header: "expense" },
  { name: "Utilities", header: "expense" },
  { name: "Insurance", header: "expense" },
  { name: "Advertising", header: "expense" },
  { name: "Bank fees", header: "expense" },
  { name: "Office supplies", header: "expense" },
  { name: "Travel", header: "expense" },
  { name: "Repairs", header: "expense" },
  { name: "Owner draw", header: "draw" },
  { name: "Transfers", header: "transfer" },
];

const HEADER = new Map(BANK_CATEGORIES.map((c) => [c.name, c.header]));
export function headerOf(category: string): Header {
  const header = HEADER.get(category);
  if (!header) throw new Error(`not a category: ${category}`);
  return header;
}

/** How the money moves, which decides what a bank can print about the other party. */
export type Kind =
  | "card" // in person: the card network's name field, city and state
  | "online" // card not present: a web address or phone number where the city goes
  | "ach-debit"
  | "ach-credit"
  | "wire-in"
  | "wire-out"
  | "transfer-out" // between the business's own accounts, or to the owner's
  | "transfer-in"
  | "p2p-out" // Zelle
  | "p2p-in"
  | "check" // a check the business wrote: the bank prints its number, never the payee
  | "deposit"
  | "atm"
  | "fee"
  | "interest";

export const MONEY_IN: ReadonlySet<Kind> = new Set(["ach-credit", "wire-in", "transfer-in", "p2p-in", "deposit", "interest"]);

/**
 * - none: one category.
 * - by-amount / by-account: more than one, told apart by the amount's size or the account.
 * - inseparable: more than one, and nothing on the line tells which.
 */
export type Ambiguity = "none" | "by-amount" | "by-account" | "inseparable";

export type Account = "checking" | "card";

export interface Use {
  category: string;
  /** Its share of the merchant's lines. */
  share: number;
  dollars: [number, number];
  /** Where it is paid from: "any" is mostly the checking account's debit card, sometimes the credit card. */
  account: Account | "any";
  /** A subscription's or a lease's price: the same every time. */
  fixedCents?: number;
}

export type Sec = "PPD" | "CCD" | "WEB" | "TEL";

export interface Merchant {
  id: string;
  /** As a person would name it. */
  name: string;
  kind: Kind;
  /** Billed on a schedule (subscriptions, utilities): some banks print those differently. */
  recurring: boolean;
  /** Card kinds: the network's name field, with placeholders filled per purchase ({S5} a store number, {A9} a code, {D10} digits, {R} a restaurant, {W} a weekday and hour, {YMD} a date). */
  card: string | null;
  /** The store numbers this business visits. */
  stores: Record<string, string[]>;
  /** Card kinds: the network's city field (a city, a web address or a phone number) and state. */
  place: [string, string] | null;
  /** ACH kinds: company name (16 characters), entry description (10), SEC code, and the individual id (placeholders as above). */
  ach: { company: string; entry: string; sec: Sec; companyId: string; individualId: string } | null;
  /** Wires, transfers, Zelle, checks: the other party's name as banks print it. */
  party: string | null;
  /** Transfers: the account the money goes to or comes from. */
  toAccount: { label: string; mask: string } | null;
  /** What an aggregator's enrichment calls it (`merchant_name`): null where it would not know. */
  enriched: string | null;
  uses: Use[];
  ambiguity: Ambiguity;
  /** An ambiguous store of the business's own town, its name drawn afresh: no list of chains names it. */
  localStore?: true;
  /** How often it comes up, relative to the others. */
  weight: number;
  /** First seen in the test period. */
  isNew: boolean;
}

/** One transaction, before any bank prints it: what every style prints comes from here. */
export interface Txn {
  /** Position in the book, in posting order. */
  index: number;
  period: "training" | "test";
  merchant: Merchant;
  category: string;
  amountCents: number;
  account: Account;
  postedOn: string;
  /** Card kinds: the day of the purchase, up to three days before it posted. */
  purchasedOn: string;
  /** Card kinds: the network's name field for this purchase (store number, order code filled in). */
  descriptor: string;
  /** ACH kinds: this entry's description and individual id. */
  entry: string;
  individualId: string;
  checkNumber: number;
  /** A reference the payer wrote (wires' payment details, transfers' memo). */
  memo: string;
}

export interface Business {
  seed: number;
  /** Its legal name, as ACH entries and wires name the receiver. */
  legalName: string;
  trade: string;
  owner: { first: string; last: string };
  home: [string, string];
  debitCardLast4: string;
  merchants: Merchant[];
  /** The restaurants delivery apps name in their descriptors. */
  restaurants: string[];
}

type Freq = "daily" | "weekly" | "monthly" | "rare";
const WEIGHT: Record<Freq, number> = { daily: 9, weekly: 2.2, monthly: 0.55, rare: 0.1 };

/** A catalogue entry: a national brand as card networks, ACH and aggregators name it. */
interface Brand {
  name: string;
  category: string;
  kind: Kind;
  dollars: [number, number];
  freq: Freq;
  /** Which of a kind the business picks among (one payroll provider, a few software tools). */
  group: string;
  card?: string;
  /** Card not present: the city field, "PHONE" for a phone number drawn per business. */
  web?: [string, string];
  ach?: [company: string, entry: string, sec: Sec, individualId?: string];
  enriched?: string | null;
  fixed?: boolean;
  recurring?: boolean;
}

const BRANDS: Brand[] = [
  // Payment processors paying out the business's sales.
  { name: "Stripe", category: "Sales", kind: "ach-credit", ach: ["STRIPE", "TRANSFER", "CCD", "ST-{A12}"], dollars: [150, 4000], freq: "daily", group: "processor" },
  { name: "Square", category: "Sales", kind: "ach-credit", ach: ["SQUARE INC", "{YMD}P2", "CCD", "L2{A13}"], dollars: [60, 2500], freq: "daily", group: "processor" },
  { name: "Shopify", category: "Sales", kind: "ach-credit", ach: ["SHOPIFY", "TRANSFER", "CCD", "{D15}"], dollars: [100, 3500], freq: "daily", group: "processor" },
  { name: "PayPal", category: "Sales", kind: "ach-credit", ach: ["PAYPAL", "TRANSFER", "PPD", "{D13}"], dollars: [20, 1500], freq: "weekly", group: "processor" },
  { name: "Etsy", category: "Sales", kind: "ach-credit", ach: ["ETSY, INC.", "DEPOSIT", "CCD", "{D10}"], dollars: [40, 1200], freq: "weekly", group: "processor" },
  { name: "Toast", category: "Sales", kind: "ach-credit", ach: ["TOAST, INC", "DEP {D6}", "CCD", "{D12}"], dollars: [300, 5000], freq: "daily", group: "processor" },
  { name: "Amazon", category: "Sales", kind: "ach-credit", ach: ["AMAZON.COM SVCS", "MARKETPLAC", "CCD", "{A10}"], dollars: [200, 6000], freq: "weekly", group: "processor" },
  // Suppliers.
  { name: "Sysco", category: "Inventory", kind: "ach-debit", ach: ["SYSCO CORP", "PAYMENT", "CCD", "{D9}"], dollars: [200, 3000], freq: "weekly", group: "food supplier" },
  { name: "US Foods", category: "Inventory", kind: "ach-debit", ach: ["US FOODS INC", "ACH PMT", "CCD", "{D8}"], dollars: [200, 2800], freq: "weekly", group: "food supplier" },
  { name: "Restaurant Depot", category: "Inventory", kind: "card", card: "RESTAURANT DEPOT #{S4}", dollars: [120, 1800], freq: "weekly", group: "food supplier" },
  { name: "WebstaurantStore", category: "Inventory", kind: "online", card: "WEBSTAURANTSTORE", web: ["PHONE", "PA"], dollars: [60, 900], freq: "rare", group: "food supplier" },
  { name: "Faire", category: "Inventory", kind: "online", card: "FAIRE WHOLESALE", web: ["FAIRE.COM", "CA"], dollars: [150, 2000], freq: "weekly", group: "goods supplier" },
  { name: "Alibaba", category: "Inventory", kind: "online", card: "ALIBABA.COM", web: ["PHONE", "CA"], dollars: [300, 4000], freq: "rare", group: "goods supplier" },
  { name: "Printful", category: "Inventory", kind: "online", card: "PRINTFUL INC", web: ["PRINTFUL.COM", "NC"], dollars: [30, 900], freq: "weekly", group: "goods supplier" },
  { name: "Grainger", category: "Materials", kind: "card", card: "GRAINGER #{S4}", dollars: [40, 900], freq: "weekly", group: "trade supplier" },
  { name: "Fastenal", category: "Materials", kind: "card", card: "FASTENAL COMPANY01", dollars: [20, 600], freq: "weekly", group: "trade supplier" },
  { name: "Ferguson", category: "Materials", kind: "card", card: "FERGUSON ENT #{S4}", dollars: [60, 2200], freq: "rare", group: "trade supplier" },
  { name: "Sherwin-Williams", category: "Materials", kind: "card", card: "SHERWIN-WILLIAMS{S4}", dollars: [30, 700], freq: "weekly", group: "trade supplier" },
  { name: "84 Lumber", category: "Materials", kind: "card", card: "84 LUMBER #{S4}", dollars: [80, 2500], freq: "rare", group: "trade supplier" },
  { name: "Uline", category: "Packaging", kind: "online", card: "ULINE *SHIP SUPPLIES", web: ["PHONE", "WI"], dollars: [40, 900], freq: "weekly", group: "packaging" },
  { name: "Paper Mart", category: "Packaging", kind: "online", card: "PAPER MART", web: ["PAPERMART.COM", "CA"], dollars: [20, 400], freq: "rare", group: "packaging" },
  { name: "Packlane", category: "Packaging", kind: "online", card: "PACKLANE", web: ["PACKLANE.COM", "CA"], dollars: [150, 1500], freq: "rare", group: "packaging" },
  { name: "EcoEnclose", category: "Packaging", kind: "online", card: "ECOENCLOSE LLC", web: ["ECOENCLOSE.COM", "CO"], dollars: [60, 800], freq: "rare", group: "packaging" },
  { name: "USPS", category: "Shipping", kind: "card", card: "USPS PO {S10}", dollars: [5, 180], freq: "weekly", group: "shipping" },
  { name: "UPS", category: "Shipping", kind: "online", card: "UPS*1Z{A16}", web: ["PHONE", "GA"], dollars: [9, 300], freq: "weekly", group: "shipping" },
  { name: "FedEx", category: "Shipping", kind: "online", card: "FEDEX {D9}", web: ["PHONE", "TN"], dollars: [12, 400], freq: "weekly", group: "shipping" },
  { name: "Pirate Ship", category: "Shipping", kind: "online", card: "PIRATE SHIP", web: ["PIRATESHIP.COM", "WA"], dollars: [8, 250], freq: "weekly", group: "shipping" },
  { name: "Stamps.com", category: "Shipping", kind: "online", card: "STAMPS.COM", web: ["PHONE", "CA"], dollars: [20, 40], freq: "monthly", group: "shipping", fixed: true, recurring: true },
  // Space.
  { name: "Regus", category: "Rent", kind: "ach-debit", ach: ["REGUS MGMT GROUP", "PAYMENT", "CCD", "{D10}"], dollars: [400, 2500], freq: "monthly", group: "workspace", fixed: true, recurring: true },
  { name: "WeWork", category: "Rent", kind: "online", card: "WEWORK {D8}", web: ["PHONE", "NY"], dollars: [300, 1800], freq: "monthly", group: "workspace", fixed: true, recurring: true },
  // Payroll providers: the same company name for wages and for the payroll taxes.
  { name: "Gusto", category: "Payroll", kind: "ach-debit", ach: ["GUSTO", "NET {D6}", "CCD", "{A10}"], dollars: [1500, 12000], freq: "weekly", group: "payroll:gusto" },
  { name: "Gusto", category: "Taxes", kind: "ach-debit", ach: ["GUSTO", "TAX {D6}", "CCD", "{A10}"], dollars: [300, 4000], freq: "weekly", group: "payroll:gusto" },
  { name: "ADP", category: "Payroll", kind: "ach-debit", ach: ["ADP WAGE PAY", "WAGE PAY", "CCD", "{D15}"], dollars: [1500, 12000], freq: "weekly", group: "payroll:adp" },
  { name: "ADP", category: "Taxes", kind: "ach-debit", ach: ["ADP TAX", "ADP TAX", "CCD", "{D15}"], dollars: [300, 4000], freq: "weekly", group: "payroll:adp" },
  { name: "Paychex", category: "Payroll", kind: "ach-debit", ach: ["PAYCHEX INC.", "PAYROLL", "CCD", "{D12}"], dollars: [1500, 12000], freq: "weekly", group: "payroll:paychex" },
  { name: "Paychex", category: "Taxes", kind: "ach-debit", ach: ["PAYCHEX TPS", "TAXES", "CCD", "{D12}"], dollars: [300, 4000], freq: "weekly", group: "payroll:paychex" },
  // Taxes.
  { name: "IRS", category: "Taxes", kind: "ach-debit", ach: ["IRS", "USATAXPYMT", "CCD", "{D15}"], dollars: [500, 9000], freq: "monthly", group: "federal tax" },
  { name: "Franchise Tax Board", category: "Taxes", kind: "ach-debit", ach: ["FRANCHISE TAX BD", "PAYMENTS", "CCD", "{D12}"], dollars: [100, 3000], freq: "monthly", group: "state tax" },
  { name: "NYS DTF", category: "Taxes", kind: "ach-debit", ach: ["NYS DTF SALES", "TAX PAYMNT", "CCD", "{D9}"], dollars: [100, 3000], freq: "monthly", group: "state tax" },
  { name: "Texas Comptroller", category: "Taxes", kind: "ach-debit", ach: ["TX COMPTROLLER", "TAX PYMT", "CCD", "{D11}"], dollars: [100, 3000], freq: "monthly", group: "state tax" },
  { name: "CDTFA", category: "Taxes", kind: "ach-debit", ach: ["CA DEPT TAX FEE", "CDTFA EPMT", "CCD", "{D9}"], dollars: [100, 3000], freq: "monthly", group: "state tax" },
  { name: "LegalZoom", category: "Professional fees", kind: "online", card: "LEGALZOOM*{D9}", web: ["PHONE", "CA"], dollars: [50, 500], freq: "rare", group: "legal" },
  // Software: card-not-present subscriptions.
  { name: "Adobe", category: "Software", kind: "online", card: "ADOBE *CREATIVE CLOUD", web: ["PHONE", "CA"], dollars: [20, 90], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "Google Workspace", category: "Software", kind: "online", card: "GOOGLE *GSUITE_{DOMAIN}", web: ["CC@GOOGLE.COM", "CA"], dollars: [6, 90], freq: "monthly", group: "software", fixed: true, recurring: true, enriched: "Google" },
  { name: "Zoom", category: "Software", kind: "online", card: "ZOOM.US", web: ["PHONE", "CA"], dollars: [15, 30], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "Slack", category: "Software", kind: "online", card: "SLACK T{A8}", web: ["SLACK.COM", "CA"], dollars: [8, 120], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "Dropbox", category: "Software", kind: "online", card: "DROPBOX*{A8}", web: ["DROPBOX.COM", "CA"], dollars: [12, 30], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "QuickBooks", category: "Software", kind: "online", card: "INTUIT *QBOOKS ONLINE", web: ["CL.INTUIT.COM", "CA"], dollars: [30, 200], freq: "monthly", group: "software", fixed: true, recurring: true, enriched: "Intuit" },
  { name: "Mailchimp", category: "Software", kind: "online", card: "MAILCHIMP *MONTHLY", web: ["MAILCHIMP.COM", "GA"], dollars: [13, 350], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "GitHub", category: "Software", kind: "online", card: "GITHUB, INC.", web: ["GITHUB.COM", "CA"], dollars: [4, 84], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "Notion", category: "Software", kind: "online", card: "NOTION LABS, INC.", web: ["NOTION.SO", "CA"], dollars: [8, 96], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "Canva", category: "Software", kind: "online", card: "CANVA* {D9}", web: ["CANVA.COM", "CA"], dollars: [13, 30], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "Microsoft 365", category: "Software", kind: "online", card: "MSFT *E0400{A6}", web: ["MSBILL.INFO", "WA"], dollars: [6, 66], freq: "monthly", group: "software", fixed: true, recurring: true, enriched: "Microsoft" },
  { name: "Shopify", category: "Software", kind: "online", card: "SHOPIFY* {D9}", web: ["SHOPIFY.COM", "CA"], dollars: [29, 299], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "Squarespace", category: "Software", kind: "online", card: "SQSP* INV{D8}", web: ["SQUARESPACE.COM", "NY"], dollars: [16, 65], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "Amazon Web Services", category: "Software", kind: "online", card: "AMAZON WEB SERVICES", web: ["AWS.AMAZON.CO", "WA"], dollars: [5, 400], freq: "monthly", group: "software", recurring: true, enriched: "Amazon" },
  { name: "Apple", category: "Software", kind: "online", card: "APPLE.COM/BILL", web: ["PHONE", "CA"], dollars: [1, 20], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "ShipStation", category: "Software", kind: "online", card: "SHIPSTATION", web: ["PHONE", "TX"], dollars: [29, 159], freq: "monthly", group: "software", fixed: true, recurring: true },
  { name: "Xero", category: "Software", kind: "online", card: "XERO INC", web: ["XERO.COM", "CO"], dollars: [15, 78], freq: "monthly", group: "software", fixed: true, recurring: true },
  // Meals.
  { name: "Starbucks", category: "Meals", kind: "card", card: "STARBUCKS STORE {S5}", dollars: [4, 40], freq: "weekly", group: "chain food" },
  { name: "Chipotle", category: "Meals", kind: "card", card: "CHIPOTLE {S4}", dollars: [9, 80], freq: "weekly", group: "chain food" },
  { name: "Panera Bread", category: "Meals", kind: "card", card: "PANERA BREAD #{S6}", dollars: [8, 120], freq: "weekly", group: "chain food" },
  { name: "Sweetgreen", category: "Meals", kind: "card", card: "SWEETGREEN {S3}", dollars: [12, 90], freq: "weekly", group: "chain food" },
  { name: "McDonald's", category: "Meals", kind: "card", card: "MCDONALD'S F{S5}", dollars: [5, 40], freq: "weekly", group: "chain food" },
  { name: "Dunkin'", category: "Meals", kind: "card", card: "DUNKIN #{S6}", dollars: [3, 30], freq: "weekly", group: "chain food" },
  { name: "Chick-fil-A", category: "Meals", kind: "card", card: "CHICK-FIL-A #{S5}", dollars: [7, 60], freq: "weekly", group: "chain food" },
  { name: "Jersey Mike's", category: "Meals", kind: "card", card: "JERSEY MIKES {S5}", dollars: [9, 70], freq: "rare", group: "chain food" },
  { name: "DoorDash", category: "Meals", kind: "online", card: "DD *DOORDASH {R}", web: ["PHONE", "CA"], dollars: [15, 140], freq: "weekly", group: "delivery" },
  { name: "Uber Eats", category: "Meals", kind: "online", card: "UBER *EATS {A5}", web: ["HELP.UBER.COM", "CA"], dollars: [15, 120], freq: "weekly", group: "delivery", enriched: "Uber Eats" },
  { name: "Grubhub", category: "Meals", kind: "online", card: "GRUBHUB*{R}", web: ["GRUBHUB.COM", "IL"], dollars: [15, 150], freq: "weekly", group: "delivery" },
  // Fuel.
  { name: "Shell", category: "Fuel", kind: "card", card: "SHELL OIL {S8}", dollars: [25, 120], freq: "weekly", group: "fuel" },
  { name: "Chevron", category: "Fuel", kind: "card", card: "CHEVRON {S7}", dollars: [25, 120], freq: "weekly", group: "fuel" },
  { name: "ExxonMobil", category: "Fuel", kind: "card", card: "EXXONMOBIL {S8}", dollars: [25, 120], freq: "weekly", group: "fuel" },
  { name: "BP", category: "Fuel", kind: "card", card: "BP#{S7}", dollars: [25, 120], freq: "weekly", group: "fuel" },
  { name: "ARCO", category: "Fuel", kind: "card", card: "ARCO #{S5}", dollars: [25, 110], freq: "weekly", group: "fuel" },
  { name: "Valero", category: "Fuel", kind: "card", card: "VALERO {S4}", dollars: [25, 110], freq: "weekly", group: "fuel" },
  { name: "76", category: "Fuel", kind: "card", card: "76 - {S8}", dollars: [25, 120], freq: "rare", group: "fuel" },
  { name: "Circle K", category: "Fuel", kind: "card", card: "CIRCLE K # {S5}", dollars: [20, 100], freq: "weekly", group: "fuel" },
  { name: "Wawa", category: "Fuel", kind: "card", card: "WAWA {S4}", dollars: [20, 100], freq: "weekly", group: "fuel" },
  // Utilities.
  { name: "PG&E", category: "Utilities", kind: "ach-debit", ach: ["PGANDE", "WEB ONLINE", "PPD", "{D10}"], dollars: [80, 900], freq: "monthly", group: "power", recurring: true },
  { name: "Con Edison", category: "Utilities", kind: "ach-debit", ach: ["CON ED OF NY", "INTELL CK", "PPD", "{D12}"], dollars: [80, 900], freq: "monthly", group: "power", recurring: true },
  { name: "Duke Energy", category: "Utilities", kind: "ach-debit", ach: ["DUKE ENERGY", "BILL PAY", "PPD", "{D10}"], dollars: [80, 900], freq: "monthly", group: "power", recurring: true },
  { name: "Xcel Energy", category: "Utilities", kind: "ach-debit", ach: ["XCEL ENERGY", "XCELENERGY", "PPD", "{D11}"], dollars: [80, 900], freq: "monthly", group: "power", recurring: true },
  { name: "Comcast", category: "Utilities", kind: "ach-debit", ach: ["COMCAST", "PAYMENT", "WEB", "{D16}"], dollars: [90, 260], freq: "monthly", group: "internet", fixed: true, recurring: true },
  { name: "Spectrum", category: "Utilities", kind: "ach-debit", ach: ["SPECTRUM", "SPECTRUM", "WEB", "{D9}"], dollars: [80, 250], freq: "monthly", group: "internet", fixed: true, recurring: true },
  { name: "AT&T", category: "Utilities", kind: "ach-debit", ach: ["ATT", "PAYMENT", "WEB", "{D12}"], dollars: [60, 400], freq: "monthly", group: "phone", recurring: true },
  { name: "Verizon", category: "Utilities", kind: "ach-debit", ach: ["VERIZON WIRELESS", "PAYMENTS", "PPD", "{D13}"], dollars: [60, 400], freq: "monthly", group: "phone", recurring: true },
  { name: "T-Mobile", category: "Utilities", kind: "online", card: "T-MOBILE*AUTO PAY", web: ["PHONE", "WA"], dollars: [60, 300], freq: "monthly", group: "phone", fixed: true, recurring: true },
  { name: "Waste Management", category: "Utilities", kind: "ach-debit", ach: ["WASTE MGMT", "WM EZPAY", "WEB", "{D12}"], dollars: [60, 400], freq: "monthly", group: "waste", recurring: true },
  // Insurance.
  { name: "State Farm", category: "Insurance", kind: "ach-debit", ach: ["STATE FARM RO 27", "SFPP", "PPD", "{D10}"], dollars: [90, 900], freq: "monthly", group: "insurance", fixed: true, recurring: true },
  { name: "GEICO", category: "Insurance", kind: "ach-debit", ach: ["GEICO", "PREM COLL", "PPD", "{D10}"], dollars: [90, 600], freq: "monthly", group: "insurance", fixed: true, recurring: true },
  { name: "Next Insurance", category: "Insurance", kind: "online", card: "NEXT INSURANCE", web: ["NEXTINSURANCE.COM", "CA"], dollars: [40, 400], freq: "monthly", group: "insurance", fixed: true, recurring: true },
  { name: "Hiscox", category: "Insurance", kind: "ach-debit", ach: ["HISCOX INC", "INS PREM", "CCD", "{D10}"], dollars: [30, 300], freq: "monthly", group: "insurance", fixed: true, recurring: true },
  { name: "The Hartford", category: "Insurance", kind: "ach-debit", ach: ["THE HARTFORD", "NWTBPAYMNT", "CCD", "{D12}"], dollars: [80, 900], freq: "monthly", group: "insurance", fixed: true, recurring: true },
  { name: "Progressive", category: "Insurance", kind: "ach-debit", ach: ["PROGRESSIVE", "INS PREM", "PPD", "{D10}"], dollars: [90, 500], freq: "monthly", group: "insurance", fixed: true, recurring: true },
  { name: "Nationwide", category: "Insurance", kind: "ach-debit", ach: ["NATIONWIDE", "EDI PYMNTS", "CCD", "{D10}"], dollars: [90, 900], freq: "monthly", group: "insurance", fixed: true, recurring: true },
  // Advertising: order codes change on every charge.
  { name: "Meta", category: "Advertising", kind: "online", card: "FACEBK *{A10}", web: ["FB.ME/ADS", "CA"], dollars: [10, 1500], freq: "weekly", group: "ads", enriched: "Facebook" },
  { name: "Google Ads", category: "Advertising", kind: "online", card: "GOOGLE *ADS{D10}", web: ["CC@GOOGLE.COM", "CA"], dollars: [10, 1500], freq: "weekly", group: "ads", enriched: "Google" },
  { name: "Yelp", category: "Advertising", kind: "online", card: "YELP INC", web: ["PHONE", "CA"], dollars: [100, 900], freq: "monthly", group: "ads", recurring: true },
  { name: "Nextdoor", category: "Advertising", kind: "online", card: "NEXTDOOR", web: ["NEXTDOOR.COM", "CA"], dollars: [20, 300], freq: "monthly", group: "ads" },
  { name: "LinkedIn", category: "Advertising", kind: "online", card: "LINKEDIN {D9}", web: ["LNKD.IN/BILL", "CA"], dollars: [30, 800], freq: "monthly", group: "ads" },
  { name: "Thumbtack", category: "Advertising", kind: "online", card: "THUMBTACK", web: ["PHONE", "CA"], dollars: [15, 200], freq: "weekly", group: "ads" },
  { name: "Vistaprint", category: "Advertising", kind: "online", card: "VISTAPRINT", web: ["VISTAPRINT.COM", "MA"], dollars: [20, 400], freq: "rare", group: "ads" },
  // Office.
  { name: "Staples", category: "Office supplies", kind: "card", card: "STAPLES {S8}", dollars: [8, 400], freq: "weekly", group: "office" },
  { name: "Office Depot", category: "Office supplies", kind: "card", card: "OFFICE DEPOT #{S4}", dollars: [8, 400], freq: "weekly", group: "office" },
  { name: "Best Buy", category: "Office supplies", kind: "card", card: "BEST BUY {S8}", dollars: [20, 1800], freq: "rare", group: "office" },
  // Travel.
  { name: "United Airlines", category: "Travel", kind: "online", card: "UNITED {D13}", web: ["UNITED.COM", "TX"], dollars: [120, 900], freq: "rare", group: "air" },
  { name: "Delta", category: "Travel", kind: "online", card: "DELTA AIR {D13}", web: ["DELTA.COM", "GA"], dollars: [120, 900], freq: "rare", group: "air" },
  { name: "Southwest", category: "Travel", kind: "online", card: "SOUTHWES {D10}", web: ["PHONE", "TX"], dollars: [90, 600], freq: "rare", group: "air" },
  { name: "American Airlines", category: "Travel", kind: "online", card: "AMERICAN AIR{D10}", web: ["AA.COM", "TX"], dollars: [120, 900], freq: "rare", group: "air" },
  { name: "Marriott", category: "Travel", kind: "card", card: "MARRIOTT {CITY}", dollars: [150, 900], freq: "rare", group: "hotel" },
  { name: "Hilton", category: "Travel", kind: "card", card: "HILTON GARDEN INN {CITY}", dollars: [140, 800], freq: "rare", group: "hotel" },
  { name: "Hampton Inn", category: "Travel", kind: "card", card: "HAMPTON INN {CITY}", dollars: [120, 600], freq: "rare", group: "hotel" },
  { name: "Uber", category: "Travel", kind: "online", card: "UBER *TRIP {A5}", web: ["HELP.UBER.COM", "CA"], dollars: [8, 90], freq: "weekly", group: "rides" },
  { name: "Lyft", category: "Travel", kind: "online", card: "LYFT *RIDE {W}", web: ["LYFT.COM", "CA"], dollars: [8, 80], freq: "weekly", group: "rides" },
  { name: "Airbnb", category: "Travel", kind: "online", card: "AIRBNB * HM{A8}", web: ["AIRBNB.COM", "CA"], dollars: [150, 1500], freq: "rare", group: "hotel" },
  { name: "Expedia", category: "Travel", kind: "online", card: "EXPEDIA {D13}", web: ["EXPEDIA.COM", "WA"], dollars: [100, 1200], freq: "rare", group: "air" },
  { name: "Enterprise", category: "Travel", kind: "card", card: "ENTERPRISE RENT-A-CAR", dollars: [60, 600], freq: "rare", group: "car" },
  // Paying off the business's credit card.
  { name: "American Express", category: "Transfers", kind: "ach-debit", ach: ["AMEX EPAYMENT", "ACH PMT", "CCD", "{A15}"], dollars: [300, 9000], freq: "monthly", group: "card issuer" },
  { name: "Chase Card", category: "Transfers", kind: "ach-debit", ach: ["CHASE CREDIT CRD", "AUTOPAY", "PPD", "{D15}"], dollars: [300, 9000], freq: "monthly", group: "card issuer", enriched: "Chase" },
  { name: "Capital One", category: "Transfers", kind: "ach-debit", ach: ["CAPITAL ONE", "CRCARDPMT", "CCD", "{A12}"], dollars: [300, 9000], freq: "monthly", group: "card issuer" },
  { name: "Citi Card", category: "Transfers", kind: "ach-debit", ach: ["CITI AUTOPAY", "PAYMENT", "PPD", "{D15}"], dollars: [300, 9000], freq: "monthly", group: "card issuer", enriched: "Citibank" },
];

/** How many of each group a business uses. */
const GROUP_PICKS: Record<string, [number, number]> = {
  processor: [1, 3],
  "food supplier": [0, 3],
  "goods supplier": [0, 3],
  "trade supplier": [0, 3],
  packaging: [1, 3],
  shipping: [1, 3],
  workspace: [0, 1],
  "federal tax": [1, 1],
  "state tax": [1, 1],
  legal: [0, 1],
  software: [5, 10],
  "chain food": [3, 6],
  delivery: [1, 3],
  fuel: [2, 4],
  power: [1, 1],
  internet: [1, 1],
  phone: [1, 1],
  waste: [0, 1],
  insurance: [1, 3],
  ads: [2, 4],
  office: [1, 3],
  air: [1, 3],
  hotel: [1, 3],
  rides: [1, 2],
  car: [0, 1],
  "card issuer": [1, 2],
};

/** Which costs weigh most in each trade (multipliers on the categories' weights). */
const TRADE_WEIGHTS: Record<string, Record<string, number>> = {
  CAFE: { Inventory: 2.5, Meals: 0.5, Packaging: 1.5, Repairs: 1.5 },
  "ONLINE SHOP": { Inventory: 2, Packaging: 2.5, Shipping: 3, Advertising: 2, Fuel: 0.3 },
  CONTRACTING: { Materials: 3, Fuel: 2.5, Repairs: 0.5, Software: 0.5, Contractors: 2 },
  "DESIGN STUDIO": { Software: 2, Contractors: 2, Inventory: 0.2, Materials: 0.2, Sales: 1.2 },
  CATERING: { Inventory: 3, Fuel: 1.5, Packaging: 1.5, Meals: 0.4 },
  LANDSCAPING: { Materials: 2.5, Fuel: 3, Contractors: 2, Software: 0.4 },
  BAKERY: { Inventory: 2.5, Packaging: 2, Utilities: 1.5 },
  CONSULTING: { Software: 1.5, Travel: 2.5, Meals: 1.5, Inventory: 0.2, Materials: 0.2, Packaging: 0.3, Shipping: 0.3 },
};

/**
 * The stores where purchases are hard to place: the same merchant buys for the business
 * and for the owner. Each business meets several, and each seed decides whether the amount,
 * the account or nothing tells their lines apart.
 */
const AMBIGUOUS: { name: string; card: string; enriched: string; categories: string[] }[] = [
  { name: "The Home Depot", card: "THE HOME DEPOT #{S4}", enriched: "The Home Depot", categories: ["Materials", "Owner draw"] },
  { name: "Lowe's", card: "LOWE'S #{S4}", enriched: "Lowe's", categories: ["Materials", "Owner draw"] },
  { name: "Costco", card: "COSTCO WHSE #{S4}", enriched: "Costco", categories: ["Inventory", "Meals", "Owner draw"] },
  { name: "Amazon", card: "AMZN Mktp US*{A9}", enriched: "Amazon", categories: ["Inventory", "Office supplies"] },
  { name: "Target", card: "TARGET {S8}", enriched: "Target", categories: ["Office supplies", "Owner draw"] },
  { name: "Walmart", card: "WAL-MART #{S4}", enriched: "Walmart", categories: ["Inventory", "Office supplies", "Owner draw"] },
  { name: "Trader Joe's", card: "TRADER JOE S #{S3}", enriched: "Trader Joe's", categories: ["Meals", "Owner draw"] },
];

/**
 * Stores of the business's own town that serve it and its owner alike, as `AMBIGUOUS`'s
 * chains do, their names drawn afresh for each business: what a model knows of chains says
 * nothing of these. Most say what kind of store they are (a hardware store, a general
 * store, a farm-and-home store, a market); the last says nothing of it (`OKAFOR & SONS`,
 * `BLUE OAK TRADING CO`), so only its own labels can tell a model it splits.
 */
const LOCAL_AMBIGUOUS: ((r: Rand, city: string) => { name: string; card: string; categories: string[] })[] = [
  (r) => {
    const surname = r.pick(SURNAMES);
    return { name: `${surname} Hardware`, card: r.pick([`${surname}S HARDWARE`, `${surname} HARDWARE & SUPPLY`, `${surname} HDWE & LUMBER`]), categories: ["Materials", "Owner draw"] };
  },
  (r) => {
    const words = `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`;
    return { name: `${words} General Store`, card: r.pick([`${words} GENERAL STORE`, `${words} GEN STORE`]), categories: ["Office supplies", "Owner draw"] };
  },
  (r, city) => ({ name: `${city} Farm & Home`, card: r.pick([`${city} FARM & HOME`, `${city} FARM AND HOME`]), categories: ["Materials", "Inventory", "Owner draw"] }),
  (r) => {
    const surname = r.pick(SURNAMES);
    return { name: `${surname} Market`, card: r.pick([`${surname}S MARKET`, `${surname} FAMILY MARKET`, `${surname} FAMILY MKT`]), categories: ["Meals", "Owner draw"] };
  },
  (r) => {
    if (r.chance(0.5)) {
      const surname = r.pick(SURNAMES);
      return { name: `${surname} & Sons`, card: r.pick([`${surname} & SONS`, `${surname} AND SONS`, `${surname} BROS`]), categories: ["Materials", "Owner draw"] };
    }
    const words = `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`;
    return { name: `${words} Co`, card: r.pick([`${words} CO`, `${words} TRADING CO`]), categories: ["Office supplies", "Owner draw"] };
  },
];

const titleWord = (w: string) => (/\d/.test(w) ? w : w.charAt(0) + w.slice(1).toLowerCase());
export const titleCase = (text: string) => text.split(" ").map(titleWord).join(" ");

export function makeBusiness(seed: number): Business {
  const r = new Rand(seed * 7919 + 17);
  const owner = { first: r.pick(FIRST_NAMES), last: r.pick(SURNAMES) };
  const trade = r.pick(TRADES);
  const home = r.pick(CITIES);
  const legalName = `${r.chance(0.5) ? owner.last : `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`} ${trade} ${r.pick(["LLC", "LLC", "INC", "CO"])}`;
  const domain = `${legalName.split(" ")[0]!.toLowerCase()}${r.pick(["co", "shop", "hq", ""])}.com`.toUpperCase();
  const merchants: Merchant[] = [];
  const tradeWeight = (category: string) => TRADE_WEIGHTS[trade]?.[category] ?? 1;
  const phone = () => `${r.pick(["800", "855", "866", "877", "888"])}-${r.digits(3)}-${r.digits(4)}`;
  const add = (m: Omit<Merchant, "id" | "isNew" | "stores"> & { stores?: Record<string, string[]> }) => {
    merchants.push({ ...m, id: `m${merchants.length + 1}`, isNew: false, stores: m.stores ?? storesFor(m.card, r) });
  };
  const dollarsUse = (category: string, dollars: [number, number], fixed: boolean, account: Use["account"] = "any"): Use => ({
    category,
    share: 1,
    dollars,
    account,
    ...(fixed ? { fixedCents: Math.round(r.logUniform(dollars[0], dollars[1]) * 100) } : {}),
  });

  // National brands: a few of each group.
  const groups = new Map<string, Brand[]>();
  for (const brand of BRANDS) {
    const group = brand.group.startsWith("payroll:") ? "payroll" : brand.group;
    groups.set(group, [...(groups.get(group) ?? []), brand]);
  }
  for (const [group, brands] of groups) {
    let chosen: Brand[];
    if (group === "payroll") {
      const provider = r.pick([...new Set(brands.map((b) => b.group))]);
      chosen = brands.filter((b) => b.group === provider);
    } else {
      const [low, high] = GROUP_PICKS[group] ?? [1, 1];
      chosen = r.sample(brands, r.int(low, high));
    }
    for (const brand of chosen) {
      const web = brand.web ? ([brand.web[0] === "PHONE" ? phone() : brand.web[0], brand.web[1]] as [string, string]) : null;
      add({
        name: brand.name,
        kind: brand.kind,
        recurring: brand.recurring ?? false,
        card: brand.card?.replace("{DOMAIN}", domain) ?? null,
        place: web ?? (brand.card ? home : null),
        ach: brand.ach ? { company: brand.ach[0], entry: brand.ach[1], sec: brand.ach[2], companyId: r.digits(10), individualId: brand.ach[3] ?? "" } : null,
        party: brand.name.toUpperCase(),
        toAccount: null,
        enriched: brand.enriched === undefined ? brand.name : brand.enriched,
        uses: [dollarsUse(brand.category, brand.dollars, brand.fixed ?? false)],
        ambiguity: "none",
        weight: WEIGHT[brand.freq] * (0.6 + r.float() * 0.8) * tradeWeight(brand.category),
      });
    }
  }

  // Restaurants and cafes near the business: a few regulars, many visited once or twice.
  const restaurants: string[] = [];
  for (let i = r.int(40, 70); i > 0; i--) {
    const name = r.chance(0.4) ? `${r.pick(SURNAMES)}'S ${r.pick(EATERIES)}` : `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} ${r.pick(EATERIES)}`;
    restaurants.push(name);
    const processor = r.pick(["SQ *", "SQ *", "TST* ", "TST* ", "", "", "", "CLV*", "SP "]);
    const shown = (processor ? name.replace("'S", "S") : name).slice(0, 25 - processor.length);
    add({
      name: titleCase(name),
      kind: "card",
      recurring: false,
      card: processor + shown,
      place: home,
      ach: null,
      party: null,
      toAccount: null,
      enriched: r.chance(0.7) ? titleCase(name) : null,
      uses: [dollarsUse("Meals", [6, 160], false)],
      ambiguity: "none",
      weight: (i <= 5 ? WEIGHT.weekly : WEIGHT.rare * (0.3 + r.float() * 2)) * tradeWeight("Meals"),
    });
  }

  // Local suppliers and services: card, ACH or check.
  const localCompany = (trades: string[]) =>
    `${r.chance(0.5) ? r.pick(SURNAMES) : `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`} ${r.pick(trades)} ${r.pick(LEGAL_SUFFIXES.slice(0, 4))}`;
  const locals: [category: string, count: [number, number], dollars: [number, number], freq: Freq, kinds: Kind[]][] = [
    ["Inventory", [2, 6], [150, 4000], "weekly", ["ach-debit", "ach-debit", "card", "check", "wire-out"]],
    ["Materials", [1, 4], [80, 3000], "weekly", ["card", "card", "check", "ach-debit"]],
    ["Packaging", [0, 2], [80, 1200], "monthly", ["card", "ach-debit"]],
    ["Repairs", [3, 8], [90, 2500], "rare", ["check", "card", "p2p-out", "ach-debit"]],
    ["Professional fees", [1, 3], [150, 3500], "monthly", ["check", "ach-debit", "online"]],
  ];
  for (const [category, [low, high], dollars, mainFreq, kinds] of locals) {
    for (let i = r.int(low, high); i > 0; i--) {
      // One main supplier of each kind; the others now and then.
      const freq: Freq = i === 1 ? mainFreq : mainFreq === "weekly" ? "monthly" : "rare";
      const name = localCompany(SUPPLIER_TRADES[category]!);
      const kind = r.pick(kinds);
      add({
        name: titleCase(name),
        kind,
        recurring: false,
        card: kind === "card" || kind === "online" ? name.slice(0, 25) : null,
        place: kind === "online" ? [phone(), home[1]] : home,
        ach: kind === "ach-debit" ? { company: name.slice(0, 16), entry: r.pick(["PAYMENT", "INVOICE", "ACH PMT", "AUTOPAY", "DRAFT"]), sec: "CCD", companyId: r.digits(10), individualId: "{D9}" } : null,
        party: name,
        toAccount: null,
        enriched: r.chance(0.5) ? titleCase(name) : null,
        uses: [dollarsUse(category, dollars, false)],
        ambiguity: "none",
        weight: WEIGHT[freq] * (0.5 + r.float()) * tradeWeight(category),
      });
    }
  }

  // Checks written now and then to all sorts of payees: the bank prints only the number.
  const checkCategories = ["Repairs", "Contractors", "Professional fees", "Inventory", "Advertising", "Taxes", "Insurance", "Materials", "Owner draw"];
  for (let i = r.int(4, 8); i > 0; i--) {
    const category = r.pick(checkCategories);
    const payee = r.chance(0.5) ? `${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)}` : localCompany(SUPPLIER_TRADES[category] ?? CLIENT_TRADES);
    add({
      name: titleCase(payee),
      kind: "check",
      recurring: false,
      card: null,
      place: null,
      ach: null,
      party: payee,
      toAccount: null,
      enriched: null,
      uses: [dollarsUse(category, [50, 3000], false)],
      ambiguity: "none",
      weight: r.chance(0.3) ? WEIGHT.monthly : WEIGHT.rare * (0.5 + r.float() * 2),
    });
  }

  // The landlord: one lease, the same rent every month.
  const landlord = localCompany(SUPPLIER_TRADES.Rent!);
  const rentKind = r.pick<Kind>(["ach-debit", "check", "p2p-out", "wire-out", "ach-debit"]);
  add({
    name: titleCase(landlord),
    kind: rentKind,
    recurring: true,
    card: null,
    place: null,
    ach: rentKind === "ach-debit" ? { company: landlord.slice(0, 16), entry: "RENT", sec: "CCD", companyId: r.digits(10), individualId: "{D8}" } : null,
    party: landlord,
    toAccount: null,
    enriched: null,
    uses: [dollarsUse("Rent", [900, 7000], true)],
    ambiguity: "none",
    weight: WEIGHT.monthly,
  });

  // The city's water and sewer.
  add({
    name: `City of ${titleCase(home[0])}`,
    kind: "ach-debit",
    recurring: true,
    card: null,
    place: null,
    ach: { company: `CITY OF ${home[0]}`.slice(0, 16), entry: "UTILITY", sec: "PPD", companyId: r.digits(10), individualId: "{D8}" },
    party: `CITY OF ${home[0]}`,
    toAccount: null,
    enriched: null,
    uses: [dollarsUse("Utilities", [40, 400], false)],
    ambiguity: "none",
    weight: WEIGHT.monthly,
  });

  // Clients paying invoices: ACH, wires, and Zelle from people.
  for (let i = r.int(30, 60); i > 0; i--) {
    const company = `${r.chance(0.5) ? `${r.pick(SURNAMES)}${r.chance(0.3) ? ` ${r.pick(SURNAMES)}` : ""}` : `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`} ${r.pick(CLIENT_TRADES)} ${r.pick(LEGAL_SUFFIXES)}`;
    const kind: Kind = r.chance(0.15) ? "wire-in" : "ach-credit";
    add({
      name: titleCase(company),
      kind,
      recurring: false,
      card: null,
      place: null,
      ach: kind === "ach-credit" ? { company: company.slice(0, 16), entry: r.pick(["PAYMENTS", "VENDOR PMT", "ACH PMT", "AP PAYMENT", "EDI PYMNTS", "CORP PAY", "PAYABLES"]), sec: "CCD", companyId: r.digits(10), individualId: "{D10}" } : null,
      party: company,
      toAccount: null,
      enriched: null,
      uses: [dollarsUse("Sales", kind === "wire-in" ? [2000, 40000] : [250, 9000], false)],
      ambiguity: "none",
      weight: (i <= 3 ? WEIGHT.weekly : r.chance(0.3) ? WEIGHT.monthly : WEIGHT.rare) * (kind === "wire-in" ? 0.3 : 1) * tradeWeight("Sales"),
    });
  }
  for (let i = r.int(20, 40); i > 0; i--) {
    const person = `${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)}`;
    add({
      name: titleCase(person),
      kind: "p2p-in",
      recurring: false,
      card: null,
      place: null,
      ach: null,
      party: person,
      toAccount: null,
      enriched: null,
      uses: [dollarsUse("Sales", [40, 1500], false)],
      ambiguity: "none",
      weight: WEIGHT.rare * (0.5 + r.float() * 2),
    });
  }

  // Contractors: paid by Zelle, transfer or check.
  for (let i = r.int(2, 6); i > 0; i--) {
    const person = `${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)}`;
    const kind = r.pick<Kind>(["p2p-out", "p2p-out", "check", "transfer-out"]);
    add({
      name: titleCase(person),
      kind,
      recurring: false,
      card: null,
      place: null,
      ach: null,
      party: person,
      toAccount: kind === "transfer-out" ? { label: r.pick(["CHECKING", "EVERYDAY CHECKING"]), mask: r.digits(4) } : null,
      enriched: null,
      uses: [dollarsUse("Contractors", [150, 3500], false)],
      ambiguity: "none",
      weight: (i <= 2 ? WEIGHT.weekly : WEIGHT.monthly) * tradeWeight("Contractors"),
    });
  }
  for (const [name, card, web] of [
    ["Upwork", "UPWORK -{D9}REF", "UPWORK.COM"],
    ["Fiverr", "FIVERR", "FIVERR.COM"],
  ] as const) {
    if (r.chance(0.4)) {
      add({
        name,
        kind: "online",
        recurring: false,
        card,
        place: [web, "CA"],
        ach: null,
        party: name.toUpperCase(),
        toAccount: null,
        enriched: name,
        uses: [dollarsUse("Contractors", [30, 1500], false)],
        ambiguity: "none",
        weight: WEIGHT.monthly,
      });
    }
  }

  // The owner, the bank, and the business's own accounts.
  const ownerName = `${owner.first} ${owner.last}`;
  const own = (name: string, kind: Kind, category: string, dollars: [number, number], freq: Freq, extra: Partial<Merchant> = {}) =>
    add({ name, kind, recurring: false, card: null, place: null, ach: null, party: ownerName, toAccount: null, enriched: null, uses: [dollarsUse(category, dollars, false)], ambiguity: "none", weight: WEIGHT[freq], ...extra });
  own("Owner's personal account", "transfer-out", "Owner draw", [200, 6000], "weekly", { toAccount: { label: r.pick(["CHECKING", "EVERYDAY CHECKING", "TOTAL CHECKING"]), mask: r.digits(4) } });
  own("Owner by Zelle", "p2p-out", "Owner draw", [100, 3000], "monthly");
  own("ATM", "atm", "Owner draw", [40, 600], "monthly");
  if (r.chance(0.5)) own("Venmo", "ach-debit", "Owner draw", [20, 1500], "monthly", { ach: { company: "VENMO", entry: "PAYMENT", sec: "WEB", companyId: r.digits(10), individualId: "{D13}" }, enriched: "Venmo", party: "VENMO" });
  own("Savings", "transfer-out", "Transfers", [500, 15000], "monthly", { party: legalName, toAccount: { label: r.pick(["SAVINGS", "BUSINESS SAVINGS", "MONEY MARKET"]), mask: r.digits(4) } });
  own("From savings", "transfer-in", "Transfers", [500, 15000], "rare", { party: legalName, toAccount: { label: "SAVINGS", mask: r.digits(4) } });
  own("Cash and check deposits", "deposit", "Sales", [60, 4000], "weekly");
  own("Monthly service fee", "fee", "Bank fees", [10, 40], "monthly", { party: "MONTHLY", uses: [dollarsUse("Bank fees", [10, 40], true)] });
  own("Wire fee", "fee", "Bank fees", [15, 35], "rare", { party: "WIRE" });
  own("Overdraft fee", "fee", "Bank fees", [30, 38], "rare", { party: "OVERDRAFT" });
  own("Interest", "interest", "Interest", [0.05, 40], "monthly");

  // The hard ones: stores that serve the business and the owner alike, national chains and the town's own.
  const local = new Rand(seed * 6151 + 29);
  const ambiguous = [
    ...r.sample(AMBIGUOUS, r.int(2, 4)),
    ...local.sample(LOCAL_AMBIGUOUS, local.int(2, 3)).map((make) => {
      const store = make(local, home[0]);
      return { ...store, name: titleCase(store.name), enriched: local.chance(0.6) ? titleCase(store.name) : null, localStore: true as const };
    }),
  ];
  const modes = r.sample<Ambiguity>(["by-amount", "by-account", "inseparable", r.pick<Ambiguity>(["by-amount", "by-account", "inseparable"])], 4);
  ambiguous.forEach((store, i) => {
    const ambiguity = modes[i % modes.length]!;
    const categories = store.categories;
    // Splits where no category has more than 70% of the lines: a calibrated model keeps these below the band.
    const raw = categories.map(() => 0.6 + r.float() * 0.8);
    const total = raw.reduce((a, b) => a + b, 0);
    const shares = raw.map((x) => x / total);
    const uses: Use[] = categories.map((category, k) => {
      if (ambiguity === "by-amount") {
        // Decades apart: the business buys in bulk, the owner picks up a few things.
        const bands: [number, number][] = [[300, 2500], [35, 120], [5, 25]];
        return { category, share: shares[k]!, dollars: bands[k]!, account: "checking" };
      }
      if (ambiguity === "by-account") {
        return { category, share: shares[k]!, dollars: [12, 400], account: k === 0 ? "checking" : "card" };
      }
      return { category, share: shares[k]!, dollars: [12, 400], account: "any" };
    });
    if (ambiguity === "by-account" && uses.length > 2) {
      // Two accounts tell two categories apart, not three.
      uses.splice(2);
      const sum = uses[0]!.share + uses[1]!.share;
      for (const u of uses) u.share /= sum;
    }
    add({
      name: store.name,
      kind: "card",
      recurring: false,
      card: store.card,
      place: home,
      ach: null,
      party: null,
      toAccount: null,
      enriched: store.enriched,
      uses,
      ambiguity,
      ...("localStore" in store ? { localStore: store.localStore } : {}),
      weight: WEIGHT.weekly * (0.6 + r.float() * 0.8),
    });
  });

  // About one in eight counterparties appears only in the test period.
  for (const m of merchants) {
    m.isNew = canBeNew(m) && r.chance(0.13);
  }
  return { seed, legalName, trade, owner, home, debitCardLast4: r.digits(4), merchants, restaurants };
}

/** The business's own accounts, the bank and the stores made ambiguous on purpose are there from the start. */
function canBeNew(m: Merchant): boolean {
  const own = ["Owner's personal account", "Owner by Zelle", "Savings", "Venmo"].includes(m.name);
  return m.ambiguity === "none" && !own && !["atm", "fee", "interest", "deposit", "transfer-in"].includes(m.kind);
}

/** The store numbers a business visits: one to four per chain. */
function storesFor(card: string | null, r: Rand): Record<string, string[]> {
  const stores: Record<string, string[]> = {};
  for (const [, width] of (card ?? "").matchAll(/\{S(\d+)\}/g)) {
    stores[width!] = Array.from({ length: r.int(1, 4) }, () => r.digits(Number(width)));
  }
  return stores;
}

export interface StreamOptions {
  /** Lines in the labelled past. */
  training: number;
  /** Lines after it, to test on. */
  test: number;
  /** The share of test lines from counterparties the training period never saw. */
  newShare: number;
}

export const DEFAULT_STREAM: StreamOptions = { training: 3_000, test: 2_000, newShare: 0.1 };

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The business's transactions in posting order: the training period from the merchants
 * there from the start, then the test period, about `newShare` of it from merchants new
 * to it and the rest from merchants the training period saw.
 */
export function transactions(business: Business, options: StreamOptions = DEFAULT_STREAM): Txn[] {
  const r = new Rand(business.seed * 104729 + 3);
  const perDay = 6 + r.float() * 4;
  const start = Date.UTC(2024, 0, 2) + r.int(0, 300) * DAY;
  const trainingDays = Math.ceil(options.training / perDay);
  const testDays = Math.ceil(options.test / perDay);
  const days = (count: number, from: number, span: number) =>
    Array.from({ length: count }, () => from + Math.floor(r.float() * span) * DAY).sort((a, b) => a - b);
  const established = business.merchants.filter((m) => !m.isNew);
  const fresh = business.merchants.filter((m) => m.isNew);
  const seen = new Set<Merchant>();
  let nextCheck = r.int(1001, 4000);
  const txns: Txn[] = [];

  const draw = (merchant: Merchant, postedMs: number, period: Txn["period"]) => {
    const use = r.weighted(merchant.uses, (u) => u.share);
    const dollars = use.fixedCents !== undefined ? use.fixedCents / 100 : r.logUniform(use.dollars[0], use.dollars[1]);
    const cents = Math.max(1, Math.round(dollars * 100));
    const isCard = merchant.kind === "card" || merchant.kind === "online";
    const account: Account = use.account === "any" ? (isCard && r.chance(0.2) ? "card" : "checking") : use.account;
    const purchased = isCard ? postedMs - r.int(0, 3) * DAY : postedMs;
    txns.push({
      index: txns.length,
      period,
      merchant,
      category: use.category,
      amountCents: MONEY_IN.has(merchant.kind) ? cents : -cents,
      account,
      postedOn: isoDay(postedMs),
      purchasedOn: isoDay(purchased),
      descriptor: merchant.card ? fill(merchant.card, merchant, r, business, purchased) : "",
      entry: merchant.ach ? fill(merchant.ach.entry, merchant, r, business, postedMs) : "",
      individualId: merchant.ach ? fill(merchant.ach.individualId, merchant, r, business, postedMs) : "",
      checkNumber: merchant.kind === "check" ? nextCheck++ : 0,
      memo: r.pick(["INV", "INVOICE", "PO", "ORDER", "REF"]) + " " + r.digits(r.int(3, 6)),
    });
    seen.add(merchant);
  };

  for (const posted of days(options.training, start, trainingDays)) draw(r.weighted(established, (m) => m.weight), posted, "training");
  const known = established.filter((m) => seen.has(m));
  for (const posted of days(options.test, start + trainingDays * DAY, testDays)) {
    const pool = fresh.length > 0 && r.chance(options.newShare) ? fresh : known;
    draw(r.weighted(pool, (m) => m.weight), posted, "test");
  }
  return txns;
}

const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

/** A descriptor's placeholders filled for one transaction. */
function fill(template: string, merchant: Merchant, r: Rand, business: Business, dayMs: number): string {
  return template.replace(/\{([SAD])(\d+)\}|\{R\}|\{W\}|\{YMD\}|\{CITY\}/g, (whole, type: string | undefined, width: string | undefined) => {
    if (whole === "{R}") return r.pick(business.restaurants).replace(/'/g, "").replace(/ /g, r.chance(0.5) ? "" : " ");
    if (whole === "{W}") return `${WEEKDAYS[new Date(dayMs).getUTCDay()]} ${r.int(1, 12)}${r.pick(["AM", "PM"])}`;
    if (whole === "{YMD}") return isoDay(dayMs).slice(2).replace(/-/g, "");
    if (whole === "{CITY}") return r.chance(0.7) ? business.home[0] : r.pick(CITIES)[0];
    const n = Number(width);
    if (type === "S") return r.chance(0.9) ? r.pick(merchant.stores[width!] ?? [r.digits(n)]) : r.digits(n);
    if (type === "A") return r.code(n);
    return r.digits(n);
  });
}
