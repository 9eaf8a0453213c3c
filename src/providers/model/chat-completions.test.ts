/**
 * The tail's adapter against the fake chat-completions server of
 * test/fixtures/fake-chat-completions.ts: a small Hono app that records every request and
 * answers with what each test queues. No network; `sleep` is injected, so no test waits
 * for a backoff.
 */
import { describe, expect, it } from "vitest";
import { apiError, completion, FakeChatCompletions, hangs, stalledBody } from "../../../test/fixtures/fake-chat-completions";
import { ChatCompletionsTail, MAX_TAIL_BATCH, TailError, type TailConfig, type TailLine, type TailResult } from "./chat-completions";

const CATEGORIES = ["Meals", "Software", "Fuel"];
const LINES: TailLine[] = [
  { id: 11, description: "ZOOM.US 888-799", merchantName: "Zoom", amountCents: -1599 },
  { id: 12, description: "MYSTERY VENDOR", merchantName: null, amountCents: -300 },
  { id: 13, description: "CLIENT DEPOSIT", merchantName: null, amountCents: 50000 },
];

function tailOn(fake: FakeChatCompletions, overrides: Partial<TailConfig> = {}) {
  const slept: number[] = [];
  const tail = new ChatCompletionsTail({
    baseUrl: "https://models.test/v1",
    apiKey: "sk-test",
    model: "small-model",
    inputMillicentsPerMillionTokens: 15_000,
    outputMillicentsPerMillionTokens: 60_000,
    fetch: fake.fetch,
    sleep: async (ms) => void slept.push(ms),
    ...overrides,
  });
  return { tail, slept };
}

const answers = (...pairs: [number, string | null][]) => JSON.stringify({ answers: pairs.map(([id, category]) => ({ id, category })) });

/** The answers of one call whose completion carries `content`, in the order the lines were asked. */
async function answered(content: string | null, categories = CATEGORIES): Promise<(string | null)[]> {
  const fake = new FakeChatCompletions("/v1").reply(completion(content));
  const result = await tailOn(fake).tail.classify(categories, LINES);
  expect([...result.answers.keys()]).toEqual([11, 12, 13]);
  return [...result.answers.values()];
}

/** The rejection of `promise`, asserted to be a TailError. */
async function tailError(promise: Promise<TailResult>): Promise<TailError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TailError);
  return error as TailError;
}

describe("ChatCompletionsTail: the request", () => {
  it("asks once per batch, with the key, the model, temperature 0, JSON mode, the categories and the lines", async () => {
    const fake = new FakeChatCompletions("/v1").reply(completion(answers([11, "Software"], [12, null], [13, "Meals"])));
    fake.apiKey = "sk-test";
    await tailOn(fake).tail.classify(CATEGORIES, LINES);
    expect(fake.calls).toHaveLength(1);
    const [call] = fake.calls;
    expect(call).toMatchObject({ path: "/v1/chat/completions", authorization: "Bearer sk-test", contentType: "application/json" });
    expect(call!.body).toEqual({
      model: "small-model",
      temperature: 0,
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: expect.any(String) },
        { role: "user", content: expect.any(String) },
      ],
    });
    const instructions: string = call!.body.messages[0].content;
    expect(instructions).toContain("null");
    expect(instructions).toContain('{"answers":[{"id":');
    expect(instructions).toContain("positive = money in");
    // Amounts in dollars with the business's sign: positive = money in.
    expect(fake.lastAsked()).toEqual({
      categories: CATEGORIES,
      lines: [
        { id: 11, description: "ZOOM.US 888-799", merchant: "Zoom", amount: -15.99 },
        { id: 12, description: "MYSTERY VENDOR", merchant: null, amount: -3 },
        { id: 13, description: "CLIENT DEPOSIT", merchant: null, amount: 500 },
      ],
    });
  });

  it.each([
    ["https://models.test/v1", "/v1", "/v1/chat/completions"],
    ["https://models.test/v1/", "/v1", "/v1/chat/completions"],
    ["https://models.test/openai/v1", "/openai/v1", "/openai/v1/chat/completions"],
    ["https://models.test", "", "/chat/completions"],
  ])("posts to chat/completions under the base address %s", async (baseUrl, basePath, path) => {
    const fake = new FakeChatCompletions(basePath).reply(completion(answers([11, "Software"])));
    const result = await tailOn(fake, { baseUrl }).tail.classify(CATEGORIES, LINES);
    expect(fake.calls.map((c) => c.path)).toEqual([path]);
    expect(result.answers.get(11)).toBe("Software");
  });

  it("refuses an empty batch and one larger than MAX_TAIL_BATCH, without calling", async () => {
    expect(MAX_TAIL_BATCH).toBe(50);
    const fake = new FakeChatCompletions("/v1");
    const { tail } = tailOn(fake);
    const many = Array.from({ length: MAX_TAIL_BATCH + 1 }, (_, i) => ({ ...LINES[0]!, id: i }));
    await expect(tail.classify(CATEGORIES, many)).rejects.toThrow(`at most ${MAX_TAIL_BATCH}`);
    await expect(tail.classify(CATEGORIES, [])).rejects.toThrow("at least one line");
    expect(fake.calls).toHaveLength(0);
    await tail.classify(CATEGORIES, many.slice(0, MAX_TAIL_BATCH));
    expect(fake.lastAsked().lines).toHaveLength(MAX_TAIL_BATCH);
  });
});

