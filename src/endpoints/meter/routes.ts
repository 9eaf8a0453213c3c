import { meterMonths } from "../../index-db/meter";
import { defineEndpoint } from "../define";
import { METER_MONTHS_CAP, meterQuery, meterResponse } from "./schema";

export const getMeter = defineEndpoint({
  operationId: "get_meter",
  method: "get",
  path: "/api/v1/meter",
  tag: "meter",
  summary: "The cost meter",
  description:
    "What the external model (the tail) cost, month by month, newest first: calls (abstentions included), millicents, " +
    "unpriced calls, lines resolved by the local model and lines sent to the external one, against the monthly cap. " +
    "At or over the cap the mode is `batched`: waiting lines go out once a day. A null mode means no cap is known, never " +
    "under it. Only months with activity are listed (none: an empty list; a missing month spent nothing). Every month " +
    "is shown against the cap in force now. `months` (the current one included) defaults to 36; above 120 is clamped to 120.",
  credential: "read",
  query: meterQuery,
  success: { status: 200, description: "The meter months.", schema: meterResponse },
  async handler({ env, caller, query, now }) {
    return { months: await meterMonths(env.INDEX_DB, caller.tenant.id, Math.min(query.months, METER_MONTHS_CAP), now) };
  },
});
