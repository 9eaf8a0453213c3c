import { settle } from "../../errors";
import { defineEndpoint } from "../define";
import { CONNECTION_CAPS } from "../../tiers";
import { USAGE_DAYS_CAP, usageQuery, usageResponse } from "./schema";

export const getUsage = defineEndpoint({
  operationId: "get_usage",
  method: "get",
  path: "/api/v1/usage",
  tag: "books",
  summary: "Usage meters",
  description:
    "Two meters: bank connections in use against the tier's cap, and transaction volume over the trailing `days` " +
    "(default 30, at most 365). Volume is the larger of money in and money out.",
  credential: "read",
  query: usageQuery,
  success: { status: 200, description: "The meters.", schema: usageResponse },
  async handler({ ledger, face, query }) {
    const days = Math.min(query.days, USAGE_DAYS_CAP);
    const usage = settle(await ledger.usage(face, days));
    return {
      connections: { in_use: usage.connections, cap: CONNECTION_CAPS[face.tier], tier: face.tier },
      volume: usage.volume,
    };
  },
});
