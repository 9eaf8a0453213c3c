import { ApiError, settle } from "../../errors";
import { defineEndpoint } from "../define";
import { lineParams } from "../transactions/schema";
import { categorizeBody, judgementResponse, labelBody } from "./schema";

export const categorize = defineEndpoint({
  operationId: "categorize",
  method: "post",
  path: "/api/v1/categorize",
  tag: "judgements",
  summary: "Categorise a line",
  description:
    "Appends a human judgement to the op ledger: the line's category becomes `category` (`uncategorised` unsets it). " +
    "Rules and the model never override it. A judgement on a pending or superseded line follows the line to its " +
    "successor. Side B (archived twins) is refused by the ledger with 409.",
  credential: "write",
  body: categorizeBody,
  success: { status: 200, description: "The op and the line as it now reads.", schema: judgementResponse },
  errors: { not_found: "The tenant holds no such line.", ledger_refusal: "The ledger refuses judgements on side B." },
  async handler(call) {
    const { side, src_id, category } = call.body;
    return settle(await call.ledger.categorize(call.face, side, src_id, category, call.caller.actor));
  },
});

export const labelTransaction = defineEndpoint({
  operationId: "label_transaction",
  method: "post",
  path: "/api/v1/transactions/{side}/{src_id}/label",
  tag: "judgements",
  summary: "Correct a line with a training label",
  description:
    "Writes a training label (the category the books should have given, an optional reason, the actor, and the old " +
    "category as the ledger held it) and the set-category op as one atomic fact. Returns the op sequence number. " +
    "The body may repeat `side` and `src_id`; they must agree with the path. 409 on side B.",
  credential: "write",
  params: lineParams,
  body: labelBody,
  success: { status: 200, description: "The op and the line as it now reads.", schema: judgementResponse },
  errors: { not_found: "The tenant holds no such line.", ledger_refusal: "The ledger refuses judgements on side B." },
  async handler(call) {
    const { side, src_id } = call.params;
    const mismatched = [
      ...(call.body.side !== undefined && call.body.side !== side ? ["side"] : []),
      ...(call.body.src_id !== undefined && call.body.src_id !== src_id ? ["src_id"] : []),
    ];
    if (mismatched.length > 0) {
      throw ApiError.pathBodyMismatch(mismatched);
    }
    return settle(await call.ledger.label(call.face, side, src_id, { category: call.body.category, reason: call.body.reason ?? null }, call.caller.actor));
  },
});
