/**
 * How one business names its categories, and where it files merchants that other
 * businesses file elsewhere. Every business in the generator keeps the same kinds of books
 * (`BANK_CATEGORIES`), but no two write the same chart of accounts: one calls meals
 * `Meals`, another `Meals & Entertainment`, a third `Business meals`; one keeps fuel in a
 * category of its own, another files it under `Travel`; and now and then a business files
 * one merchant where it files no other of its kind. The shared merchant prior reads
 * categories across businesses by their names, so its evaluation must meet this variety:
 * a name is shared only where businesses happen to use it, and a merchant that a tenant
 * files otherwise than most is a wrong guess for that tenant.
 */
import { sharedCategoryName } from "../../src/ledger/model/shared-prior";
import type { BankLine, Book } from "./book";
import { BANK_CATEGORIES } from "./business";
import { Rand } from "./random";

/** Names businesses give each kind of category; the first (a bookkeeping program's default) is the most common. */
const NAMES: Record<string, string[]> = {
  Sales: ["Sales", "Revenue", "Sales income", "Income"],
  Interest: ["Interest", "Interest income", "Interest earned"],
  Inventory: ["Inventory", "Cost of goods sold", "Purchases", "Inventory purchases"],
  Materials: ["Materials", "Job materials", "Supplies & materials", "Materials and supplies"],
  Packaging: ["Packaging", "Packaging supplies", "Shipping supplies"],
  Shipping: ["Shipping", "Postage", "Shipping & delivery", "Freight"],
  Rent: ["Rent", "Rent or lease", "Rent & lease"],
  Payroll: ["Payroll", "Wages", "Payroll expenses", "Salaries & wages"],
  Contractors: ["Contractors", "Contract labor", "Subcontractors"],
  Taxes: ["Taxes", "Taxes & licenses", "Taxes and licenses"],
  "Professional fees": ["Professional fees", "Legal & professional fees", "Legal and professional services"],
  Software: ["Software", "Software & subscriptions", "Dues & subscriptions", "Subscriptions"],
  Meals: ["Meals", "Meals & entertainment", "Meals and entertainment", "Business meals"],
  Fuel: ["Fuel", "Gas", "Car & truck", "Vehicle fuel", "Auto"],
  Utilities: ["Utilities", "Phone & internet", "Utilities & telecom"],
  Insurance: ["Insurance", "Business insurance"],
  Advertising: ["Advertising", "Marketing", "Advertising & marketing"],
  "Bank fees": ["Bank fees", "Bank charges", "Bank service charges"],
  "Office supplies": ["Office supplies", "Office expenses", "Supplies"],
  Travel: ["Travel", "Travel expenses"],
  Repairs: ["Repairs", "Repairs & maintenance", "Repairs and maintenance"],
  "Owner draw": ["Owner draw", "Owner's draw", "Personal", "Owner distributions"],
  Transfers: ["Transfers", "Transfer", "Internal transfers"],
};

/** The share of businesses that use a kind's first name; the rest pick among the others alike. */
const DEFAULT_NAME = 0.45;
/** The share of a business's merchants of a kind in `ELSEWHERE` that it files there though it keeps the kind. */
const ONE_MERCHANT_ELSEWHERE = 0.03;

/**
 * Where some businesses file a whole kind instead (`share` of them): fuel under travel,
 * subscriptions under office supplies, contractors under professional fees.
 */
const ELSEWHERE: Record<string, { kind: string; share: number }> = {
  Fuel: { kind: "Travel", share: 0.2 },
  Software: { kind: "Office supplies", share: 0.1 },
  Meals: { kind: "Travel", share: 0.1 },
  Packaging: { kind: "Shipping", share: 0.15 },
  Utilities: { kind: "Software", share: 0.1 },
  Repairs: { kind: "Materials", share: 0.15 },
  Advertising: { kind: "Software", share: 0.1 },
  Contractors: { kind: "Professional fees", share: 0.2 },
  Inventory: { kind: "Office supplies", share: 0.05 },
  "Office supplies": { kind: "Inventory", share: 0.05 },
};

export interface Taxonomy {
  /** The business's name of each category it keeps. */
  names: ReadonlyMap<string, string>;
  /** A line's category as this business files it. */
  categoryOf(line: BankLine): string;
}

export function taxonomyOf(seed: number): Taxonomy {
  const r = new Rand(seed * 7_919 + 104_729);
  const names = new Map<string, string>();
  for (const { name } of BANK_CATEGORIES) {
    const choices = NAMES[name]!;
    names.set(name, r.chance(DEFAULT_NAME) ? choices[0]! : r.pick(choices.slice(1)));
  }
  // The kinds this business files under another: it keeps no category of their own.
  const merged = new Map<string, string>();
  for (const [kind, elsewhere] of Object.entries(ELSEWHERE)) {
    // Into a kind the business keeps: never one it files elsewhere itself, nor one filed into this.
    if (r.chance(elsewhere.share) && !merged.has(elsewhere.kind) && ![...merged.values()].includes(kind)) merged.set(kind, elsewhere.kind);
  }
  for (const kind of merged.keys()) names.delete(kind);
  const filed = new Map<string, string>();
  return {
    names,
    categoryOf(line) {
      const key = `${line.merchantId}\n${line.category}`;
      let kind = filed.get(key);
      if (kind === undefined) {
        kind = merged.get(line.category) ?? line.category;
        const elsewhere = ELSEWHERE[kind];
        if (elsewhere && names.has(elsewhere.kind) && new Rand(hash(`${seed}\n${key}`)).chance(ONE_MERCHANT_ELSEWHERE)) kind = elsewhere.kind;
        filed.set(key, kind);
      }
      return names.get(kind)!;
    },
  };
}

/** The lines as this business files them: the same lines, each with its category by the business's taxonomy. */
export function filedBy(taxonomy: Taxonomy, lines: readonly BankLine[]): BankLine[] {
  return lines.map((line) => ({ ...line, category: taxonomy.categoryOf(line) }));
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The book with every line filed by its business's taxonomy (`taxonomyOf` its seed). */
export function filedBook(book: Book): Book {
  const taxonomy = taxonomyOf(book.business.seed);
  const lines = Object.fromEntries(Object.entries(book.lines).map(([style, printed]) => [style, filedBy(taxonomy, printed)])) as Book["lines"];
  return { ...book, lines };
}

/** A business's categories by their shared names, as the model reads the prior's (`useSharedPrior`). */
export function sharedNamesOf(seed: number): Map<string, string> {
  return new Map([...taxonomyOf(seed).names.values()].map((name) => [sharedCategoryName(name), name]));
}
