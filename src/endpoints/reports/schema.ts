import { z } from "@hono/zod-openapi";
import { PNL_FORMS, UNKNOWN_LABEL_LINE } from "../../ledger/reports/pnl";
import { PNL_PARTS } from "../../ledger/reports/pnl-transactions";
import { cappedInt, isoDateSchema, pageSchema, singleLineText } from "../shared";

const cents = (description: string, example: number) => z.number().int().openapi({ description, example });

export const pnlQuery = z.object({
  tenant: singleLineText().min(1).max(40).optional().openapi({
    description: "Must be the credential's own tenant; omit it and the credential decides.",
    example: "acme-bakery",
  }),
  as_of: isoDateSchema.optional().openapi({ description: "The date the windows end on (America/Chicago). Default: today.", example: "2026-11-20" }),
  form: z.enum(PNL_FORMS).default("full").openapi({
    description:
      "`full` (the default): the contract's whole report, each line listing every transaction. `totals`: every number, " +
      "and each category line's count of transactions, without the transactions (page them with list_pnl_transactions): " +
      "the same report at a fraction of the size and cost on a large book.",
    example: "totals",
  }),
});

export const pnlTransactionSchema = z.object({
  side: z.enum(["A", "B"]).openapi({ description: "The transaction's side.", example: "A" }),
  src_id: z.number().int().openapi({ description: "Its id on that side.", example: 42 }),
  posted_on: z.string().openapi({ description: "Its date.", example: "2026-11-18" }),
  description: z.string().openapi({ description: "Its description as the bank printed it.", example: "STRIPE PAYOUT" }),
  amount_cents: cents("Signed from the business's side: positive = money in.", 82000),
  period: z.enum(["current", "prior"]).openapi({ description: "Which half of the window it falls in." }),
});

export const pnlLineSchema = z
  .object({
    category: z.string().openapi({ description: "The category line.", example: "Sales" }),
    current: cents("The category's number in the current period, positive in the section's natural direction.", 82000),
    prior: cents("The same over the prior period.", 61000),
    sign: z.union([z.literal(1), z.literal(-1)]).openapi({ description: "+1, or -1 for a component a derived section subtracts.", example: 1 }),
    transactions: z.array(pnlTransactionSchema).openapi({ description: "Every booked transaction that contributed." }),
  })
  .openapi("PnlLine");

export const pnlSectionSchema = z
  .object({
    current: cents("The section's number for the current period.", 82000),
    prior: cents("The same for the prior period.", 61000),
    derived: z.boolean().openapi({ description: "True for gross_margin and net_income, which re-carry their components' lines.", example: false }),
    lines: z.array(pnlLineSchema).openapi({ description: "The section's category lines, by category; a derived section re-carries its components' lines." }),
  })
  .openapi("PnlSection");

const sections = z
  .object({
    revenue: pnlSectionSchema,
    cogs: pnlSectionSchema,
    gross_margin: pnlSectionSchema,
    biz_expenses: pnlSectionSchema,
    net_income: pnlSectionSchema,
    owners_draw: pnlSectionSchema,
  })
  .openapi({ description: "The six sections. The twelve comparison numbers are their `current` in each window; do not also sum the derived sections' lines." });

export const pnlWindowSchema = z
  .object({
    from: z.string().openapi({ description: "First day of the current period.", example: "2026-11-14" }),
    to: z.string().openapi({ description: "Last day: as_of.", example: "2026-11-20" }),
    prior_from: z.string().openapi({ description: "First day of the prior period.", example: "2026-11-07" }),
    prior_to: z.string().openapi({ description: "Last day of the prior period.", example: "2026-11-13" }),
    sections,
  })
  .openapi("PnlWindow");

const transactionCount = z
  .object({
    current: z.number().int().openapi({ description: "Transactions in the current period.", example: 14 }),
    prior: z.number().int().openapi({ description: "Transactions in the prior period.", example: 11 }),
  })
  .openapi({ description: "How many booked transactions contributed, per period." });

// The rolling report's schemas are fresh objects from the contract's shapes, not `.extend`s
// of them: an extended registered schema is written as `allOf` with its base, whose
// required `transactions` would then bind the totals form too (as the tool face checks).
export const rollingPnlLineSchema = z
  .object({
    ...pnlLineSchema.shape,
    transaction_count: transactionCount,
    transactions: z
      .array(pnlTransactionSchema)
      .optional()
      .openapi({ description: "`form=full` only: every booked transaction that contributed, oldest first. Otherwise page them with list_pnl_transactions." }),
  })
  .openapi("RollingPnlLine");

export const rollingPnlSectionSchema = z
  .object({
    ...pnlSectionSchema.shape,
    lines: z.array(rollingPnlLineSchema).openapi({ description: "The section's category lines, by category; a derived section re-carries its components' lines." }),
  })
  .openapi("RollingPnlSection");

