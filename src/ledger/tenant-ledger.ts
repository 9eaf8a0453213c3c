/**
 * The tenant's Durable Object: one per tenant, holding its SQLite ledger. It is a thin
 * RPC shell: each method opens nothing, decides nothing, and calls a domain module.
 */
import { DurableObject } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import migrations from "../../migrations/ledger/migrations.js";
import type { Env } from "../env";
import type { FeedPage } from "../providers/bank/types";
import * as books from "./books";
import * as categories from "./categories";
import type { LedgerDb, LedgerTx } from "./db";
import type { Face } from "./face";
import { applyFeedPage } from "./feed";
import { undecidedLines } from "./undecided";
import { runFloorRead, type FloorArgs, type FloorRead } from "./floor";
import { brokenInvariants } from "./invariants";
import { auditorViewJson } from "./auditor";
import * as exceptions from "./exceptions";
import * as messages from "./messages";
import * as pushes from "./export/pushes";
import * as snapshot from "./export/snapshot";
import { explainLine } from "./explain";
import * as judgements from "./judgements";
import * as localModel from "./local-model";
import * as parity from "./parity";
import * as pnl from "./pnl";
import * as rules from "./rules";
import * as tail from "./tail";
import * as sync from "./sync";

export class TenantLedger extends DurableObject<Env> {
  readonly db: LedgerDb;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage);
    ctx.blockConcurrencyWhile(async () => {
      await migrate(this.db, migrations);
    });
  }

  // --- exports ---
  openExport(face: Face, input: snapshot.OpenExport) {
    return snapshot.openExport(this.db, face, input);
  }
  exportRecord(id: number) {
    const record = snapshot.findExport(this.db, id);
    return record ? { record, pushes: pushes.pushesOf(this.db, id) } : null;
  }
  exportPage(id: number, file: snapshot.ExportFile, cursor: string | null) {
    const record = snapshot.findExport(this.db, id);
    return record ? snapshot.renderPage(this.db, record, file, cursor) : null;
  }
  spreadsheetPage(id: number, cursor: string | null) {
    const record = snapshot.findExport(this.db, id);
    return record ? snapshot.spreadsheetPage(this.db, record, cursor) : null;
  }
  planPush(exportId: number) {
    return pushes.planPush(this.db, exportId);
  }
  recordPush(push: Omit<pushes.PushRecord, "id">) {
    pushes.recordPush(this.db, push);
  }

  // --- the message thread and the auditor view ---
  receiveText(input: { body: string; providerSid: string; from: string }) {
    return messages.receiveText(this.db, input, new Date().toISOString());
  }
  draftReply(body: string, actor: string) {
    return messages.draftReply(this.db, body, actor, new Date().toISOString());
  }
  messages(limit: number) {
    return messages.listMessages(this.db, limit);
  }
  drafts() {
    return messages.listDrafts(this.db);
  }
  /** `refused` carries the ledger's words when the message is no draft. */
  claimRelease(messageId: number, actor: string): { body: string | null; refused: string | null } {
    const claimed = messages.claimRelease(this.db, messageId, actor, new Date().toISOString());
    return "refused" in claimed ? { body: null, refused: claimed.refused } : { body: claimed.body, refused: null };
  }
  recordSendOutcome(messageId: number, outcome: { sid: string } | { error: string }, actor: string) {
    messages.recordSendOutcome(this.db, messageId, outcome, actor, new Date().toISOString());
  }
  auditorViewJson(face: Face, grantId: number): string {
    return auditorViewJson(this.db, face, grantId);
  }

  // --- the soak's invariant check (reached only through the sandbox surface) ---
  brokenInvariants(): string[] {
    return brokenInvariants(this.db);
  }

  // --- the benchmark's floor (reached only through the sandbox surface) ---
  /**
   * Milliseconds per call of a domain read run `iterations` times back to back. The
   * runtime's clock stands still while code runs and moves on at I/O, so the loop is
   * bracketed by two zero-length waits and the total divided.
   */
  async floor(face: Face, read: FloorRead, args: FloorArgs, iterations: number): Promise<number> {
    await scheduler.wait(0);
    const started = Date.now();
    for (let i = 0; i < iterations; i++) runFloorRead(this.db, face, read, args);
    await scheduler.wait(0);
    return (Date.now() - started) / iterations;
  }

  // --- sign-up and the bank connection ---
  connectBank(provider: "sandbox" | "aggregator", accessToken: string): number {
    return sync.connectBank(this.db, provider, accessToken, new Date().toISOString());
  }

  // --- reads ---
  summary(face: Face) {
    return books.booksSummary(this.db, face);
  }
  listTransactions(face: Face, filter: books.RowFilter, page: number, perPage: number) {
    return books.listRows(this.db, face, filter, page, perPage);
  }
  row(face: Face, side: books.Side, srcId: number) {
    return books.findRow(this.db, face, side, srcId) ?? null;
  }
  transaction(face: Face, side: books.Side, srcId: number) {
    return books.transactionDetail(this.db, face, side, srcId) ?? null;
  }
  accounts(face: Face) {
    return books.listAccounts(this.db, face);
  }
  visibility(face: Face) {
    return books.visibility(this.db, face);
  }
  usage(face: Face, days: number) {
    return { connections: sync.countConnections(this.db), volume: books.volume(this.db, face, days) };
  }
  syncHistory(limit: number) {
    return sync.listSyncRuns(this.db, limit);
  }

  // --- rules and exceptions ---
  categorize(face: Face, side: books.Side, srcId: number, category: string, actor: string) {
    return judgements.categorize(this.db, face, side, srcId, category, actor, new Date().toISOString());
  }
  label(face: Face, side: books.Side, srcId: number, input: { category: string; reason?: string | null }, actor: string) {
    return judgements.label(this.db, face, side, srcId, input, actor, new Date().toISOString());
  }
  listRules() {
    return rules.listingOrder(rules.standingRules(this.db));
  }
  createRule(face: Face, input: rules.RuleInput, actor: string) {
    return rules.createRule(this.db, input, actor, new Date().toISOString(), face);
  }
  createRules(inputs: rules.RuleInput[], actor: string) {
    return rules.createRules(this.db, inputs, actor, new Date().toISOString());
  }
  /** Decides in turns, answering other calls between them (a whole book takes about a second). */
  runRules(face: Face) {
    return rules.runRules(this.db, face, new Date().toISOString(), () => scheduler.wait(0));
  }
  moveRuleToEnd(ruleKey: string, actor: string) {
    return rules.moveRuleToEnd(this.db, ruleKey, actor, new Date().toISOString());
  }
  retireRule(ruleKey: string, actor: string) {
    return rules.retireRule(this.db, ruleKey, actor, new Date().toISOString()) ?? null;
  }
  listExceptions(face: Face, page: number, perPage: number) {
    return exceptions.listExceptions(this.db, face, page, perPage);
  }
  adjudicate(face: Face, aId: number, input: rules.RuleInput, actor: string) {
    return exceptions.adjudicate(this.db, face, aId, input, actor, new Date().toISOString()) ?? null;
  }

  // --- categories ---
  taxonomy() {
    return categories.taxonomy(this.db);
  }
  categoryTotals(face: Face) {
    return books.listCategoryTotals(this.db, face);
  }
  createCategory(input: categories.NewCategory, actor: string) {
    return categories.createCategory(this.db, input, actor, new Date().toISOString());
  }
  createCategories(inputs: categories.NewCategory[], actor: string) {
    return categories.createCategories(this.db, inputs, actor, new Date().toISOString());
  }

  // --- explanations ---
  explain(face: Face, side: books.Side, srcId: number) {
    return explainLine(this.db, face, side, srcId) ?? null;
  }

  // --- sync: the request, then the watcher's steps ---
  async requestSync(tenant: string, actor: string): Promise<sync.SyncRequestOutcome> {
    const now = new Date();
    const outcome = sync.requestSync(this.db, actor, now);
    if (outcome.state !== "recorded") return outcome;
    try {
      await this.env.SYNC_QUEUE.send({ tenant, requestId: outcome.requestId });
    } catch (cause) {
      // The request can never be consumed: end it so the next sync-now is not refused.
      const at = new Date().toISOString();
      sync.recordSyncRun(this.db, {
        requestId: outcome.requestId,
        attempt: 0,
        startedAt: at,
        finishedAt: at,
        pages: 0,
        ...{ added: 0, modified: 0, removed: 0, duplicates: 0 },
        status: "failed",
        final: true,
        error: "the request could not be queued",
      });
      throw cause;
    }
    return outcome;
  }
  planSyncRun(requestId: number) {
    return sync.planSyncRun(this.db, requestId);
  }
  /**
   * Applies one page of the feed and, in the same transaction, the rulebook then the local
   * model decide the page's new lines that nobody has (the tail comes after, from the
   * watcher): a page never lands without its decisions. Only the page's lines: earlier
   * lines were offered to both when they arrived, so a page costs what it carries, not
   * what the vault holds.
   */
  applyFeedPage(connectionId: number, page: FeedPage) {
    const at = new Date().toISOString();
    let decidedByRules = 0;
    let decidedByModel = 0;
    try {
      const outcome = applyFeedPage(this.db, connectionId, page, at, (tx, newerThan) => {
        decidedByRules = rules.decideByRules(tx, undecidedLines(tx, { newerThan }), rules.standingRules(tx), at);
        decidedByModel = this.decideByModel(tx, at, newerThan);
      });
      return { ...outcome, decidedByRules, decidedByModel };
    } catch (error) {
      // The model may have learnt from this page's rule decisions, which are rolled back.
      this.trained = undefined;
      throw error;
    }
  }

  /**
   * Several pages in one transaction, each applied as applyFeedPage would: one commit for
   * thousands of lines instead of one a page (a fifth faster a sync; docs/performance.md).
   * If one fails, none of them lands.
   */
  applyFeedPages(connectionId: number, pages: FeedPage[]) {
    try {
      return this.ctx.storage.transactionSync(() => pages.map((page) => this.applyFeedPage(connectionId, page)));
    } catch (error) {
      // The model may have learnt from the earlier pages' rule decisions, now rolled back.
      this.trained = undefined;
      throw error;
    }
  }

  // --- reports ---
  /** The rolling P&L as JSON text: its answer is megabytes at 100,000 lines, built as text. */
  pnlRollingJson(face: Face, asOf: string): string {
    return pnl.rollingPnlJson(this.db, face, asOf);
  }
  /** Files the day's parity verdict, unless an asserted `local` disagrees with the books. */
  recordParity(face: Face, asOf: string, oracle: parity.ComparableReport, local: pnl.SectionNumbers | null, actor: string) {
    const books = pnl.rollingPnl(this.db, face, asOf);
    const disagreeing = local ? parity.disagreements(books, local) : [];
    if (disagreeing.length > 0) return { disagreeing, verdict: null };
    const core = parity.computeVerdict(asOf, books, oracle);
    return { disagreeing, verdict: parity.fileVerdict(this.db, core, oracle, actor, new Date().toISOString()) };
  }

  // --- the local model and the tail ---
  /** The model trained on the ledger's evidence, kept while the evidence is unchanged. */
  private trained: localModel.TrainedModel | undefined;

  /** The model decides a page's lines the rules left; it learns what is new only when there are some. */
  private decideByModel(tx: LedgerTx, at: string, newerThan: number): number {
    const lines = undecidedLines(tx, { newerThan });
    if (lines.length === 0) return 0;
    this.trained = localModel.currentModel(tx, this.trained);
    return localModel.decideByModel(tx, this.trained.model, localModel.duhBandFloor(this.env.DUH_BAND_FLOOR), at, lines);
  }
  async modelVersion() {
    await this.prepareModel();
    this.trained = localModel.currentModel(this.db, this.trained);
    return { version: this.trained.model.version, examples: this.trained.model.size };
  }
  /** Learning under way in turns (`prepareModel`), which one call at a time does. */
  private learning: Promise<void> | undefined;
  /**
   * Before a sync's pages: where the model would learn afresh (after a whole-book
   * run-rules), it learns in turns with the object answering between them, so the pages'
   * transactions only catch up what came after; otherwise the standing model is caught up
   * and refitted in turns where a refit is due (a person's labels since the last sync).
   */
  prepareModel(): Promise<void> {
    const pause = () => scheduler.wait(0);
    this.learning ??= localModel
      .learnInTurns(this.db, this.trained, pause)
      .then(async (learnt) => {
        this.trained = learnt ?? (await localModel.refitInTurns(this.db, this.trained, pause));
      })
      .finally(() => {
        this.learning = undefined;
      });
    return this.learning;
  }
  tailWork(limit: number) {
    return { categories: tail.tenantCategories(this.db), lines: tail.tailCandidates(this.db, limit) };
  }
  recordTailAnswers(answers: { aId: number; answer: string | null }[], model: string) {
    return tail.recordTailAnswers(this.db, answers, model, new Date().toISOString());
  }
  recordSyncRun(run: sync.SyncRunRecord) {
    return sync.recordSyncRun(this.db, run);
  }
}
