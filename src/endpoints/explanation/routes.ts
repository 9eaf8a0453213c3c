import { switchOn } from "../../env";
import { ApiError, settle } from "../../errors";
import { defineEndpoint } from "../define";
import { lineParams } from "../transactions/schema";
import { explanationResponse } from "./schema";

export const explainTransaction = defineEndpoint({
  operationId: "explain_transaction",
  method: "get",
  path: "/api/v1/transactions/{side}/{src_id}/why",
  tag: "explanations",
  summary: "Explain a line's category",
  description:
    "Why a line has its category: `engine` names what decided it (its latest decision), `citations` carry the evidence " +
    "(the rule and its revision, the human and when, carried over from a superseded line or not, the model and its " +
    "confidence, the duh band, the external model, and the pocket for a category under `draw`), and `sentence` is one " +
    "templated sentence made only from the citations. With nothing to cite, `sentence` is empty and `defect` reports the " +
    "gap. A side-B row is explained by its A twin's decision. 404 `not_found` for a line the tenant does not hold on " +
    "this face; 404 `explanation_read_disabled` when the deployment does not enable this read.",
  credential: "read",
  params: lineParams,
  success: { status: 200, description: "The explanation.", schema: explanationResponse },
  errors: {
    not_found: "The tenant holds no such line on this face.",
    explanation_read_disabled: "This deployment does not enable the read (switch `EXPLANATION_READ`).",
  },
  async handler({ env, ledger, face, params }) {
    if (!switchOn(env.EXPLANATION_READ)) {
      throw new ApiError("explanation_read_disabled", "This deployment does not enable the explanation read: the switch EXPLANATION_READ is off.");
    }
    const explanation = settle(await ledger.explanation(face, params.side, params.src_id));
    return explanation;
  },
});
