/**
 * src/tail/ (entry: this file): asking the tail, the external model, about the lines nothing
 * else decided, metered. May import the ledger (through its object), the index (the meter),
 * the chat-completions adapter, env.ts and errors.ts. Imported only by watcher/ (after a
 * sync) and cron/ (the daily batch) (.dependency-cruiser.cjs: tail-after-the-books).
 */
/**
 * The tail: lines that neither the rules nor the local model decided go to an external
 * chat-completions model, batched, metered against the tenant's monthly cap.
 *
 * - Not configured (no base URL, model or key): no call is made; the lines wait in the
 *   exceptions queue.
 * - Mode `interactive` (under the cap): the watcher sends them right after a sync.
 * - Mode `batched` (at or over the cap) or null (no cap known, which never means under
 *   it): nothing goes out from the watcher; the daily cron sends what waits, in one run.
 */
import { settle } from "../errors";
import { ledgerOf, type Env } from "../env";
import { currentMode, recordMeter } from "../index-db/meter";
import { ChatCompletionsTail, MAX_TAIL_BATCH, type TailLine, type TailResult } from "../providers/model/chat-completions";

export interface TailClient {
  classify(categories: string[], lines: TailLine[]): Promise<TailResult>;
}

/** The deployment's tail, or null when it is not configured. */
export function tailFromEnv(env: Env): TailClient | null {
  if (!env.MODEL_API_BASE_URL || !env.MODEL_NAME || !env.MODEL_API_KEY) return null;
  const price = (value: string | undefined) => (value && Number.isFinite(Number(value)) ? Number(value) : null);
  return new ChatCompletionsTail({
    baseUrl: env.MODEL_API_BASE_URL,
    apiKey: env.MODEL_API_KEY,
    model: env.MODEL_NAME,
    inputMillicentsPerMillionTokens: price(env.MODEL_PRICE_INPUT_MILLICENTS_PER_MTOK),
    outputMillicentsPerMillionTokens: price(env.MODEL_PRICE_OUTPUT_MILLICENTS_PER_MTOK),
  });
}

export interface TailRun {
  outcome: "not-configured" | "deferred" | "sent";
  calls: number;
  sent: number;
  decided: number;
}

/**
 * Sends a tenant's waiting lines to the tail in batches and records what it answered.
 * `batch: true` is the daily cron's run, which sends whatever the mode. Each call is
 * metered before its answers are recorded, so a paid call is never lost from the meter.
 */
export async function sendToTail(env: Env, tenant: string, options: { now: Date; batch?: boolean; client?: TailClient | null }): Promise<TailRun> {
  const client = options.client === undefined ? tailFromEnv(env) : options.client;
  const run: TailRun = { outcome: "not-configured", calls: 0, sent: 0, decided: 0 };
  if (!client) return run;
  const interactive = async () => (await currentMode(env.INDEX_DB, tenant, options.now)) === "interactive";
  if (!options.batch && !(await interactive())) return { ...run, outcome: "deferred" };

  const ledger = ledgerOf(env, tenant);
  run.outcome = "sent";
  for (;;) {
    const work = settle(await ledger.tailWork(MAX_TAIL_BATCH));
    if (work.lines.length === 0 || work.categories.length === 0) return run;
    const lines = work.lines.map((l) => ({ id: l.aId, description: l.description, merchantName: l.merchantName, amountCents: l.amountCents }));
    const result = await client.classify(work.categories, lines);
    await recordMeter(env.INDEX_DB, tenant, options.now, { calls: 1, millicents: result.millicents, linesSentToApi: lines.length });
    run.calls += 1;
    run.sent += lines.length;
    run.decided += settle(await ledger.recordTailAnswers(
      lines.map((l) => ({ aId: l.id, answer: result.answers.get(l.id) ?? null })),
      result.model,
    ));
    // A call may have crossed the cap: the rest waits for the daily batch.
    if (!options.batch && !(await interactive())) return run;
  }
}
