import { settle } from "../../errors";
import type { Connection } from "../../ledger/feed/connections";
import { CONNECTION_CAPS } from "../../tiers";
import { defineEndpoint } from "../define";
import { connectionParams, connectionResponse, connectionsResponse } from "./schema";

function view(c: Connection) {
  return {
    connection_id: c.id,
    provider: c.provider,
    institution: c.institution,
    item_id: c.itemId,
    status: c.status,
    status_detail: c.statusDetail,
    status_at: c.statusAt,
    connected_at: c.connectedAt,
  };
}

export const listConnections = defineEndpoint({
  operationId: "list_connections",
  method: "get",
  path: "/api/v1/connections",
  tag: "sync",
  summary: "List the bank connections",
  description:
    "The tenant's bank connections, newest first, each with its status: a bank that wants its owner to sign in again " +
    "(`login_required`) syncs no lines until the owner does, on /settings. Banks are connected and disconnected by the " +
    "owner on /settings (a browser: the aggregator's own page does the linking); this read shows what they did.",
  credential: "read",
  success: { status: 200, description: "The connections.", schema: connectionsResponse },
  async handler({ ledger, face }) {
    const connections = settle(await ledger.connections());
    return {
      connections: connections.map(view),
      in_use: connections.filter((c) => c.status !== "disconnected").length,
      cap: CONNECTION_CAPS[face.tier],
      tier: face.tier,
    };
  },
});

export const getConnection = defineEndpoint({
  operationId: "get_connection",
  method: "get",
  path: "/api/v1/connections/{connection_id}",
  tag: "sync",
  summary: "Get one bank connection",
  description:
    "One of the tenant's bank connections, its status and its history: every change of status, each naming who made it " +
    "(the owner, a co-owner by name, or the service). 404 for an id the tenant does not hold.",
  credential: "read",
  params: connectionParams,
  success: { status: 200, description: "The connection.", schema: connectionResponse },
  errors: { not_found: "The tenant holds no connection with this id." },
  async handler({ ledger, params }) {
    const [connection, history] = await Promise.all([ledger.connection(params.connection_id), ledger.connectionHistory(params.connection_id)]);
    return { connection: view(settle(connection)), history: settle(history) };
  },
});
