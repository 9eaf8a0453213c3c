/**
 * The benchmark's in-object cost: the same domain reads the endpoints make, run inside the
 * tenant's object with no routing, validation or JSON. Only the instrumented Worker
 * (./worker.ts) reaches it.
 */
import { auditorViewJson } from "../../src/ledger/reports/auditor";
import { booksSummary, listCategoryTotals, listRows, volume, type RowFilter } from "../../src/ledger/books/reads";
import type { LedgerDb } from "../../src/ledger/store/db";
import { listExceptions } from "../../src/ledger/books/exceptions";
import type { Face } from "../../src/ledger/face";
import { rollingPnlJson } from "../../src/ledger/reports/pnl";
import { pnlTransactionsPage } from "../../src/ledger/reports/pnl-transactions";
import { ruleDecisions } from "../../src/ledger/rules/matching";
import { standingRules } from "../../src/ledger/rules/rulebook";
import { undecidedRows } from "../../src/ledger/books/undecided";
import { countConnections } from "../../src/ledger/feed/sync-requests";
import { filedVerdictJson, listVerdicts } from "../../src/ledger/reports/verdicts";
import { searchRows, type SearchFilter } from "../../src/ledger/books/search";
import { dryRunRule } from "../../src/ledger/rules/dry-run";
import type { RuleInput } from "../../src/ledger/rules/rule";

export const IN_OBJECT_READS = [
  "list_transactions",
  "get_me",
  "list_categories",
  "list_exceptions",
  "get_pnl_rolling",
  "get_pnl_rolling_full",
  "list_pnl_transactions",
  "get_usage",
  "get_auditor_view",
  "get_auditor_view_full",
  "list_parity_verdicts",
  "get_parity_verdict",
  "run_rules_match",
  "search_transactions",
  "dry_run_rule",
] as const;
export type InObjectRead = (typeof IN_OBJECT_READS)[number];

export interface InObjectArgs {
  filter?: RowFilter & SearchFilter;
  /** The rule a dry run tries. */
  rule?: RuleInput;
  page?: number;
  perPage?: number;
  asOf?: string;
  days?: number;
}

/** Runs one read once; answers something of its result so nothing is optimised away. */
export function runInObjectRead(db: LedgerDb, face: Face, read: InObjectRead, args: InObjectArgs): number {
  switch (read) {
    case "list_transactions":
      return listRows(db, face, args.filter ?? {}, args.page ?? 1, args.perPage ?? 50).rows.length;
    case "get_me":
      return booksSummary(db, face).lines;
    case "list_categories":
      return listCategoryTotals(db, face).length;
    case "list_exceptions":
      return listExceptions(db, face, args.page ?? 1, args.perPage ?? 100).exceptions.length;
    case "get_pnl_rolling":
      // The report is JSON text by construction: its in-object cost includes writing it.
      return rollingPnlJson(db, face, args.asOf ?? face.today, "totals").length;
    case "get_pnl_rolling_full":
      return rollingPnlJson(db, face, args.asOf ?? face.today, "full").length;
    case "list_pnl_transactions":
      return pnlTransactionsPage(db, face, {
        asOf: args.asOf ?? face.today,
        window: "30d",
        part: "biz_expenses",
        page: args.page ?? 1,
        perPage: args.perPage ?? 100,
      }).transactions.length;
    case "get_usage":
      return countConnections(db) + volume(db, face, args.days ?? 30).lines;
    case "get_auditor_view":
      // Written as JSON text by construction, like the P&L: its in-object cost includes writing it.
      return auditorViewJson(db, face, 0, { form: "paged", page: args.page ?? 1, perPage: args.perPage ?? 100 }).length;
    case "get_auditor_view_full":
      return auditorViewJson(db, face, 0, { form: "full", page: 1, perPage: 0 }).length;
    case "list_parity_verdicts":
      return listVerdicts(db, { from: null, to: null, revisions: "latest" }, args.page ?? 1, args.perPage ?? 50).verdicts.length;
    case "get_parity_verdict": {
      // Written as JSON text around the stored oracle, like the P&L.
      const verdict = filedVerdictJson(db, args.asOf ?? face.today, null);
      return verdict.ok ? verdict.value.length : 0;
    }
    case "search_transactions":
      // The workspace's search: the list's filters and the amount's size and the engine.
      return searchRows(db, face, args.filter ?? {}, args.page ?? 1, args.perPage ?? 50).rows.length;
    case "dry_run_rule":
      return dryRunRule(db, face, args.rule!).matches;
    case "run_rules_match":
      // run_rules' work without its writes: every live rule over the undecided lines.
      return ruleDecisions(undecidedRows(db, { postedFrom: face.effectiveFrom }), standingRules(db)).length;
  }
}
