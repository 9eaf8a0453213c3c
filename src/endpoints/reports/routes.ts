import { booksDate } from "../../clock";
import { ApiError, settle } from "../../errors";
import type { PnlReport } from "../../ledger/reports/pnl";
import { ownerTextable } from "../../messages/notices";
import type { z } from "@hono/zod-openapi";
import { defineEndpoint, JsonAnswer } from "../define";
import { parityBody, PNL_TRANSACTIONS_PER_PAGE_CAP, pnlQuery, pnlReportSchema, pnlTransactionsQuery, pnlTransactionsResponse, verdictResponse } from "./schema";

export const getPnlRolling = defineEndpoint({
  operationId: "get_pnl_rolling",
  method: "get",
  path: "/api/v1/reports/pnl-rolling",
  tag: "reports",
  summary: "Rolling profit and loss",
  description:
    "Profit and loss over the 7 and 30 days ending on `as_of` (America/Chicago, default today), each against the same " +
    "number of days before it: revenue, cogs, gross_margin, biz_expenses, net_income and owners_draw, each with its " +
    "category lines. A category's header in the taxonomy decides its section; transfers are in no section. Booked lines " +
    "with no category or a label the taxonomy does not hold are in no section either: each window gathers them under the " +
    "line \"Uncategorised / unknown label\", and `warnings` says so. Booked lines the bank gave in a currency other than the " +
    "books' (`currency`, USD unless set with set_books_currency) are left out and counted (`foreign_currency`). By default " +
    "(`form=full`) every line lists every booked transaction behind it (megabytes for a large book); `form=totals` gives " +
    "each line's count of transactions instead, and list_pnl_transactions pages them. Booked lines on this face only.",
  credential: "read",
  query: pnlQuery,
  success: { status: 200, description: "The report.", schema: pnlReportSchema },
  errors: { tenant_mismatch: "`tenant` names a tenant other than the credential's own." },
  async handler({ ledger, face, query, caller, now }) {
    if (query.tenant !== undefined && query.tenant !== caller.tenant.id) {
      throw new ApiError("tenant_mismatch", "`tenant` must be the credential's own tenant; omit it and the credential decides.");
    }
    return new JsonAnswer<z.input<typeof pnlReportSchema>>(settle(await ledger.pnlRollingJson(face, query.as_of ?? booksDate(now), query.form)));
  },
});

export const listPnlTransactions = defineEndpoint({
  operationId: "list_pnl_transactions",
  method: "get",
  path: "/api/v1/reports/pnl-rolling/transactions",
  tag: "reports",
  summary: "Page the P&L's transactions",
  description:
    "The booked transactions behind the rolling P&L, a page at a time: those of one section of one window (a derived " +
    "section gives its components'), or of the line \"Uncategorised / unknown label\" (`section=unknown_label`), " +
    "optionally of one category line and one period. Each carries its period and label. `total` counts them over every " +
    "page, as the report's `transaction_count` does. Booked lines on this face, in the books' currency, only.",
  credential: "read",
  query: pnlTransactionsQuery,
  success: { status: 200, description: "A page of transactions.", schema: pnlTransactionsResponse },
  async handler({ ledger, face, query, now }) {
    const perPage = Math.min(query.per_page, PNL_TRANSACTIONS_PER_PAGE_CAP);
    const asOf = query.as_of ?? booksDate(now);
    const { transactions, total } = settle(
      await ledger.pnlTransactions(face, { asOf, window: query.window, part: query.section, category: query.category, period: query.period, page: query.page, perPage }),
    );
    return {
      as_of: asOf,
      window: query.window,
      section: query.section,
      category: query.category ?? null,
      period: query.period ?? null,
      transactions,
      page: query.page,
      per_page: perPage,
      total,
    };
  },
});

export const recordPnlParity = defineEndpoint({
  operationId: "record_pnl_parity",
  method: "post",
  path: "/api/v1/reports/pnl-parity",
  tag: "reports",
  summary: "File the day's parity verdict",
  description:
    "Compares the books' rolling P&L for the day with an outside reference report (the oracle, in the same shape) and " +
    "files the day's verdict: the difference coefficient over the twelve section numbers, each number's delta, and each " +
    "difference localised to its transactions (RECATEGORIZED, AMOUNT_DIFF, WINDOW_EDGE, MISSING_ON_LOCAL, " +
    "MISSING_ON_ORACLE); `match` is true when the coefficient is 0, and `unexplained` lists each delta the localisations do " +
    "not wholly explain, with the amount left over. Filing the same day again returns a higher revision. A mismatch " +
    "posts a notice in the message thread, texted to the owner's phone too where SMS is configured. If `local` is sent " +
    "and disagrees with the books, nothing is filed (409). A rendered card or raw workflow output as `oracle` is 400. " +
    "Filed verdicts are read with list_parity_verdicts and get_parity_verdict.",
  credential: "write",
  body: parityBody,
  success: { status: 200, description: "The verdict filed.", schema: verdictResponse },
  errors: { local_disagrees: "The asserted `local` numbers disagree with the books; nothing was filed." },
  async handler({ env, ledger, face, body, caller, now }) {
    const asOf = body.as_of ?? body.oracle.as_of ?? booksDate(now);
    const filing = { actor: caller.actor, oracleUrl: null, ranAt: null, textOwner: ownerTextable(env, caller.tenant) };
    const outcome = settle(await ledger.recordParity(caller.tenant.id, face, asOf, body.oracle, body.local ?? null, filing));
    if (!outcome.filed) {
      throw new ApiError("local_disagrees", `The asserted local report disagrees with the books on ${outcome.disagreeing.join(", ")}; nothing was filed.`);
    }
    return { verdict: outcome.filed.verdict };
  },
});
