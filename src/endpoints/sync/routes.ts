import { ApiError, settle } from "../../errors";
import { defineEndpoint } from "../define";
import { SYNC_HISTORY_CAP, syncHistoryQuery, syncHistoryResponse, syncNowResponse } from "./schema";

export const syncNow = defineEndpoint({
  operationId: "sync_now",
  method: "post",
  path: "/api/v1/sync-now",
  tag: "sync",
  summary: "Request a bank sync",
  description:
    "Queues a request that the watcher pull the bank feed. One request per tenant may be pending: a second call while one " +
    "waits answers `already-pending` and queues nothing. Poll list_sync_history to see the run. 409 when no bank is connected.",
  credential: "write",
  success: { status: 202, description: "The request is recorded or already pending.", schema: syncNowResponse },
  errors: { nothing_connected: "No bank is connected." },
  async handler({ ledger, caller }) {
    const outcome = settle(await ledger.requestSync(caller.tenant.id, caller.actor));
    if (outcome.state === "nothing-connected") {
      throw new ApiError("nothing_connected", "No bank is connected to this tenant, so there is nothing to sync.");
    }
    return { state: outcome.state, request_id: outcome.requestId, requested_at: outcome.requestedAt };
  },
});

export const listSyncHistory = defineEndpoint({
  operationId: "list_sync_history",
  method: "get",
  path: "/api/v1/sync-history",
  tag: "sync",
  summary: "List bank-sync runs",
  description:
    "The watcher's runs, newest first: when each started and finished, what it applied (added, modified, removed, " +
    "duplicates), and its status and error. A retried request shows one run per attempt. At most 200 runs.",
  credential: "read",
  query: syncHistoryQuery,
  success: { status: 200, description: "The runs.", schema: syncHistoryResponse },
  async handler({ ledger, query }) {
    const runs = settle(await ledger.syncHistory(Math.min(query.limit, SYNC_HISTORY_CAP)));
    return {
      runs: runs.map((r) => ({
        run_id: r.id,
        request_id: r.requestId,
        attempt: r.attempt,
        started_at: r.startedAt,
        finished_at: r.finishedAt,
        status: r.status,
        final: r.final,
        error: r.error,
        pages: r.pages,
        added: r.added,
        modified: r.modified,
        removed: r.removed,
        duplicates: r.duplicates,
      })),
    };
  },
});
