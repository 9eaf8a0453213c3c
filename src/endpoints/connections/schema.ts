import { z } from "@hono/zod-openapi";
import { CONNECTION_STATUSES } from "../../ledger/store/schema";
import { TIERS } from "../../tiers";
import { notedPersonSchema, paramInteger } from "../shared";

export const connectionParams = z.object({
  connection_id: paramInteger().openapi({ param: { name: "connection_id", in: "path" }, description: "The connection's id.", example: 2 }),
});

export const connectionSchema = z
  .object({
    connection_id: z.number().int().openapi({ description: "The connection's id in the tenant's books.", example: 2 }),
    provider: z.enum(["sandbox", "aggregator"]).openapi({ description: "`aggregator`: a bank linked in the aggregator's flow; `sandbox`: the sandbox's stand-in bank.", example: "aggregator" }),
    institution: z.string().nullable().openapi({ description: "The bank's name as the aggregator gave it at linking.", example: "Harbor Community Bank" }),
    item_id: z.string().nullable().openapi({ description: "The aggregator's id of the item (one login at one bank); null for the sandbox bank of a sandbox sign-up.", example: "item-7f3a9" }),
    status: z.enum(CONNECTION_STATUSES).openapi({
      description:
        "`connected`: synced on every sync; `login_required`: the bank wants its owner to sign in again (on /settings), and its lines wait; " +
        "`error`: the bank refused the item (tried again at each sync); `disconnected`: pulled no more, its lines stay in the books.",
      example: "connected",
    }),
    status_detail: z.string().openapi({ description: "Why it has its status, in words (the bank's error code and message, or who disconnected it).", example: "" }),
    status_at: z.string().openapi({ description: "When it came to have its status.", example: "2026-11-20T15:04:05.000Z" }),
    connected_at: z.string().openapi({ description: "When the bank was linked.", example: "2026-11-20T15:04:05.000Z" }),
  })
  .openapi("BankConnection");

export const connectionsResponse = z
  .object({
    connections: z.array(connectionSchema).openapi({ description: "Every connection, newest first, disconnected ones included." }),
    in_use: z.number().int().openapi({ description: "Connections not disconnected: they count against the cap.", example: 1 }),
    cap: z.number().int().openapi({ description: "How many the tenant's tier holds.", example: 5 }),
    tier: z.enum(TIERS).openapi({ description: "The tenant's tier, which sets the cap.", example: "paid" }),
  })
  .openapi("BankConnections");

export const connectionEventSchema = z
  .object({
    status: z.enum(CONNECTION_STATUSES).openapi({ description: "The status it came to have.", example: "disconnected" }),
    detail: z.string().openapi({ description: "Why, in words: the bank's error, or who did it (a person by name).", example: "disconnected by Dana Reyes (person:p3f9c1a7e5b2d4c60)" }),
    actor: z.string().openapi({
      description: "Who or what did it: `human:<tenant>` (the owner's session), `person:<id>` (a co-owner's session), or the service: `aggregator:webhook` (the aggregator's word on the item), `service:sync-watcher` (what a sync found).",
      example: "person:p3f9c1a7e5b2d4c60",
    }),
    person: notedPersonSchema
      .nullable()
      .openapi({ description: "The person a `person:<id>` actor names, as they were when they took their seat; null for any other actor." }),
    at: z.string().openapi({ description: "When.", example: "2026-11-21T09:30:00.000Z" }),
  })
  .openapi("BankConnectionEvent");

export const connectionResponse = z
  .object({
    connection: connectionSchema,
    history: z.array(connectionEventSchema).openapi({ description: "Every change of its status, oldest first: linked, a login wanted, repaired, disconnected, each naming who or what made it." }),
  })
  .openapi("BankConnectionAnswer");
