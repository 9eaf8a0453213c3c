/**
 * src/ledger/ (entry: this file, the Durable Object): the tenant's books, and the domain the
 * object calls, one folder per part (store/, feed/, rules/, model/, books/, reports/). May
 * import input/, the ground floor, the bank feed's types (providers/bank/types.ts) and its
 * migrations; never HTTP, D1 or the Worker (.dependency-cruiser.cjs: ledger-is-the-domain).
 * Imported by the faces and the services: they reach the books through the object
 * (env.ts, ledgerOf) and `settle` (errors.ts).
 */
/**
 * The tenant's Durable Object: one per tenant, holding its SQLite ledger. A thin RPC
 * shell: each method calls one domain function on the store and answers an Outcome (the
 * value, or the ledger's refusal in its own words). The domain lives in the folders beside
 * this file; nothing here decides anything.
 */
import { DurableObject } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import migrations from "../../migrations/ledger/migrations.js";
import type { FeedPage } from "../providers/bank/types";
import * as categories from "./books/categories";
import * as currency from "./books/currency";
import * as exceptions from "./books/exceptions";
import { explanationOf } from "./books/explanation";
import * as judgements from "./books/judgements";
import * as books from "./books/reads";
import { lineHistory } from "./books/history";
import { reviewQueue } from "./books/review";
import { searchRows, type SearchFilter } from "./books/search";
import { usage } from "./books/usage";
import type { Face } from "./face";
import { glanceAt, type Glance } from "./glance";
import { settingsView, type SettingsAsk, type SettingsView } from "./settings-view";
import { notePerson, type NotedPerson } from "./books/people";
import * as connections from "./feed/connections";
import { landFeedPage, landFeedPages, type Landing } from "./feed/land-pages";
import * as sync from "./feed/sync-requests";
import * as givenUp from "./given-up-jobs";
import * as messages from "./messages";
import { duhBandFloor } from "./model/local-model";
import { ModelKeeper } from "./model/model-keeper";
import type { Contribution } from "./model/shared-prior";
import * as sharedPrior from "./model/shared-prior-kept";
import { suggestionsFor, type Suggestion } from "./model/suggestions";
import * as tail from "./model/tail-asks";
import { ok, type Outcome } from "./outcome";
import { auditorViewJson, type AuditorViewAsk } from "./reports/auditor";
import * as pushes from "./reports/export/push-records";
import * as snapshot from "./reports/export/snapshot";
import * as oracleRuns from "./reports/oracle-runs";
import * as parity from "./reports/parity";
import * as pnl from "./reports/pnl";
import * as verdicts from "./reports/verdicts";
import { pnlTransactionsPage, type PnlTransactionsAsk } from "./reports/pnl-transactions";
import * as pnlView from "./reports/pnl-view";
import { dryRunRule } from "./rules/dry-run";
import { proposeRuleFor } from "./rules/proposal";
import type { RuleInput } from "./rules/rule";
import * as rulebook from "./rules/rulebook";
import { runRules } from "./rules/run-rules";
import type { Pause } from "./slices";
import type { LedgerDb } from "./store/db";
import type { ConnectionStatus } from "./store/schema";
import type { Tier } from "../tiers";

const now = () => new Date().toISOString();

