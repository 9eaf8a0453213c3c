/**
 * The tail's adapter: the widely used chat-completions HTTP API. One call classifies a
 * batch of lines against the tenant's own categories. Every answer is validated: anything
 * that is not exactly one of the categories (or null) is an abstention for that line.
 * The cost comes from the response's token usage and the configured prices; when either is
 * missing the call is unpriced (`millicents: null`), which the meter reports.
 */
import { endpoint, safeJson } from "../http";
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
const answerSchema = z.object({ answers: z.array(z.object({ id: z.number().int(), category: z.string().nullable() })) });

export class ChatCompletionsTail {
  constructor(private readonly config: TailConfig) {}

  async classify(categories: string[], lines: TailLine[]): Promise<TailResult> {
    if (lines.length > MAX_TAIL_BATCH) throw new Error(`a tail batch holds at most ${MAX_TAIL_BATCH} lines`);
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
    if (input === null || output === null) return null;
    return Math.ceil((prompt * input + completion * output) / 1_000_000);
  }

  /** POSTs with retries for 429, 5xx, network failures and timeouts; the parsed body of a 200. */
  private async post(payload: unknown): Promise<unknown> {
    const attempts = this.config.maxAttempts ?? 3;
    const doFetch = this.config.fetch ?? fetch;
    const sleep = this.config.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    let last = "no attempt was made";
    for (let attempt = 1; attempt <= attempts; attempt++) {
      let response: Response;
      try {
        response = await withTimeout(this.config.timeoutMs ?? 20_000, (signal) =>
          doFetch(endpoint(this.config.baseUrl, "chat/completions"), {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${this.config.apiKey}` },
            body: JSON.stringify(payload),
            signal,
          }),
        );
      } catch (cause) {
        last = `the model API could not be reached: ${String(cause)}`;
        if (attempt < attempts) await sleep(backoff(attempt, null));
        continue;
      }
      const text = await response.text().catch(() => "");
      if (response.ok) return safeJson(text);
      const message = errorMessage(text) ?? `HTTP ${response.status}`;
      if (response.status !== 429 && response.status < 500) throw new TailError(`the model API refused the call (${message})`, false);
      last = `the model API answered ${response.status} (${message})`;
      if (attempt < attempts) await sleep(backoff(attempt, response.headers.get("retry-after")));
    }
    throw new TailError(`${last}, after ${attempts} attempts`, true);
  }
}

const SYSTEM_PROMPT =
  "You categorise a small business's bank lines for its books. Choose each line's category from `categories` only, " +
  "spelled exactly as given. Amounts are in dollars from the business's side: positive = money in. If you are not " +
  'sure, answer null. Reply with one JSON object: {"answers":[{"id":<line id>,"category":<a category or null>}]}.';

/** Runs a call that is aborted, and given up on, once `ms` have passed, whether or not it heeds the signal. */
async function withTimeout<T>(ms: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([call(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function asked(line: TailLine) {
  return { id: line.id, description: line.description, merchant: line.merchantName, amount: line.amountCents / 100 };
}

/** Each asked id's answer: a category of the tenant's (canonical spelling) or null. */
function answersFrom(content: string | null, categories: string[], lines: TailLine[]): Map<number, string | null> {
  const canonical = new Map(categories.map((c) => [c.trim().toLowerCase(), c]));
  const answers = new Map<number, string | null>(lines.map((l) => [l.id, null]));
  const parsed = answerSchema.safeParse(content === null ? undefined : safeJson(content));
  if (!parsed.success) return answers;
  for (const { id, category } of parsed.data.answers) {
    if (!answers.has(id) || category === null) continue;
    answers.set(id, canonical.get(category.trim().toLowerCase()) ?? null);
  }
  return answers;
}

/** Exponential backoff (0.5 s, 1 s, 2 s...), or the server's Retry-After seconds when it says. */
function backoff(attempt: number, retryAfter: string | null): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 60) * 1000 : 500 * 2 ** (attempt - 1);
}

function errorMessage(text: string): string | null {
  const body = safeJson(text) as { error?: { message?: unknown } } | undefined;
  return typeof body?.error?.message === "string" ? body.error.message : null;
}
