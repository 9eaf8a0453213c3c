import { switchOn } from "../../env";
import { ApiError } from "../../errors";
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
    "this face; 404 `why_disabled` when the deployment does not enable this read.",
  credential: "read",
  params: lineParams,
  success: { status: 200, description: "The explanation.", schema: explanationResponse },
  errors: {
    404: "`not_found`: the tenant holds no such line on this face. `why_disabled`: this deployment does not enable the read (switch `WHY_READ`).",
  },
  async handler({ env, ledger, face, params }) {
    if (!switchOn(env.WHY_READ)) {
      throw new ApiError(404, "why_disabled", "This deployment does not enable the why read: the switch WHY_READ is off.");
    }
    const explanation = await ledger.explain(face, params.side, params.src_id);
    if (!explanation) throw ApiError.notFound(`This tenant holds no line ${params.side}:${params.src_id}.`);
    return explanation;
  },
});