// The bindings are the Worker's global `Cloudflare.Env` (declared in src/env.ts, which names this class).
export class TenantLedger extends DurableObject<Cloudflare.Env> {
  readonly db: LedgerDb;
  /** The deployment's duh band floor (`DUH_BAND_FLOOR`). */
  private get bandFloor(): number {
    return duhBandFloor(this.env.DUH_BAND_FLOOR);
  }
  /** Long work pauses here between its slices, so the object answers other calls meanwhile. */
  private readonly pause: Pause = () => scheduler.wait(0);
  /** The local model as kept between calls (rebuilt from the ledger by a fresh object). */
  private readonly model: ModelKeeper;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage);
    this.model = new ModelKeeper(this.db, this.pause);
    ctx.blockConcurrencyWhile(async () => {
      await migrate(this.db, migrations);
    });
  }

  /** The sign-up's first call: the ledger's opening, the same however often it is asked. */
  openLedger(tenant: string): Outcome<ReturnType<typeof connections.openLedger>> {
    return ok(connections.openLedger(this.db, tenant, now()));
  }

  // --- the books ---
  summary(face: Face): Outcome<ReturnType<typeof books.booksSummary>> {
    return ok(books.booksSummary(this.db, face));
  }
  listTransactions(face: Face, filter: books.RowFilter, page: number, perPage: number): Outcome<ReturnType<typeof books.listRows>> {
    return ok(books.listRows(this.db, face, filter, page, perPage));
  }
  transaction(face: Face, side: books.Side, srcId: number) {
    return books.transactionDetail(this.db, face, side, srcId);
  }
  accounts(face: Face): Outcome<ReturnType<typeof books.listAccounts>> {
    return ok(books.listAccounts(this.db, face));
  }
  visibility(face: Face): Outcome<ReturnType<typeof books.visibility>> {
    return ok(books.visibility(this.db, face));
  }
  usage(face: Face, days: number): Outcome<ReturnType<typeof usage>> {
    return ok(usage(this.db, face, days));
  }
  explanation(face: Face, side: books.Side, srcId: number) {
    return explanationOf(this.db, face, side, srcId);
  }

  // --- judgements, rules and exceptions ---
  categorize(face: Face, side: books.Side, srcId: number, category: string, actor: string) {
    return judgements.categorize(this.db, face, side, srcId, category, actor, now());
  }
  label(face: Face, side: books.Side, srcId: number, input: { category: string; reason?: string | null }, actor: string) {
    return judgements.label(this.db, face, side, srcId, input, actor, now());
  }
  listRules(): Outcome<ReturnType<typeof rulebook.listRules>> {
    return ok(rulebook.listRules(this.db));
  }
  createRule(face: Face, input: RuleInput, actor: string): Outcome<ReturnType<typeof rulebook.createRule>> {
    return ok(rulebook.createRule(this.db, input, actor, now(), face));
  }
  createRules(inputs: RuleInput[], actor: string): Outcome<ReturnType<typeof rulebook.createRules>> {
    return ok(rulebook.createRules(this.db, inputs, actor, now()));
  }
  /**
   * Decides in slices, answering other calls between them (a whole book takes about a
   * second); then the model starts learning the rules' decisions, in slices too.
   */
  async runRules(face: Face): Promise<Outcome<number>> {
    const decided = await runRules(this.db, face, now(), this.pause);
    if (decided > 0) void this.model.prepare();
    return ok(decided);
  }
  moveRuleToEnd(ruleKey: string, actor: string) {
    return rulebook.moveRuleToEnd(this.db, ruleKey, actor, now());
  }
  retireRule(ruleKey: string, actor: string) {
    return rulebook.retireRule(this.db, ruleKey, actor, now());
  }
  listExceptions(face: Face, page: number, perPage: number): Outcome<ReturnType<typeof exceptions.listExceptions>> {
    return ok(exceptions.listExceptions(this.db, face, page, perPage));
  }
  adjudicate(face: Face, aId: number, input: RuleInput, actor: string) {
    return exceptions.adjudicate(this.db, face, aId, input, actor, now());
  }

  // --- categories ---
  taxonomy(): Outcome<ReturnType<typeof categories.taxonomy>> {
    return ok(categories.taxonomy(this.db));
  }
  categoryTotals(face: Face): Outcome<ReturnType<typeof books.listCategoryTotals>> {
    return ok(books.listCategoryTotals(this.db, face));
  }
  createCategory(input: categories.NewCategory, actor: string) {
    return categories.createCategory(this.db, input, actor, now());
  }
  createCategories(inputs: categories.NewCategory[], actor: string) {
    return categories.createCategories(this.db, inputs, actor, now());
  }
  booksCurrency(): Outcome<currency.BooksCurrency> {
    return ok(currency.currentBooksCurrency(this.db));
  }
  setBooksCurrency(code: string, actor: string): Outcome<currency.BooksCurrency> {
    return ok(currency.setBooksCurrency(this.db, code, actor, now()));
  }

  // --- the shared merchant prior: the tenant's choice, its contribution, the pooled copy ---
  sharedPriorChoice(): Outcome<sharedPrior.SharedPriorChoice> {
    return ok(sharedPrior.sharedPriorChoice(this.db));
  }
  chooseSharedPrior(optedIn: boolean, actor: string): Outcome<sharedPrior.SharedPriorChoice> {
    const choice = sharedPrior.chooseSharedPrior(this.db, optedIn, actor, now());
    this.model.sharedPriorChanged();
    return ok(choice);
  }
  sharedPriorContribution(): Outcome<Contribution | null> {
    return ok(sharedPrior.sharedPriorContribution(this.db));
  }
  async namedWords(): Promise<Outcome<string[]>> {
    return ok(await sharedPrior.namedWords(this.db, this.pause));
  }
  keepPooledPrior(words: sharedPrior.PooledWord[]): Outcome<boolean> {
    const kept = sharedPrior.keepPooledPrior(this.db, words);
    this.model.sharedPriorChanged();
    return ok(kept);
  }

  // --- the bank connection and sync: the request, then the watcher's steps ---
  connectBank(provider: "sandbox" | "aggregator", accessToken: string): Outcome<number> {
    return ok(sync.connectBank(this.db, provider, accessToken, now()));
  }
  linkItem(item: connections.NewItem, tier: Tier, actor: string) {
    return connections.linkItem(this.db, item, tier, actor, now());
  }
  connections(): Outcome<connections.Connection[]> {
    return ok(connections.listConnections(this.db));
  }
  connection(id: number) {
    return connections.connectionOf(this.db, id);
  }
  connectionSecret(id: number) {
    return connections.connectionSecret(this.db, id);
  }
  liveConnectionSecrets(): Outcome<connections.ConnectionSecret[]> {
    return ok(connections.liveConnectionSecrets(this.db));
  }
  connectionHistory(id: number) {
    return connections.connectionHistory(this.db, id);
  }
  recordConnectionStatus(id: number, status: Exclude<ConnectionStatus, "disconnected">, detail: string, actor: string) {
    return connections.recordConnectionStatus(this.db, id, status, detail, actor, now());
  }
  repairConnection(id: number, actor: string) {
    return connections.repairConnection(this.db, id, actor, now());
  }
  disconnectBank(id: number, actor: string) {
    return connections.disconnect(this.db, id, actor, now());
  }
  replaceBankToken(id: number, accessToken: string): Outcome<boolean> {
    return ok(connections.replaceToken(this.db, id, accessToken, now()));
  }
  async requestSync(tenant: string, actor: string): Promise<Outcome<sync.SyncRequestOutcome>> {
    return ok(await sync.askForSync(this.db, actor, new Date(), async (requestId) => {
      await this.env.JOB_QUEUE.send({ kind: "sync", tenant, requestId });
    }));
  }
  syncHistory(limit: number): Outcome<ReturnType<typeof sync.listSyncRuns>> {
    return ok(sync.listSyncRuns(this.db, limit));
  }
  planSyncRun(requestId: number): Outcome<sync.SyncPlan | null> {
    return ok(sync.planSyncRun(this.db, requestId));
  }
  recordSyncRun(run: sync.SyncRunRecord): Outcome<number> {
    return ok(sync.recordSyncRun(this.db, run));
  }
  /** Lands a page once the model has learnt every person's change (in slices, model-keeper.ts), so its decisions follow them. */
  async applyFeedPage(connectionId: number, page: FeedPage) {
    await this.model.ready();
    return ok(landFeedPage(this.landing(connectionId), page));
  }
  async applyFeedPages(connectionId: number, pages: FeedPage[]) {
    await this.model.ready();
    return ok(landFeedPages(this.landing(connectionId), pages, (work) => this.ctx.storage.transactionSync(work)));
  }
  private landing(connectionId: number): Landing {
    return { db: this.db, model: this.model, connectionId, bandFloor: this.bandFloor, at: now() };
  }

  // --- the local model and the tail ---
  modelVersion(): Promise<Outcome<{ version: string; examples: number }>> {
    return this.model.describe().then(ok);
  }
  /** Before a sync's pages: what the model has to learn starts in slices (model-keeper.ts). */
  prepareModel(): Promise<Outcome<null>> {
    return this.model.prepare();
  }
  tailWork(limit: number): Outcome<ReturnType<typeof tail.tailWork>> {
    return ok(tail.tailWork(this.db, limit));
  }
  recordTailAnswers(answers: { aId: number; answer: string | null }[], modelName: string): Outcome<number> {
    return ok(tail.recordTailAnswers(this.db, answers, modelName, now()));
  }

  // --- reports ---
  /** The rolling P&L as JSON text: in full its answer is megabytes at 100,000 lines, built as text. */
  pnlRollingJson(face: Face, asOf: string, form: pnl.PnlForm): Outcome<string> {
    return ok(pnl.rollingPnlJson(this.db, face, asOf, form));
  }
  pnlTransactions(face: Face, ask: PnlTransactionsAsk): Outcome<ReturnType<typeof pnlTransactionsPage>> {
    return ok(pnlTransactionsPage(this.db, face, ask));
  }
  /** Files the day's verdict; a mismatch's notice to be texted is queued as a job of its own. */
  async recordParity(tenant: string, face: Face, asOf: string, oracle: parity.ComparableReport, local: pnl.SectionNumbers | null, filing: parity.Filing) {
    const outcome = parity.recordParity(this.db, face, asOf, oracle, local, filing, now());
    const notice = outcome.filed?.notice;
    if (notice?.texted) {
      try {
        await this.env.JOB_QUEUE.send({ kind: "notice", tenant, messageId: notice.messageId });
      } catch (error) {
        // The verdict stands; the notice is in the thread, marked as never texted.
        console.error(`the text of notice ${notice.messageId} could not be queued:`, error);
        messages.recordSendOutcome(this.db, notice.messageId, { error: "the text could not be queued" }, messages.NOTICE_ACTOR, now());
      }
    }
    return ok(outcome);
  }
  oracleRunAt(ranAt: string): Outcome<oracleRuns.OracleRun | null> {
    return ok(oracleRuns.oracleRunAt(this.db, ranAt) ?? null);
  }
  lastOracleRun(): Outcome<oracleRuns.OracleRun | null> {
    return ok(oracleRuns.lastOracleRun(this.db) ?? null);
  }
  recordFailedRun(run: oracleRuns.FailedRun): Outcome<boolean> {
    return ok(oracleRuns.recordFailedRun(this.db, run, now()));
  }
  verdicts(filter: verdicts.VerdictFilter, page: number, perPage: number): Outcome<ReturnType<typeof verdicts.listVerdicts>> {
    return ok(verdicts.listVerdicts(this.db, filter, page, perPage));
  }
  verdictJson(asOf: string, revision: number | null): Outcome<string> {
    return verdicts.filedVerdictJson(this.db, asOf, revision);
  }
  auditorViewJson(face: Face, grantId: number, ask: AuditorViewAsk): Outcome<string> {
    return ok(auditorViewJson(this.db, face, grantId, ask));
  }

  // --- exports ---
  openExport(face: Face, input: snapshot.OpenExport): Outcome<ReturnType<typeof snapshot.openExport>> {
    return ok(snapshot.openExport(this.db, face, input));
  }
  exportRecord(id: number) {
    return pushes.exportWithPushes(this.db, id);
  }
  exportPage(id: number, file: snapshot.ExportFile, cursor: string | null) {
    return snapshot.exportFilePage(this.db, id, file, cursor);
  }
  spreadsheetPage(id: number, cursor: string | null) {
    return snapshot.exportSpreadsheetPage(this.db, id, cursor);
  }
  planPush(exportId: number): Outcome<ReturnType<typeof pushes.planPush>> {
    return ok(pushes.planPush(this.db, exportId));
  }
  recordPush(push: Omit<pushes.PushRecord, "id">): Outcome<null> {
    pushes.recordPush(this.db, push);
    return ok(null);
  }

  // --- people (src/auth/people.ts) ---
  /** Notes a person who took a seat, so that explanations name them (the same call again changes nothing). */
  notePerson(person: NotedPerson): Outcome<null> {
    notePerson(this.db, person, now());
    return ok(null);
  }
  /** Everything the settings page reads of the books, in one call. */
  settingsView(face: Face, ask: SettingsAsk): Outcome<SettingsView> {
    return ok(settingsView(this.db, face, ask));
  }
  /** The books at a glance for the practice dashboard. */
  glance(face: Face): Outcome<Glance> {
    return ok(glanceAt(this.db, face));
  }

  // --- the workspace's reads (src/pages/app) ---
  queueSize(face: Face): Outcome<number> {
    return ok(exceptions.queueSize(this.db, face));
  }
  /** The queue the longest-waiting first, each line with the local model's suggestion. */
  reviewQueue(face: Face, page: number, perPage: number): Outcome<ReturnType<typeof reviewQueue>> {
    return ok(reviewQueue(this.db, face, page, perPage, (aIds) => suggestionsFor(this.db, this.model, aIds, face.effectiveFrom, this.bandFloor)));
  }
  suggestions(face: Face, aIds: number[]): Outcome<(Suggestion & { a_id: number })[]> {
    return ok([...suggestionsFor(this.db, this.model, aIds, face.effectiveFrom, this.bandFloor)].map(([aId, s]) => ({ a_id: aId, ...s })));
  }
  searchTransactions(face: Face, filter: SearchFilter, page: number, perPage: number): Outcome<ReturnType<typeof searchRows>> {
    return ok(searchRows(this.db, face, filter, page, perPage));
  }
  lineHistory(face: Face, side: books.Side, srcId: number) {
    return lineHistory(this.db, face, side, srcId);
  }
  ruleRevisions(ruleKey: string) {
    return rulebook.ruleRevisionsOf(this.db, ruleKey);
  }
  dryRunRule(face: Face, input: RuleInput): Outcome<ReturnType<typeof dryRunRule>> {
    return ok(dryRunRule(this.db, face, input));
  }
  proposeRule(face: Face, aId: number, category: string) {
    return proposeRuleFor(this.db, face, aId, category);
  }
  pnlOverview(face: Face, asOf: string): Outcome<pnlView.PnlView> {
    return ok(pnlView.pnlOverview(this.db, face, asOf));
  }
  pnlContributors(face: Face, asOf: string, drill: pnlView.PnlDrill, page: number, perPage: number): Outcome<pnlView.PnlContributors> {
    return ok(pnlView.pnlContributors(this.db, face, asOf, drill, page, perPage));
  }
  verdictOn(asOf: string): Outcome<verdicts.FiledVerdict | null> {
    return ok(verdicts.verdictOn(this.db, asOf) ?? null);
  }

  // --- the message thread ---
  receiveText(input: { body: string; providerSid: string; from: string }): Outcome<ReturnType<typeof messages.receiveText>> {
    return ok(messages.receiveText(this.db, input, now()));
  }
  postNotice(body: string, actor: string): Outcome<number> {
    return ok(messages.postNotice(this.db, body, actor, now()));
  }
  draftReply(body: string, actor: string): Outcome<ReturnType<typeof messages.draftReply>> {
    return ok(messages.draftReply(this.db, body, actor, now()));
  }
  messages(limit: number): Outcome<ReturnType<typeof messages.listMessages>> {
    return ok(messages.listMessages(this.db, limit));
  }
  drafts(): Outcome<ReturnType<typeof messages.listDrafts>> {
    return ok(messages.listDrafts(this.db));
  }
  claimRelease(messageId: number, actor: string) {
    return messages.claimRelease(this.db, messageId, actor, now());
  }
  /** A job the job queue gave up on (its dead-letter queue's consumer): recorded once, with the owner's notice. */
  recordGivenUpJob(job: givenUp.GivenUpJob, deliveries: number): Outcome<givenUp.GivenUpOutcome> {
    return ok(givenUp.recordGivenUpJob(this.db, job, deliveries, now()));
  }
  noticeToText(messageId: number): Outcome<{ body: string } | null> {
    return ok(messages.noticeToText(this.db, messageId));
  }
  recordSendOutcome(messageId: number, outcome: { sid: string } | { error: string }, actor: string): Outcome<null> {
    messages.recordSendOutcome(this.db, messageId, outcome, actor, now());
    return ok(null);
  }
}