const pnlEntryWithLabel = pnlTransactionSchema.extend({
  category: z.string().openapi({ description: "Its label; `uncategorised` for a line with none.", example: "Misc" }),
});

export const unknownLabelLineSchema = z
  .object({
    category: z.literal(UNKNOWN_LABEL_LINE).openapi({ description: "The line's name." }),
    current: cents("The lines' sum in the current period, as the books have it (money in positive): no section gives them a direction.", -7000),
    prior: cents("The same over the prior period.", 0),
    sign: z.literal(1).openapi({ description: "Always +1: no derived section takes this line." }),
    transaction_count: transactionCount,
    labels: z
      .array(
        z.object({
          category: z.string().openapi({ description: "A label the taxonomy does not hold, or `uncategorised` for the lines with none.", example: "Misc" }),
          current: cents("Its lines' sum in the current period (money in positive).", -7000),
          prior: cents("The same over the prior period.", 0),
          transaction_count: transactionCount,
        }),
      )
      .openapi({ description: "What the line gathers, by label." }),
    transactions: z
      .array(pnlEntryWithLabel)
      .optional()
      .openapi({ description: "`form=full` only: every booked transaction it gathers, oldest first, each with its label." }),
  })
  .openapi("UnknownLabelLine", {
    description:
      "Booked lines with no category or a label the taxonomy does not hold: in no section (and in none of the twelve numbers), gathered here; the report warns of them.",
  });

export const rollingPnlWindowSchema = z
  .object({
    ...pnlWindowSchema.shape,
    sections: z
      .object({
        revenue: rollingPnlSectionSchema,
        cogs: rollingPnlSectionSchema,
        gross_margin: rollingPnlSectionSchema,
        biz_expenses: rollingPnlSectionSchema,
        net_income: rollingPnlSectionSchema,
        owners_draw: rollingPnlSectionSchema,
      })
      .openapi({ description: "The six sections. The twelve comparison numbers are their `current` in each window; do not also sum the derived sections' lines." }),
    unknown_label: unknownLabelLineSchema,
    foreign_currency: z
      .object({
        current: z.number().int().openapi({ description: "Booked lines in another currency in the current period, left out.", example: 2 }),
        prior: z.number().int().openapi({ description: "The same in the prior period.", example: 0 }),
        currencies: z.array(z.string()).openapi({ description: "Their currencies.", example: ["EUR"] }),
      })
      .openapi({ description: "Booked lines the bank gave in a currency other than the books': left out of every number here, and counted." }),
  })
  .openapi("RollingPnlWindow");

export const pnlReportSchema = z
  .object({
    as_of: z.string().openapi({ description: "The day the windows end on (America/Chicago).", example: "2026-11-20" }),
    lineage_basis: z.literal("unreadable").openapi({ description: "The paper-verified lineage cannot be read from this face; no section number depends on it." }),
    lists_source: z.string().openapi({ description: "Which category lists classified the rows.", example: "tenant taxonomy (category -> header)" }),
    form: z.enum(PNL_FORMS).openapi({ description: "Which form this is: `totals` (no transactions listed) or `full` (the contract's whole report).", example: "totals" }),
    currency: z.string().openapi({ description: "The books' currency: every number is in it.", example: "USD" }),
    warnings: z
      .array(
        z.object({
          code: z.enum(["unknown_label", "foreign_currency"]).openapi({ description: "What the warning is about.", example: "unknown_label" }),
          lines: z.number().int().openapi({ description: "How many booked lines of the windows it concerns.", example: 3 }),
          message: z.string().openapi({ description: "The warning in words, naming the labels or currencies." }),
        }),
      )
      .openapi({
        description:
          "Booked lines of the windows that no section counts (but transfers): `unknown_label` for those with no category or a label " +
          "the taxonomy does not hold (see each window's `unknown_label`), `foreign_currency` for those in another currency (left out). Empty when none.",
      }),
    windows: z.object({ "7d": rollingPnlWindowSchema, "30d": rollingPnlWindowSchema }).openapi({ description: "The 7- and 30-day windows ending on as_of." }),
  })
  .openapi("RollingPnl");

/** The most transactions one page of list_pnl_transactions holds. */
export const PNL_TRANSACTIONS_PER_PAGE_CAP = 500;

