import { settle } from "../../errors";
import { defineEndpoint } from "../define";
import { booksCurrencyBody, booksCurrencyResponse } from "./schema";

const WHAT_IT_DOES =
  "Every number of the P&L is in the books' currency: a booked line the bank gave in another currency (its " +
  "`iso_currency_code`, else its `unofficial_currency_code`) is kept and listed with `foreign_currency: true`, and left " +
  "out of the P&L, which counts it; a line whose bank named no currency is taken to be in the books'.";

export const getBooksCurrency = defineEndpoint({
  operationId: "get_books_currency",
  method: "get",
  path: "/api/v1/books-currency",
  tag: "books",
  summary: "The books' currency",
  description: `The books' currency: USD unless the tenant set another. ${WHAT_IT_DOES}`,
  credential: "read",
  success: { status: 200, description: "The books' currency.", schema: booksCurrencyResponse },
  async handler({ ledger }) {
    return settle(await ledger.booksCurrency());
  },
});

export const setBooksCurrency = defineEndpoint({
  operationId: "set_books_currency",
  idempotent: true,
  method: "post",
  path: "/api/v1/books-currency",
  tag: "books",
  summary: "Set the books' currency",
  description:
    `Sets the books' currency (ISO 4217, in capitals). ${WHAT_IT_DOES} Setting it changes which lines are foreign from ` +
    "then on, for every report read after it; nothing is converted. Setting the currency that stands appends nothing.",
  credential: "write",
  body: booksCurrencyBody,
  success: { status: 200, description: "The books' currency as it now stands.", schema: booksCurrencyResponse },
  async handler({ ledger, body, caller }) {
    return settle(await ledger.setBooksCurrency(body.currency, caller.actor));
  },
});
