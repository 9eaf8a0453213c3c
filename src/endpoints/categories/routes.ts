import { switchOn, type Env } from "../../env";
import { ApiError, settle } from "../../errors";
import { defineEndpoint } from "../define";
import {
  categoryTotalsResponse,
  newCategoriesBody,
  newCategoriesResponse,
  newCategoryBody,
  newCategoryResponse,
  taxonomyResponse,
} from "./schema";

/** The deployment switches: off, the taxonomy read or the new-category verbs answer 404. */
function requireTaxonomyRead(env: Env): void {
  if (!switchOn(env.TAXONOMY_READ)) {
    throw new ApiError("taxonomy_read_disabled", "This deployment does not enable the taxonomy read (the TAXONOMY_READ switch is off).");
  }
}

function requireCategoryVerbs(env: Env): void {
  if (!switchOn(env.CATEGORY_VERBS)) {
    throw new ApiError("category_verbs_disabled", "This deployment does not enable the new-category verbs (the CATEGORY_VERBS switch is off).");
  }
}

export const listCategories = defineEndpoint({
  operationId: "list_categories",
  method: "get",
  path: "/api/v1/categories",
  tag: "categories",
  summary: "List categories with their totals",
  description:
    "The category labels that booked lines carry, each with its booked `total_cents` and line count, most money first " +
    "(by absolute total; ties by label). Only labels some booked line carries are listed: a taxonomy entry no line uses " +
    "is not here (see list_category_taxonomy), and the queue (`uncategorised`) is never listed. Pending, superseded, " +
    "retracted and archived lines count nowhere. Computed over the lines this credential's face serves. To make a " +
    "category: create_category (POST /api/v1/new-category) or create_categories (POST /api/v1/new-categories); a POST " +
    "here is 405 naming them.",
  credential: "read",
  addedBy: ["create_category", "create_categories"],
  success: { status: 200, description: "The category aggregate.", schema: categoryTotalsResponse },
  async handler({ ledger, face }) {
    return { categories: settle(await ledger.categoryTotals(face)) };
  },
});

export const listCategoryTaxonomy = defineEndpoint({
  operationId: "list_category_taxonomy",
  method: "get",
  path: "/api/v1/taxonomy",
  tag: "categories",
  summary: "List the category taxonomy",
  description:
    "The tenant's live taxonomy: every category with its key and the header it lives under (income, cogs, expense, draw, " +
    "transfer), ordered by the header's `sort_order`, then by name. An entry is listed whether or not any line carries " +
    "its label; retired entries are not. Use it to pick an existing name before categorizing, or to find a category's " +
    "header. 404 when the deployment does not enable the read. To add to it: create_category (POST " +
    "/api/v1/new-category) or create_categories (POST /api/v1/new-categories); a POST here is 405 naming them.",
  credential: "read",
  addedBy: ["create_category", "create_categories"],
  success: { status: 200, description: "The live taxonomy.", schema: taxonomyResponse },
  errors: { taxonomy_read_disabled: "The deployment does not enable the taxonomy read (switch `TAXONOMY_READ`)." },
  async handler({ env, ledger }) {
    requireTaxonomyRead(env);
    return { categories: settle(await ledger.taxonomy()) };
  },
});

export const createCategory = defineEndpoint({
  operationId: "create_category",
  method: "post",
  path: "/api/v1/new-category",
  tag: "categories",
  summary: "Add a category",
  description:
    "Appends one category to the taxonomy under a header (`income`, `cogs`, `expense`, `draw` or `transfer`) and " +
    "answers it with its id and key. Names compare case-insensitively, ignoring surrounding and repeated spaces: the same " +
    "name under the same header is answered as it stands and nothing is appended, so the call is safe to repeat. A name " +
    "that already lives under another header is refused by the ledger (409, its words verbatim). `uncategorised` and " +
    "`uncategorized` mean the queue and are refused (400). 404 when the deployment does not enable the verb.",
  credential: "write",
  body: newCategoryBody,
  success: { status: 200, description: "The category as it stands.", schema: newCategoryResponse },
  errors: {
    category_verbs_disabled: "The deployment does not enable the new-category verbs (switch `CATEGORY_VERBS`).",
    ledger_refusal: "The name already lives under another header; `detail` is the ledger's words verbatim.",
  },
  async handler({ env, ledger, caller, body }) {
    requireCategoryVerbs(env);
    return { category: settle(await ledger.createCategory({ name: body.name, header: body.header }, caller.actor)) };
  },
});

/**
 * The 409 of create_categories is the ledger_refusal problem with two extra members:
 *   { type, title, status: 409, code: "ledger_refusal",
 *     detail: <the ledger's words verbatim, as create_category would answer for that row>,
 *     row: <the refused row's index in `categories`, from 0>,
 *     created: [<CategoryEntry for rows 0 .. row-1, in order>] }
 * The rows in `created` stay created; the rows after `row` were not tried.
 */
export const createCategories = defineEndpoint({
  operationId: "create_categories",
  method: "post",
  path: "/api/v1/new-categories",
  tag: "categories",
  summary: "Add categories in bulk",
  description:
    "Appends up to 100 categories in order, each as create_category would. Every row is validated before anything is " +
    "written: a 400 lists every failing field (`body.categories.<i>.name`, `body.categories.<i>.header`). Answers " +
    "`created`, one entry per row in the request's order (a name already under the same header is answered as it " +
    "stands). The first row the ledger refuses (a name that lives under another header) stops the call: the 409 carries " +
    "the ledger's words verbatim in `detail`, the refused row's index (from 0) in `row`, and the rows before it in " +
    "`created`; those stay created, and the rows after it were not tried. 404 when the deployment does not enable the verb.",
  credential: "write",
  body: newCategoriesBody,
  success: { status: 200, description: "Every row landed.", schema: newCategoriesResponse },
  errors: {
    category_verbs_disabled: "The deployment does not enable the new-category verbs (switch `CATEGORY_VERBS`).",
    ledger_refusal: "The ledger refused a row: `detail` is its words verbatim, `row` the refused row's index, `created` the rows created before it.",
  },
  async handler({ env, ledger, caller, body }) {
    requireCategoryVerbs(env);
    const rows = body.categories.map((c) => ({ name: c.name, header: c.header }));
    const outcome = await ledger.createCategories(rows, caller.actor);
    // The rows created before a refusal are answered as documented, like the rows of a success.
    if (!outcome.ok && outcome.refusal.kind === "refused") outcome.refusal.created = newCategoriesResponse.shape.created.parse(outcome.refusal.created);
    return { created: settle(outcome) };
  },
});
