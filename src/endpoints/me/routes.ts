import { settle } from "../../errors";
import { defineEndpoint } from "../define";
import { booksSummaryResponse, visibilityResponse } from "./schema";

export const getMe = defineEndpoint({
  operationId: "get_me",
  method: "get",
  path: "/api/v1/me",
  tag: "books",
  summary: "Books summary",
  description:
    "The tenant's books at a glance: row counts by state, the booked total and booked totals per category, which credential " +
    "the caller used, and how much of the vault this face serves. Every number is over the rows the caller is served.",
  credential: "read",
  success: { status: 200, description: "The summary.", schema: booksSummaryResponse },
  async handler({ ledger, face, caller }) {
    const summary = settle(await ledger.summary(face));
    return {
      ...summary,
      // An auditor token never gets here (its only endpoint is the auditor view).
      auth: { kind: caller.kind as "session" | "token", scope: caller.scope as "read_only" | "read_write", kid: caller.kid, actor: caller.actor, role: caller.role as "owner" | "bookkeeper" | "viewer" },
      visible_from: face.visibleFrom,
    };
  },
});

export const getVisibility = defineEndpoint({
  operationId: "get_visibility",
  method: "get",
  path: "/api/v1/visibility",
  tag: "books",
  summary: "Visibility floor",
  description:
    "How much of the vault this face serves: the sign-up floor (never moved), the free tier's 48-hour window, the floor in " +
    "force, the oldest row served, and rows held against rows served.",
  credential: "read",
  success: { status: 200, description: "The visibility object.", schema: visibilityResponse },
  async handler({ ledger, face }) {
    return settle(await ledger.visibility(face));
  },
});