export const pnlTransactionsQuery = z.object({
  as_of: isoDateSchema.optional().openapi({ description: "The date the windows end on (America/Chicago). Default: today.", example: "2026-11-20" }),
  window: z.enum(["7d", "30d"]).openapi({ description: "The window.", example: "7d" }),
  section: z.enum(PNL_PARTS).openapi({
    description: "The section (a derived one gives its components' transactions), or `unknown_label` for the line \"Uncategorised / unknown label\".",
    example: "revenue",
  }),
  category: singleLineText().min(1).max(200).optional().openapi({
    description: "One category line of the section, exactly as the report names it (`uncategorised`, under unknown_label, for the lines with none).",
    example: "Sales",
  }),
  period: z.enum(["current", "prior"]).optional().openapi({ description: "One period of the window; default both.", example: "current" }),
  page: pageSchema,
  per_page: cappedInt("Transactions per page.", 100, PNL_TRANSACTIONS_PER_PAGE_CAP),
});

export const pnlTransactionsResponse = z
  .object({
    as_of: z.string().openapi({ description: "The day the windows end on.", example: "2026-11-20" }),
    window: z.enum(["7d", "30d"]).openapi({ description: "The window.", example: "7d" }),
    section: z.enum(PNL_PARTS).openapi({ description: "The section, or unknown_label.", example: "revenue" }),
    category: z.string().nullable().openapi({ description: "The category line asked for; null for every line of the section.", example: "Sales" }),
    period: z.enum(["current", "prior"]).nullable().openapi({ description: "The period asked for; null for both.", example: null }),
    transactions: z
      .array(pnlEntryWithLabel)
      .openapi({ description: "This page's transactions, by category (lines with none first), then newest first." }),
    page: z.number().int().openapi({ description: "The page served.", example: 1 }),
    per_page: z.number().int().openapi({ description: "Transactions per page, after the cap.", example: 100 }),
    total: z.number().int().openapi({ description: "Transactions asked for, over every page: the lines' `transaction_count` summed.", example: 134 }),
  })
  .openapi("PnlTransactionPage");

/** The oracle: the structured report in the shape of the rolling P&L, from any workflow. */
export const oracleReportSchema = z
  .object({
    as_of: isoDateSchema.optional().openapi({ description: "The day the oracle's windows end on.", example: "2026-11-20" }),
    lineage_basis: z.string().optional().openapi({ description: "As the oracle states it; not compared." }),
    lists_source: z.string().optional().openapi({ description: "As the oracle states it; not compared." }),
    windows: z.object({ "7d": pnlWindowSchema, "30d": pnlWindowSchema }).openapi({ description: "The oracle's 7- and 30-day windows, section to category to transaction." }),
  })
  .openapi("OracleReport", {
    description: "Section to category to transaction, as get_pnl_rolling answers. A rendered card or raw workflow output is refused (400).",
  });

const asserted = (section: string) =>
  z
    .object({ current: z.number().int().openapi({ description: `The books' ${section} for the current period, as you assert it.`, example: 250000 }) })
    .openapi({ description: `The ${section} section.` });
const assertedWindow = (window: string) =>
  z
    .object({
      sections: z
        .object({
          revenue: asserted("revenue"),
          cogs: asserted("cogs"),
          gross_margin: asserted("gross margin"),
          biz_expenses: asserted("business expenses"),
          net_income: asserted("net income"),
          owners_draw: asserted("owner's draw"),
        })
        .openapi({ description: "The six sections' `current` numbers." }),
    })
    .openapi({ description: `The ${window} window.` });

export const parityBody = z.object({
  oracle: oracleReportSchema,
  local: z
    .object({ windows: z.object({ "7d": assertedWindow("7-day"), "30d": assertedWindow("30-day") }).openapi({ description: "The twelve numbers, by window." }) })
    .optional()
    .openapi({ description: "An assertion of the books' own report; its twelve `current` numbers must agree with the books, or nothing is filed (409)." }),
  as_of: isoDateSchema.optional().openapi({ description: "The day. Default: the oracle's own as_of, else today (America/Chicago).", example: "2026-11-20" }),
});

const seenSchema = z
  .object({
    section: z.string().openapi({ description: "The section it counts in on that side.", example: "revenue" }),
    category: z.string().openapi({ description: "Its category on that side.", example: "Sales" }),
    amount_cents: z.number().int().openapi({ description: "Its amount on that side.", example: 82000 }),
  })
  .nullable()
  .openapi({ description: "How that side has the transaction; null where it is missing." });

export const localisationSchema = z
  .object({
    kind: z
      .enum(["RECATEGORIZED", "AMOUNT_DIFF", "WINDOW_EDGE", "MISSING_ON_LOCAL", "MISSING_ON_ORACLE"])
      .openapi({ description: "Why the transaction explains a delta (the matching rule is in the project's docs).", example: "RECATEGORIZED" }),
    window: z.enum(["7d", "30d"]).openapi({ description: "The window it was found in.", example: "7d" }),
    side: z.enum(["A", "B"]).openapi({ description: "The transaction's side.", example: "A" }),
    src_id: z.number().int().openapi({ description: "Its id on that side (the oracle's own id when only the oracle has it).", example: 42 }),
    posted_on: z.string().openapi({ description: "Its date.", example: "2026-11-18" }),
    description: z.string().openapi({ description: "Its description.", example: "STRIPE PAYOUT" }),
    local: seenSchema,
    oracle: seenSchema,
  })
  .openapi("ParityLocalisation");

