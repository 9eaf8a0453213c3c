import { z } from "@hono/zod-openapi";
import { categoryNameProblem } from "../../ledger/books/categories";
import { singleLineText } from "../shared";

/** Rows one create_categories call may carry. */
export const CATEGORIES_BULK_CAP = 100;

export const headerKeySchema = z.enum(["cogs", "expense", "income", "draw", "transfer"]).openapi({
  description:
    "The header a category lives under: `income` (revenue), `cogs` (cost of goods sold), `expense` (business expenses), " +
    "`draw` (owner's draw) or `transfer` (money moved between the business's own accounts; in no P&L section).",
  example: "expense",
});

/**
 * A name for a new category: 1 to 100 characters, and not one of the queue's labels
 * (`uncategorised`, `uncategorized`), which mean "no category" and cannot be created.
 */
const categoryNameSchema = singleLineText()
  .min(1)
  .max(100)
  .superRefine((name, ctx) => {
    // An empty name is already reported by min(1).
    const problem = name.length === 0 ? null : categoryNameProblem(name);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({
    description:
      "The category's name, 1 to 100 characters. Stored trimmed with inner spaces folded; compared case-insensitively. " +
      "`uncategorised` and `uncategorized` mean the queue and cannot be created.",
    example: "Office Supplies",
  });

export const newCategoryBody = z
  .object({
    name: categoryNameSchema,
    header: headerKeySchema,
  })
  .openapi("NewCategory", { description: "A category to add to the taxonomy under one of the five headers." });

export const newCategoriesBody = z
  .object({
    categories: z.array(newCategoryBody).min(1).max(CATEGORIES_BULK_CAP).openapi({
      description: `The categories to add, in order: 1 to ${CATEGORIES_BULK_CAP} rows. Every row is validated before any is written.`,
      example: [
        { name: "Office Supplies", header: "expense" },
        { name: "Flour", header: "cogs" },
      ],
    }),
  })
  .openapi("NewCategories");

const ENTRY_EXAMPLE = { name: "Office Supplies", cat_key: "office-supplies", header_key: "expense", header_name: "Expenses", sort_order: 3 };

const entryFields = {
  name: z.string().openapi({ description: "The category's name as stored (trimmed, inner spaces folded).", example: "Office Supplies" }),
  cat_key: z.string().openapi({ description: "The category's stable key, derived from its name.", example: "office-supplies" }),
  header_key: headerKeySchema,
  header_name: z.string().openapi({ description: "The header's name in words.", example: "Expenses" }),
  sort_order: z.number().int().openapi({ description: "The header's place in the chart (income 1 ... transfer 5).", example: 3 }),
};

export const taxonomyEntrySchema = z.object(entryFields).openapi("TaxonomyEntry", { description: "A live category of the tenant's taxonomy." });

export const categoryEntrySchema = z
  .object({
    id: z.number().int().openapi({ description: "The id of the taxonomy entry the category stands as.", example: 7 }),
    ...entryFields,
  })
  .openapi("CategoryEntry", { description: "A category in the taxonomy, with the id of its entry." });

export const taxonomyResponse = z
  .object({
    categories: z.array(taxonomyEntrySchema).openapi({ description: "Live entries, ordered by the header's `sort_order`, then by name.", example: [ENTRY_EXAMPLE] }),
  })
  .openapi("Taxonomy");

export const newCategoryResponse = z
  .object({ category: categoryEntrySchema })
  .openapi("NewCategoryAnswer", { description: "The category as it stands: newly appended, or the existing one of the same name under the same header." });

export const newCategoriesResponse = z
  .object({
    created: z.array(categoryEntrySchema).openapi({
      description: "One entry per requested row, in the request's order: `created[i]` answers `categories[i]` (an existing entry of the same name and header is answered as it stands).",
      example: [{ id: 7, ...ENTRY_EXAMPLE }],
    }),
  })
  .openapi("NewCategoriesAnswer");

export const categoryTotalSchema = z
  .object({
    category: z.string().openapi({ description: "The label, exactly as the lines carry it.", example: "Office Supplies" }),
    total_cents: z.number().int().openapi({ description: "Sum of `amount_cents` of the booked lines carrying it (positive = money in).", example: -48230 }),
    lines: z.number().int().openapi({ description: "How many booked lines carry it.", example: 12 }),
  })
  .openapi("CategoryTotal");

export const categoryTotalsResponse = z
  .object({
    categories: z.array(categoryTotalSchema).openapi({
      description: "Labels that booked lines carry on this face (the queue excluded), by absolute `total_cents`, largest first; ties by label.",
      example: [{ category: "Sales", total_cents: 1250000, lines: 40 }, { category: "Office Supplies", total_cents: -48230, lines: 12 }],
    }),
  })
  .openapi("CategoryTotals");