describe("ChatCompletionsTail: the answers", () => {
  it("gives each asked id a category of the tenant's, or null where the model abstained", async () => {
    const fake = new FakeChatCompletions("/v1").reply(completion(answers([11, "Software"], [12, null], [13, "Meals"])));
    const result = await tailOn(fake).tail.classify(CATEGORIES, LINES);
    expect([...result.answers]).toEqual([[11, "Software"], [12, null], [13, "Meals"]]);
    expect(result).toEqual({ answers: result.answers, model: "fake-model-1", promptTokens: 1200, completionTokens: 300, millicents: 36 });
  });

  it("names the configured model when the answer does not name one", async () => {
    const fake = new FakeChatCompletions("/v1").reply(
      Response.json({ choices: [{ message: { content: answers([11, "Fuel"]) } }], usage: { prompt_tokens: 1, completion_tokens: 1 } }),
    );
    expect(await tailOn(fake).tail.classify(CATEGORIES, LINES)).toMatchObject({ model: "small-model", millicents: 1 });
  });

  it("maps a category that differs only in case or spacing to the tenant's spelling", async () => {
    expect(await answered(answers([11, " software "], [12, "FUEL"], [13, "Meals\n"]))).toEqual(["Software", "Fuel", "Meals"]);
    // Two categories that differ only in case: only an exact match names one.
    const twins = ["Meals", "MEALS", "Fuel"];
    expect(await answered(answers([11, "meals"], [12, "MEALS"], [13, " Meals "]), twins)).toEqual([null, "MEALS", "Meals"]);
  });

  it.each([
    ["content that is not JSON", "not json at all"],
    ["an empty content", ""],
    ["JSON that is not an object", JSON.stringify([{ id: 11, category: "Meals" }])],
    ["answers that are not a list", JSON.stringify({ answers: "Meals" })],
    ["the wrong key", JSON.stringify({ results: [{ id: 11, category: "Meals" }] })],
    ["categories not in the list", answers([11, "Travel"], [12, "Meals and entertainment"], [13, "uncategorised"])],
    ["unknown ids only", answers([99, "Meals"], [0, "Fuel"])],
    ["no answers", answers()],
    ["an id as a string", JSON.stringify({ answers: [{ id: "11", category: "Meals" }] })],
    ["a fractional id", JSON.stringify({ answers: [{ id: 11.5, category: "Meals" }] })],
    ["a category as a number", JSON.stringify({ answers: [{ id: 11, category: 3 }] })],
    ["a category as a list", JSON.stringify({ answers: [{ id: 11, category: ["Meals"] }] })],
    ["a missing category", JSON.stringify({ answers: [{ id: 11 }] })],
    ["entries that are not objects", JSON.stringify({ answers: [11, "Meals", null] })],
  ])("takes %s as abstentions for every line, and still prices the call", async (_, content) => {
    const fake = new FakeChatCompletions("/v1").reply(completion(content));
    const result = await tailOn(fake).tail.classify(CATEGORIES, LINES);
    expect([...result.answers]).toEqual([[11, null], [12, null], [13, null]]);
    expect(result.millicents).toBe(36);
  });

  it("abstains only for the lines whose entry is wrong, missing or contradicted", async () => {
    const content = JSON.stringify({
      answers: [
        { id: 11, category: "Software" },
        { id: 12, category: 7 },
        { id: 99, category: "Fuel" },
        { id: 13, category: "Meals" },
        { id: 13, category: "Fuel" },
      ],
    });
    expect(await answered(content)).toEqual(["Software", null, null]);
    // The same answer twice is still that answer; a line left out is an abstention.
    expect(await answered(answers([11, "Software"], [11, "software"], [13, "Fuel"]))).toEqual(["Software", null, "Fuel"]);
  });

  it("reads JSON wrapped in a code fence", async () => {
    expect(await answered("```json\n" + answers([11, "Software"]) + "\n```")).toEqual(["Software", null, null]);
  });

  it("takes a 200 whose body is not a completion as abstentions, with the usage when it is readable", async () => {
    const html = new FakeChatCompletions("/v1").reply(new Response("<html>oops</html>", { status: 200 }));
    const unreadable = await tailOn(html).tail.classify(CATEGORIES, LINES);
    expect([...unreadable.answers.values()]).toEqual([null, null, null]);
    expect(unreadable).toMatchObject({ model: "small-model", promptTokens: null, completionTokens: null, millicents: null });

    for (const body of [
      { choices: [], usage: { prompt_tokens: 1200, completion_tokens: 300 } },
      { choices: "Meals", usage: { prompt_tokens: 1200, completion_tokens: 300 } },
      { usage: { prompt_tokens: 1200, completion_tokens: 300 } },
    ]) {
      const fake = new FakeChatCompletions("/v1").reply(Response.json(body));
      const result = await tailOn(fake).tail.classify(CATEGORIES, LINES);
      expect([...result.answers.values()], JSON.stringify(body)).toEqual([null, null, null]);
      expect(result).toMatchObject({ promptTokens: 1200, completionTokens: 300, millicents: 36 });
    }

    const nullContent = new FakeChatCompletions("/v1").reply(completion(null));
    expect([...(await tailOn(nullContent).tail.classify(CATEGORIES, LINES)).answers.values()]).toEqual([null, null, null]);
  });
});

