/** The categories a person picks from: the taxonomy and every label a line carries, and the nine used most (the number keys). */
import { settle } from "../../errors";
import type { Workspace } from "./access";

export interface CategoryChoices {
  /** Every category, by name. */
  names: string[];
  /** The nine categories carried by the most lines (then the taxonomy's first), for the keys 1 to 9. */
  quick: string[];
}

export const QUICK_KEYS = 9;

export async function categoryChoices(ws: Workspace): Promise<CategoryChoices> {
  const [taxonomy, totals] = await Promise.all([ws.ledger.taxonomy(), ws.ledger.categoryTotals(ws.face)]);
  const entries = settle(taxonomy);
  const used = settle(totals);
  const names = [...new Set([...entries.map((e) => e.name), ...used.map((t) => t.category)])].sort((a, b) =>
    a.localeCompare(b, "en", { sensitivity: "base" }),
  );
  const byUse = [...used].sort((a, b) => b.lines - a.lines || a.category.localeCompare(b.category)).map((t) => t.category);
  const quick = [...new Set([...byUse, ...entries.map((e) => e.name)])].slice(0, QUICK_KEYS);
  return { names, quick };
}
