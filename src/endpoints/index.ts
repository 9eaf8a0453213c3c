/**
 * The endpoint index: the single source of every endpoint. The routes, /openapi.json,
 * /api/v1 and the tool face are all generated from this list.
 */
import type { Endpoint } from "./define";
import { listAccounts } from "./accounts/routes";
import { getMe, getVisibility } from "./me/routes";
import { listSyncHistory, syncNow } from "./sync/routes";
import { getTransaction, listTransactions } from "./transactions/routes";
import { getUsage } from "./usage/routes";

export const endpoints: readonly Endpoint[] = [
  // The books and the bank feed.
  getMe,
  listTransactions,
  getTransaction,
  listAccounts,
  listSyncHistory,
  getUsage,
  getVisibility,
  syncNow,
  // Judgements, the rulebook and exceptions.
  // Categories.
  // Explanations.
];
