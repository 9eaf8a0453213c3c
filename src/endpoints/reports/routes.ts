import { booksDate } from "../../clock";
import { ApiError } from "../../errors";
import { defineEndpoint } from "../define";
import { pnlQuery, pnlReportSchema } from "./schema";

export const getPnlRolling = defineEndpoint({
  operationId: "get_pnl_rolling",
  method: "get",
  path: "/api/v1/reports/pnl-rolling",
  tag: "reports",
  summary: "Rolling profit and loss",
  description:
    "Profit and loss over the 7 and 30 days ending on `as_of` (America/Chicago, default today), each against the same " +
    "number of days before it: revenue, cogs, gross_margin, biz_expenses, net_income and owners_draw, each with its " +
    "category lines and every booked transaction behind them. A category's header in the taxonomy decides its section; " +
    "transfers and categories the taxonomy does not hold are in no section. Booked lines on this face only.",
  credential: "read",
  query: pnlQuery,
  success: { status: 200, description: "The report.", schema: pnlReportSchema },
  errors: { 403: "`tenant` names a tenant other than the credential's own." },
  async handler({ ledger, face, query, caller, now }) {
    if (query.tenant !== undefined && query.tenant !== caller.tenant.id) {
      throw new ApiError(403, "tenant_mismatch", "`tenant` must be the credential's own tenant; omit it and the credential decides.");
    }
    return ledger.pnlRolling(face, query.as_of ?? booksDate(now));
  },
});