describe("ChatCompletionsTail: the cost", () => {
  it.each([
    // (1,200 x 15,000 + 300 x 60,000) / 10^6 = 36 exactly.
    [1200, 300, 15_000, 60_000, 36],
    // 0.015 + 0.06 = 0.075: rounded up to 1.
    [1, 1, 15_000, 60_000, 1],
    // (1,000 x 15,000 + 1 x 60,000) / 10^6 = 15.06: rounded up to 16.
    [1000, 1, 15_000, 60_000, 16],
    // 0 tokens cost nothing.
    [0, 0, 15_000, 60_000, 0],
    // Free prices are prices.
    [5000, 500, 0, 0, 0],
    // Large numbers stay integers: (2,000,000 x 250,000 + 16,384 x 1,000,000) / 10^6.
    [2_000_000, 16_384, 250_000, 1_000_000, 516_384],
    // Fractional prices: (3 x 0.1 + 0) / 10^6 rounds up to 1.
    [3, 0, 0.1, 0, 1],
  ])("prompt %i, completion %i at %d / %d millicents per million tokens cost %i millicents", async (prompt, completionTokens, input, output, cost) => {
    const fake = new FakeChatCompletions("/v1").reply(completion(answers(), { prompt_tokens: prompt, completion_tokens: completionTokens }));
    const result = await tailOn(fake, { inputMillicentsPerMillionTokens: input, outputMillicentsPerMillionTokens: output }).tail.classify(CATEGORIES, LINES);
    expect(result).toMatchObject({ promptTokens: prompt, completionTokens, millicents: cost });
    expect(Number.isInteger(result.millicents)).toBe(true);
  });

  it.each([
    ["absent", undefined],
    ["null", null],
    ["not an object", "1500 tokens"],
    ["tokens as strings", { prompt_tokens: "1200", completion_tokens: "300" }],
    ["a missing count", { prompt_tokens: 1200 }],
    ["negative tokens", { prompt_tokens: -1, completion_tokens: 300 }],
    ["fractional tokens", { prompt_tokens: 1.5, completion_tokens: 300 }],
  ])("leaves the call unpriced when the usage is %s", async (_, usage) => {
    const fake = new FakeChatCompletions("/v1").reply(Response.json({ model: "fake-model-1", choices: [{ message: { content: answers([11, "Meals"]) } }], usage }));
    const result = await tailOn(fake).tail.classify(CATEGORIES, LINES);
    expect(result).toMatchObject({ promptTokens: null, completionTokens: null, millicents: null });
    expect(result.answers.get(11)).toBe("Meals");
  });

  it("leaves the call unpriced when a price is not configured (or is not a price), and still reports the tokens", async () => {
    for (const prices of [
      { inputMillicentsPerMillionTokens: null },
      { outputMillicentsPerMillionTokens: null },
      { inputMillicentsPerMillionTokens: null, outputMillicentsPerMillionTokens: null },
      { inputMillicentsPerMillionTokens: -1 },
      { outputMillicentsPerMillionTokens: Number.NaN },
      { inputMillicentsPerMillionTokens: Number.POSITIVE_INFINITY },
    ]) {
      const fake = new FakeChatCompletions("/v1").reply(completion(answers([11, "Meals"])));
      const result = await tailOn(fake, prices).tail.classify(CATEGORIES, LINES);
      expect(result, JSON.stringify(prices)).toMatchObject({ promptTokens: 1200, completionTokens: 300, millicents: null });
    }
  });
});

