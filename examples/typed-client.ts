/**
 * Signs up in the sandbox, syncs the bank, creates categories and rules, runs the rules and
 * prints the rolling P&L, all through the typed client (clients/typescript).
 *
 *   npm start            # in another terminal
 *   npx tsx examples/typed-client.ts
 */
import { ledgerClient } from "../clients/typescript";
import { BASE_URL, CATEGORIES, printPnl, RULES, sandboxTenant } from "./sandbox";

const { tenant, token } = await sandboxTenant("typed");
const ledger = ledgerClient(BASE_URL, token);

const sync = await ledger.POST("/api/v1/sync-now", {});
if (!sync.data) throw new Error(`sync-now failed: ${JSON.stringify(sync.error)}`);
for (let i = 0; ; i++) {
  const { data } = await ledger.GET("/api/v1/sync-history", {});
  if (data?.runs.some((run) => run.request_id === sync.data.request_id && run.final)) break;
  if (i > 100) throw new Error("the sync did not finish");
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const categories = await ledger.POST("/api/v1/new-categories", { body: { categories: [...CATEGORIES] } });
if (!categories.data) throw new Error(`new-categories failed: ${JSON.stringify(categories.error)}`);
const rules = await ledger.POST("/api/v1/create-rules", { body: { rules: [...RULES] } });
if (!rules.data) throw new Error(`create-rules failed: ${JSON.stringify(rules.error)}`);
const run = await ledger.POST("/api/v1/run-rules", {});
if (!run.data) throw new Error(`run-rules failed: ${JSON.stringify(run.error)}`);
console.log(`${tenant}: ${rules.data.created.length} rules decided ${run.data.decided} lines`);

const pnl = await ledger.GET("/api/v1/reports/pnl-rolling", {});
if (!pnl.data) throw new Error(`pnl-rolling failed: ${JSON.stringify(pnl.error)}`);
printPnl(pnl.data);
