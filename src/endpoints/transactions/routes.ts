import { settle } from "../../errors";
import { defineEndpoint } from "../define";
import { PER_PAGE_CAP } from "../shared";
import { lineParams, listTransactionsQuery, listTransactionsResponse, transactionDetailResponse } from "./schema";

export const listTransactions = defineEndpoint({
  operationId: "list_transactions",
  method: "get",
  path: "/api/v1/transactions",
  tag: "transactions",
  summary: "List transactions",
  description:
    "Lists the rows of the books (relation C), newest first, filtered by date range, exact category or description substring. " +
    "Pending, superseded, retracted and archived rows are listed with `in_books: false`. `total` and `total_cents` cover every " +
    "matched row, not just the page. At most 100 rows per page.",
  credential: "read",
  query: listTransactionsQuery,
  success: { status: 200, description: "A page of rows.", schema: listTransactionsResponse },
  async handler({ ledger, face, query }) {
    const perPage = Math.min(query.per_page, PER_PAGE_CAP);
    const { from, to, cat, q } = query;
    const result = settle(await ledger.listTransactions(face, { from, to, cat, q }, query.page, perPage));
    return { ...result, page: query.page, per_page: perPage };
  },
});

export const getTransaction = defineEndpoint({
  operationId: "get_transaction",
  method: "get",
  path: "/api/v1/transactions/{side}/{src_id}",
  tag: "transactions",
  summary: "Get one transaction",
  description:
    "One line with its lineage in words (arrival, supersession, retraction, duplicates) and, for side A, the bank's record " +
    "verbatim as `raw`. A line the tenant does not hold, or one before its visibility floor, is 404.",
  credential: "read",
  params: lineParams,
  success: { status: 200, description: "The line.", schema: transactionDetailResponse },
  errors: { not_found: "The tenant holds no such line on this face." },
  async handler({ ledger, face, params }) {
    const detail = settle(await ledger.transaction(face, params.side, params.src_id));
    return { ...detail, raw: detail.raw === null ? null : JSON.parse(detail.raw) };
  },
});
