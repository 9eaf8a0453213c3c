import { meterMonthsOf } from "../../index-db/meter";
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
    "At or over the cap the mode is `batched`: waiting lines go out once a day. `months` defaults to 36, at most 120.",
  credential: "read",
  query: meterQuery,
  success: { status: 200, description: "The meter months.", schema: meterResponse },
  async handler({ env, caller, query, now }) {
    return { months: await meterMonthsOf(env.INDEX_DB, caller.tenant.id, Math.min(query.months, METER_MONTHS_CAP), now) };
  },
});
