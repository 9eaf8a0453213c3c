import { z } from "@hono/zod-openapi";
import { cappedInt, isoDateSchema, pageSchema, paramInteger, PER_PAGE_CAP, rowSchema, sideSchema, singleLineText } from "../shared";

export const listTransactionsQuery = z.object({
  from: isoDateSchema.optional().openapi({ description: "Inclusive lower bound on `posted_on` (ISO date).", example: "2026-11-01" }),
  to: isoDateSchema.optional().openapi({ description: "Inclusive upper bound on `posted_on` (ISO date).", example: "2026-11-30" }),
  cat: singleLineText().min(1).max(200).optional().openapi({
    description: "Exact category label; `uncategorised` (or `uncategorized`) selects the queue.",
    example: "uncategorised",
  }),
  q: singleLineText().min(1).max(200).optional().openapi({ description: "Case-insensitive substring of the description.", example: "coffee" }),
  page: pageSchema,
  per_page: cappedInt("Rows per page.", 50, PER_PAGE_CAP),
});

export const listTransactionsResponse = z
  .object({
    rows: z.array(rowSchema).openapi({ description: "This page's rows, newest `posted_on` first." }),
    page: z.number().int().openapi({ description: "The page served.", example: 1 }),
    per_page: z.number().int().openapi({ description: "Rows per page, after the cap.", example: 50 }),
    total: z.number().int().openapi({ description: "Rows matched by the filters, over every page.", example: 134 }),
    total_cents: z.number().int().openapi({
      description: "Sum of `amount_cents` of the matched rows that are in books, over every page (never just this page).",
      example: -482311,
    }),
  })
  .openapi("TransactionPage");

export const lineParams = z.object({
  side: sideSchema.openapi({ param: { name: "side", in: "path" } }),
  src_id: paramInteger().openapi({ param: { name: "src_id", in: "path" }, description: "The line's id on that side.", example: 42 }),
});

export const transactionDetailResponse = z
  .object({
    row: rowSchema,
    lineage: z.array(z.string()).openapi({
      description: "The line's history in words: how it arrived, what it supersedes or was superseded by, retraction, duplicates.",
      example: ["A:42 arrived on 2026-11-20T14:03:11.000Z from bank transaction txn_8f2k as a new line.", "It is in the books."],
    }),
    raw: z.unknown().openapi({ description: "For side A, the provider's record verbatim; null for side B." }),
  })
  .openapi("TransactionDetail");
