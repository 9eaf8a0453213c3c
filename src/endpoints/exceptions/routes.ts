import { settle } from "../../errors";
import { defineEndpoint } from "../define";
import { PER_PAGE_CAP } from "../shared";
import { adjudicateBody, adjudicateResponse, listExceptionsQuery, listExceptionsResponse } from "./schema";

export const listExceptions = defineEndpoint({
  operationId: "list_exceptions",
  method: "get",
  path: "/api/v1/exceptions",
  tag: "exceptions",
  summary: "List exceptions",
  description:
    "The lines nothing has explained: side-A lines in books or pending, on this face, with no category (no rule, no " +
    "model, or a human put them back in the queue). Each is identified by its side-A id. Resolve one with adjudicate. " +
    "Paged like list_transactions, 100 to a page by default: a tenant's queue can be its whole history before its " +
    "first rules; `total` counts every page.",
  credential: "read",
  query: listExceptionsQuery,
  success: { status: 200, description: "A page of the exceptions, newest first.", schema: listExceptionsResponse },
  async handler({ ledger, face, query }) {
    const perPage = Math.min(query.per_page, PER_PAGE_CAP);
    const { exceptions, total } = settle(await ledger.listExceptions(face, query.page, perPage));
    return { exceptions, page: query.page, per_page: perPage, total };
  },
});

export const adjudicate = defineEndpoint({
  operationId: "adjudicate",
  method: "post",
  path: "/api/v1/adjudicate",
  tag: "exceptions",
  summary: "Resolve an exception and mint its rule",
  description:
    "Decides one exception (a human judgement) and appends a rule revision born from it (`born_from_a_id`), as one atomic " +
    "fact, so the same kind of line is decided by the rule from now on. The rule must match the line. 409 when the line " +
    "is no exception (it has a category, or it is not in the books).",
  credential: "write",
  body: adjudicateBody,
  success: { status: 200, description: "The op, the rule minted and the line as it now reads.", schema: adjudicateResponse },
  errors: { not_found: "The tenant holds no such line.", ledger_refusal: "The line is no exception, or the rule does not match it." },
  async handler({ ledger, face, body, caller }) {
    const { a_id, ...rule } = body;
    return settle(await ledger.adjudicate(face, a_id, rule, caller.actor));
  },
});
