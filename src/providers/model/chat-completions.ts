/**
 * The tail's adapter: the widely used chat-completions HTTP API. One call classifies a
 * batch of lines against the tenant's own categories. Every answer is validated: anything
 * that is not one of the categories (exactly after trimming, or the one that matches
 * case-insensitively, given back in the tenant's spelling) or null is an abstention for
 * that line, never an error. The cost comes from the response's token usage and the
 * configured prices; when either is missing the call is unpriced (`millicents: null`),
 * which the meter reports.
 *
 * Failures: 429, 5xx, network failures and timeouts are retried with exponential backoff
 * (or the server's Retry-After seconds), then a retryable TailError; any other refusal
 * (400, 401, 403, 404...) is a TailError that is not retryable, at once.
 */
import { endpoint, safeJson, withTimeout } from "../http";
import { z } from "zod";

export const MAX_TAIL_BATCH = 50;

export interface TailConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  inputMillicentsPerMillionTokens: number | null;
  outputMillicentsPerMillionTokens: number | null;
  timeoutMs?: number;
  maxAttempts?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export interface TailLine {
  id: number;
  description: string;
  merchantName: string | null;
  amountCents: number;
}

export interface TailResult {
  /** Every asked id: one of the tenant's categories, or null (abstained). */
  answers: Map<number, string | null>;
  model: string;
  promptTokens: number | null;
  completionTokens: number | null;
  /** Null = unpriced: usage absent or unparseable, or no price configured. */
  millicents: number | null;
}

export class TailError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "TailError";
  }
}

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
  model: z.string().optional(),
});
const usageSchema = z.object({ prompt_tokens: z.number().int().nonnegative(), completion_tokens: z.number().int().nonnegative() });
/** The content's shape; each entry is checked on its own, so one malformed entry abstains only for itself. */
const contentSchema = z.object({ answers: z.array(z.unknown()) });
const answerEntrySchema = z.object({ id: z.number().int(), category: z.string().nullable() });

export class ChatCompletionsTail {
  constructor(private readonly config: TailConfig) {}