describe("ChatCompletionsTail: failures", () => {
  it("retries a 429 after its Retry-After seconds, then takes the answer", async () => {
    const fake = new FakeChatCompletions("/v1").reply(apiError(429, "Rate limit reached", { "retry-after": "7" }), completion(answers([11, "Software"])));
    const { tail, slept } = tailOn(fake);
    const result = await tail.classify(CATEGORIES, LINES);
    expect(result.answers.get(11)).toBe("Software");
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls[1]!.body).toEqual(fake.calls[0]!.body);
    expect(slept).toEqual([7000]);
  });

  it("backs off exponentially when no Retry-After is given, or it is not a number of seconds", async () => {
    const fake = new FakeChatCompletions("/v1").reply(
      new Response("busy", { status: 429 }),
      new Response("oops", { status: 502 }),
      new Response("busy", { status: 429, headers: { "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" } }),
      new Response("busy", { status: 429, headers: { "retry-after": "" } }),
      completion(answers([13, "Meals"])),
    );
    const { tail, slept } = tailOn(fake, { maxAttempts: 5 });
    expect((await tail.classify(CATEGORIES, LINES)).answers.get(13)).toBe("Meals");
    expect(fake.calls).toHaveLength(5);
    expect(slept).toEqual([500, 1000, 2000, 4000]);
  });

  it("waits at most a minute, and honours a Retry-After of 0 and fractions of a second", async () => {
    const fake = new FakeChatCompletions("/v1").reply(
      new Response("busy", { status: 429, headers: { "retry-after": "3600" } }),
      new Response("busy", { status: 429, headers: { "retry-after": "0" } }),
      new Response("busy", { status: 503, headers: { "retry-after": "1.5" } }),
      completion(answers([13, "Meals"])),
    );
    const { tail, slept } = tailOn(fake, { maxAttempts: 4 });
    expect((await tail.classify(CATEGORIES, LINES)).answers.get(13)).toBe("Meals");
    expect(slept).toEqual([60_000, 0, 1500]);
  });

  it("gives up after three 500s with a retryable TailError", async () => {
    const fake = new FakeChatCompletions("/v1").reply(...[1, 2, 3].map(() => apiError(500, "The server had an error")));
    const { tail, slept } = tailOn(fake);
    const error = await tailError(tail.classify(CATEGORIES, LINES));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe("the model API answered 500 (The server had an error), after 3 attempts");
    expect(fake.calls).toHaveLength(3);
    // No sleep after the last attempt.
    expect(slept).toEqual([500, 1000]);
  });

  it("honours maxAttempts", async () => {
    const fake = new FakeChatCompletions("/v1");
    fake.fallback = () => new Response("unavailable", { status: 503 });
    const { tail, slept } = tailOn(fake, { maxAttempts: 5 });
    expect((await tailError(tail.classify(CATEGORIES, LINES))).message).toContain("answered 503 (HTTP 503), after 5 attempts");
    expect(fake.calls).toHaveLength(5);
    expect(slept).toEqual([500, 1000, 2000, 4000]);
  });

  it("refuses a 401 at once, not retryable, with the provider's message", async () => {
    const fake = new FakeChatCompletions("/v1");
    fake.apiKey = "sk-the-real-one";
    const { tail, slept } = tailOn(fake);
    const error = await tailError(tail.classify(CATEGORIES, LINES));
    expect(error).toMatchObject({ retryable: false, message: "the model API refused the call (Incorrect API key provided.)" });
    expect(fake.calls).toHaveLength(1);
    expect(slept).toEqual([]);
  });

  it.each([
    [400, apiError(400, "Invalid value for 'response_format'"), "Invalid value for 'response_format'"],
    [403, apiError(403, "Project does not have access to model"), "Project does not have access to model"],
    [404, apiError(404, "The model `small-model` does not exist"), "The model `small-model` does not exist"],
    [404, new Response("Not Found", { status: 404 }), "HTTP 404"],
  ])("refuses a %i at once, not retryable", async (_, response, message) => {
    const fake = new FakeChatCompletions("/v1").reply(response);
    const error = await tailError(tailOn(fake).tail.classify(CATEGORIES, LINES));
    expect(error).toMatchObject({ retryable: false, message: `the model API refused the call (${message})` });
    expect(fake.calls).toHaveLength(1);
  });

  it("retries a dropped connection", async () => {
    const fake = new FakeChatCompletions("/v1").reply(completion(answers([12, "Fuel"])));
    fake.dropConnections = 1;
    const { tail, slept } = tailOn(fake);
    expect((await tail.classify(CATEGORIES, LINES)).answers.get(12)).toBe("Fuel");
    expect(fake.calls).toHaveLength(1);
    expect(slept).toEqual([500]);

    const down = new FakeChatCompletions("/v1");
    down.dropConnections = 3;
    const error = await tailError(tailOn(down).tail.classify(CATEGORIES, LINES));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/could not be reached: TypeError: Network connection lost\., after 3 attempts$/);
    expect(down.calls).toHaveLength(0);
  });

  it("times out a call that never answers, and retries it", async () => {
    const fake = new FakeChatCompletions("/v1").reply(hangs, completion(answers([12, "Fuel"])));
    const { tail, slept } = tailOn(fake, { timeoutMs: 20 });
    expect((await tail.classify(CATEGORIES, LINES)).answers.get(12)).toBe("Fuel");
    expect(fake.calls).toHaveLength(2);
    expect(slept).toEqual([500]);
  });

  it("gives the call's signal to fetch, aborted at the timeout", async () => {
    const fake = new FakeChatCompletions("/v1").reply(hangs);
    let signal: AbortSignal | undefined;
    const spy: typeof fetch = (input, init) => {
      signal = init?.signal ?? undefined;
      return fake.fetch(input, init);
    };
    const error = await tailError(tailOn(fake, { fetch: spy, timeoutMs: 20, maxAttempts: 1 }).tail.classify(CATEGORIES, LINES));
    expect(error).toMatchObject({ retryable: true, message: expect.stringContaining("no answer within 20 ms") });
    expect(signal?.aborted).toBe(true);
  });

  it("times out a 200 whose body never finishes", async () => {
    const fake = new FakeChatCompletions("/v1").reply(stalledBody, completion(answers([11, "Software"])));
    const { tail } = tailOn(fake, { timeoutMs: 20 });
    expect((await tail.classify(CATEGORIES, LINES)).answers.get(11)).toBe("Software");
    expect(fake.calls).toHaveLength(2);
  });

  it("gives up on a server that never answers with a retryable TailError", async () => {
    const fake = new FakeChatCompletions("/v1");
    fake.fallback = hangs;
    const { tail, slept } = tailOn(fake, { timeoutMs: 10 });
    const error = await tailError(tail.classify(CATEGORIES, LINES));
    expect(error).toMatchObject({ retryable: true, message: expect.stringMatching(/no answer within 10 ms, after 3 attempts$/) });
    expect(fake.calls).toHaveLength(3);
    expect(slept).toEqual([500, 1000]);
  });
});