const sectionNames = z.enum(["revenue", "cogs", "gross_margin", "biz_expenses", "net_income", "owners_draw"]);

export const unexplainedSchema = z
  .object({
    window: z.enum(["7d", "30d"]).openapi({ description: "The window.", example: "7d" }),
    section: sectionNames.openapi({ description: "The section.", example: "revenue" }),
    delta_cents: z.number().int().openapi({ description: "The delta: books minus oracle.", example: 147900 }),
    explained_cents: z.number().int().openapi({
      description: "What the window's localisations add up to in this section, in its natural direction (a derived section sums its components').",
      example: 45655,
    }),
    unexplained_cents: z.number().int().openapi({ description: "delta_cents - explained_cents: the part no transaction explains. Never 0 here.", example: 102245 }),
  })
  .openapi("ParityUnexplained", {
    description:
      "A delta (one of the twelve numbers) that the localisations do not wholly explain, with the amount they leave over: " +
      "say an oracle whose section number is not the sum of its own transactions.",
  });

const verdictFields = {
  as_of: z.string().openapi({ description: "The day the verdict is for.", example: "2026-11-20" }),
  revision: z.number().int().openapi({ description: "1 for the day's first verdict; each repeat for the same day is the next.", example: 1 }),
  coefficient: z.number().openapi({ description: "Sum of |books - oracle| over the twelve numbers / max(1, sum of |oracle|). Identical reports give 0.", example: 0.0125 }),
  match: z.boolean().openapi({ description: "True when the coefficient is 0 (the twelve numbers agree); false is a mismatch.", example: false }),
  deltas: z.record(z.string(), z.number().int()).openapi({ description: "Books minus oracle for each of the twelve numbers, keyed `<window>.<section>`.", example: { "7d.revenue": 2500 } }),
  unexplained: z.array(unexplainedSchema).openapi({
    description: "Each delta the localisations do not wholly explain, with the amount left over, by window then section; empty when every delta is explained.",
  }),
};

const localisationsField = z.array(localisationSchema).openapi({ description: "Every delta's explaining transactions, sorted (window, date, side, id, kind)." });

export const verdictResponse = z
  .object({
    verdict: z.object({ ...verdictFields, localisations: localisationsField }).openapi({ description: "The day's verdict as filed." }),
  })
  .openapi("ParityVerdict");

const oracleOriginFields = {
  source: z.enum(["manual", "daily"]).openapi({
    description: "`daily`: the daily run fetched the report from the tenant's oracle source; `manual`: a caller sent it to record_pnl_parity.",
    example: "daily",
  }),
  url: z.string().nullable().openapi({ description: "The daily source's address, without query or fragment (never its secret); null for `manual`.", example: "https://reports.example.com/pnl.json" }),
  filed_by: z.string().openapi({ description: "Who filed it: `cron:daily-parity`, or the caller's actor.", example: "cron:daily-parity" }),
};

export const oracleOriginSchema = z.object(oracleOriginFields).openapi("OracleOrigin", { description: "Where the verdict's oracle report came from." });

/** A verdict of the history: its numbers, without the localisations themselves (read the one verdict for them). */
export const verdictSummarySchema = z
  .object({
    status: z.literal("filed").openapi({ description: "`filed`: a verdict (`match` says whether it matched). A day the daily run filed none for is listed `failed`.", example: "filed" }),
    ...verdictFields,
    filed_at: z.string().openapi({ description: "When it was filed (ISO 8601, UTC).", example: "2026-11-21T11:00:04.211Z" }),
    localisation_count: z.number().int().openapi({ description: "How many localisations it holds.", example: 5 }),
    oracle: oracleOriginSchema,
  })
  .openapi("ParityVerdictSummary");

export const filedVerdictResponse = z
  .object({
    verdict: z
      .object({
        ...verdictFields,
        filed_at: z.string().openapi({ description: "When it was filed (ISO 8601, UTC).", example: "2026-11-21T11:00:04.211Z" }),
        localisations: localisationsField,
        oracle: z
          .object({ ...oracleOriginFields, report: oracleReportSchema })
          .openapi("FiledOracle", { description: "Where the oracle report came from, and the report the verdict was computed against, as it was received." }),
      })
      .openapi({ description: "The verdict as filed, with its oracle." }),
  })
  .openapi("FiledParityVerdict");