  async classify(categories: string[], lines: TailLine[]): Promise<TailResult> {
    if (lines.length > MAX_TAIL_BATCH) throw new Error(`a tail batch holds at most ${MAX_TAIL_BATCH} lines`);
    if (lines.length === 0) throw new Error("a tail batch holds at least one line");
    const body = await this.post({
      model: this.config.model,
      temperature: 0,
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: JSON.stringify({ categories, lines: lines.map(asked) }) },
      ],
    });
    const usage = usageSchema.safeParse((body as { usage?: unknown } | undefined)?.usage);
    const completion = completionSchema.safeParse(body);
    const content = completion.success ? completion.data.choices[0]!.message.content : null;
    return {
      answers: answersFrom(content, categories, lines),
      model: (completion.success && completion.data.model) || this.config.model,
      promptTokens: usage.success ? usage.data.prompt_tokens : null,
      completionTokens: usage.success ? usage.data.completion_tokens : null,
      millicents: usage.success ? this.cost(usage.data.prompt_tokens, usage.data.completion_tokens) : null,
    };
  }

  private cost(prompt: number, completion: number): number | null {
    const { inputMillicentsPerMillionTokens: input, outputMillicentsPerMillionTokens: output } = this.config;
    if (!isPrice(input) || !isPrice(output)) return null;
    return Math.ceil((prompt * input + completion * output) / 1_000_000);
  }

  /**
   * POSTs with retries for 429, 5xx, network failures and timeouts (the timeout covers
   * the answer's body too, so a stalled body is a timeout); the parsed body of a 200, or
   * undefined when it is not JSON.
   */
  private async post(payload: unknown): Promise<unknown> {
    const attempts = Math.max(1, Math.floor(this.config.maxAttempts ?? 3));
    const timeoutMs = this.config.timeoutMs ?? 20_000;
    const doFetch = this.config.fetch ?? fetch;
    const sleep = this.config.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const url = endpoint(this.config.baseUrl, "chat/completions");
    const body = JSON.stringify(payload);
    let last = "no attempt was made";
    for (let attempt = 1; attempt <= attempts; attempt++) {
      let answer: { status: number; ok: boolean; retryAfter: string | null; text: string };
      try {
        answer = await withTimeout(timeoutMs, async (signal) => {
          const response = await doFetch(url, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${this.config.apiKey}` },
            body,
            signal,
          });
          // A refusal's body only names the error; a 200's body is the answer, and failing to read it is a network failure.
          const text = response.ok ? await response.text() : await response.text().catch(() => "");
          return { status: response.status, ok: response.ok, retryAfter: response.headers.get("retry-after"), text };
        });
      } catch (cause) {
        last = `the model API could not be reached: ${String(cause)}`;
        if (attempt < attempts) await sleep(backoff(attempt, null));
        continue;
      }
      if (answer.ok) return safeJson(answer.text);
      const message = errorMessage(answer.text) ?? `HTTP ${answer.status}`;
      if (answer.status !== 429 && answer.status < 500) throw new TailError(`the model API refused the call (${message})`, false);
      last = `the model API answered ${answer.status} (${message})`;
      if (attempt < attempts) await sleep(backoff(attempt, answer.retryAfter));
    }
    throw new TailError(`${last}, after ${attempts} attempts`, true);
  }
}

const SYSTEM_PROMPT =
  "You categorise a small business's bank lines for its books. Choose each line's category from `categories` only, " +
  "spelled exactly as given. Amounts are in dollars from the business's side: positive = money in. If you are not " +
  'sure, answer null. Reply with one JSON object: {"answers":[{"id":<line id>,"category":<a category or null>}]}.';

function asked(line: TailLine) {
  return { id: line.id, description: line.description, merchant: line.merchantName, amount: line.amountCents / 100 };
}

/**
 * Each asked id's answer: a category of the tenant's (canonical spelling) or null. An entry
 * that is malformed, names an id that was not asked, or names no category of the tenant's
 * is an abstention; so is an id answered twice with different categories.
 */
function answersFrom(content: string | null, categories: string[], lines: TailLine[]): Map<number, string | null> {
  const answers = new Map<number, string | null>(lines.map((l) => [l.id, null]));
  const parsed = contentSchema.safeParse(content === null ? undefined : safeJson(unfenced(content)));
  if (!parsed.success) return answers;
  const canonical = canonicalCategory(categories);
  const given = new Map<number, string | null>();
  const conflicting = new Set<number>();
  for (const entry of parsed.data.answers) {
    const answer = answerEntrySchema.safeParse(entry);
    if (!answer.success || !answers.has(answer.data.id)) continue;
    const { id, category } = answer.data;
    const value = category === null ? null : canonical(category);
    if (given.has(id) && given.get(id) !== value) conflicting.add(id);
    given.set(id, value);
  }
  for (const [id, value] of given) answers.set(id, conflicting.has(id) ? null : value);
  return answers;
}

/**
 * The tenant's category an answer names: an exact match after trimming, else the one
 * category that matches case-insensitively (none, or more than one: not a category).
 */
function canonicalCategory(categories: string[]): (answer: string) => string | null {
  const exact = new Map(categories.map((c) => [c.trim(), c]));
  const folded = new Map<string, string | null>();
  for (const c of categories) {
    const key = c.trim().toLowerCase();
    folded.set(key, folded.has(key) && folded.get(key) !== c ? null : c);
  }
  return (answer) => {
    const trimmed = answer.trim();
    return exact.get(trimmed) ?? folded.get(trimmed.toLowerCase()) ?? null;
  };
}

/** The content without a Markdown code fence around it, which some models add even in JSON mode. */
function unfenced(content: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?\s*```\s*$/i.exec(content);
  return fenced ? fenced[1]! : content;
}

function isPrice(value: number | null): value is number {
  return value !== null && Number.isFinite(value) && value >= 0;
}

/**
 * Exponential backoff (0.5 s, 1 s, 2 s...), or the server's Retry-After when it is a number
 * of seconds (at most 60; an HTTP date or anything else falls back to the backoff).
 */
function backoff(attempt: number, retryAfter: string | null): number {
  const seconds = retryAfter !== null && /^\s*\d+(?:\.\d+)?\s*$/.test(retryAfter) ? Number(retryAfter) : NaN;
  return Number.isFinite(seconds) ? Math.min(seconds, 60) * 1000 : 500 * 2 ** (attempt - 1);
}

function errorMessage(text: string): string | null {
  const body = safeJson(text) as { error?: { message?: unknown } } | undefined;
  return typeof body?.error?.message === "string" ? body.error.message : null;
}
