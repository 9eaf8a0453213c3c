/**
 * src/endpoints/ (entry: this file): the JSON API, one folder per resource (schema.ts,
 * routes.ts, tests beside them), and what makes the routes, /openapi.json, /api/v1 and the
 * tool face from this index (define.ts, describe.ts, document.ts). Handlers are thin:
 * authenticate (auth/), call the tenant's ledger over RPC, shape the answer. May import
 * every room below the faces. Imported by the other faces; a resource's schema.ts by
 * anyone handling that data (.dependency-cruiser.cjs: faces-on-top).
 */
/**
 * The endpoint index: the single source of every endpoint. The routes, /openapi.json,
 * /api/v1 and the tool face are all generated from this list.
 */
import type { Endpoint } from "./define";
import { listAccounts } from "./accounts/routes";
import { exportBooks, getExport, getExportFile } from "./exports/routes";
import { confirmAuditorGrant, getAuditorView, listAuditorGrants, offerAuditorGrant, revokeAuditorGrant } from "./grants/routes";
import { getMessages } from "./messages/routes";
import { getMeter } from "./meter/routes";
import { getPnlRolling, listPnlTransactions, recordPnlParity } from "./reports/routes";
import { getBooksCurrency, setBooksCurrency } from "./currency/routes";
import { getSharedPrior, setSharedPrior } from "./shared-prior/routes";
import { adjudicate, listExceptions } from "./exceptions/routes";
import { categorize, labelTransaction } from "./judgements/routes";
import { createRule, createRules, listRules, moveRuleToEnd, retireRule, runRules } from "./rules/routes";
import { createCategories, createCategory, listCategories, listCategoryTaxonomy } from "./categories/routes";
import { getMe, getVisibility } from "./me/routes";
import { listSyncHistory, syncNow } from "./sync/routes";
import { getTransaction, listTransactions } from "./transactions/routes";
import { getUsage } from "./usage/routes";
import { explainTransaction } from "./explanation/routes";
import { signUpTenant } from "./signup/routes";
import { requestPasswordReset, resetPassword } from "./password-reset/routes";
import { getConnection, listConnections } from "./connections/routes";
import { getParityVerdict, listParityVerdicts } from "./verdicts/routes";
import { changeSeatRole, invitePerson, listPeople, revokeSeat, withdrawInvitation } from "./people/routes";

export const endpoints: readonly Endpoint[] = [
  // The public operations: signing up, and a forgotten password.
  signUpTenant,
  requestPasswordReset,
  resetPassword,
  // The books and the bank feed.
  getMe,
  listTransactions,
  getTransaction,
  listAccounts,
  listSyncHistory,
  listConnections,
  getConnection,
  getUsage,
  getVisibility,
  getBooksCurrency,
  setBooksCurrency,
  getSharedPrior,
  setSharedPrior,
  syncNow,
  // Judgements, the rulebook and exceptions.
  categorize,
  labelTransaction,
  listRules,
  createRule,
  createRules,
  runRules,
  moveRuleToEnd,
  retireRule,
  listExceptions,
  adjudicate,
  // Categories.
  listCategories,
  listCategoryTaxonomy,
  createCategory,
  createCategories,
  // Explanations.
  explainTransaction,
  // The cost meter.
  getMeter,
  // Reports.
  getPnlRolling,
  listPnlTransactions,
  recordPnlParity,
  listParityVerdicts,
  getParityVerdict,
  // Export.
  exportBooks,
  getExport,
  getExportFile,
  // The message thread and auditor grants.
  getMessages,
  offerAuditorGrant,
  confirmAuditorGrant,
  revokeAuditorGrant,
  listAuditorGrants,
  getAuditorView,
  // People and their seats: the owner's.
  listPeople,
  invitePerson,
  withdrawInvitation,
  changeSeatRole,
  revokeSeat,
];
