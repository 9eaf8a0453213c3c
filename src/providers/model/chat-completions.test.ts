/** The tail's adapter against a fake chat-completions server. */
import { describe, expect, it } from "vitest";
import { completion, FakeChatCompletions } from "../../../test/fixtures/fake-chat-completions";
import { ChatCompletionsTail, MAX_TAIL_BATCH, TailError, type TailConfig, type TailLine } from "./chat-completions";

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

describe("ChatCompletionsTail", () => {
  it("asks once per batch, with the key, the model, temperature 0, the categories and the lines", async () => {
    const fake = new FakeChatCompletions("/v1").reply(completion(answers([11, "Software"], [12, null], [13, "Meals"])));
    const { tail } = tailOn(fake);
    const result = await tail.classify(CATEGORIES, LINES);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({ path: "/v1/chat/completions", authorization: "Bearer sk-test", body: { model: "small-model", temperature: 0 } });
    expect(fake.lastAsked()).toEqual({
      categories: CATEGORIES,
      lines: [
        { id: 11, description: "ZOOM.US 888-799", merchant: "Zoom", amount: -15.99 },
        { id: 12, description: "MYSTERY VENDOR", merchant: null, amount: -3 },
        { id: 13, description: "CLIENT DEPOSIT", merchant: null, amount: 500 },
      ],
    });
    expect([...result.answers]).toEqual([[11, "Software"], [12, null], [13, "Meals"]]);
    expect(result).toMatchObject({ model: "fake-model-1", promptTokens: 1200, completionTokens: 300 });
    // 1,200 x 15,000 + 300 x 60,000 per million tokens = 36 millicents.
    expect(result.millicents).toBe(36);
  });

  it("takes anything but one of the tenant's categories as an abstention", async () => {
    const cases = [
      "not json at all",
      JSON.stringify({ answers: "Meals" }),
      answers([11, "Travel"], [99, "Meals"]),
      JSON.stringify({ answers: [{ id: "11", category: "Meals" }] }),
    ];
    for (const content of cases) {
      const fake = new FakeChatCompletions("/v1").reply(completion(content));
      const result = await tailOn(fake).tail.classify(CATEGORIES, LINES);
      expect([...result.answers.values()], content).toEqual([null, null, null]);
      expect(result.millicents).toBe(36);
    }
    const caseInsensitive = new FakeChatCompletions("/v1").reply(completion(answers([11, " software "])));
    expect((await tailOn(caseInsensitive).tail.classify(CATEGORIES, LINES)).answers.get(11)).toBe("Software");
    const empty = new FakeChatCompletions("/v1").reply(completion(null));
    expect([...(await tailOn(empty).tail.classify(CATEGORIES, LINES)).answers.values()]).toEqual([null, null, null]);
    const garbage = new FakeChatCompletions("/v1").reply(new Response("<html>oops</html>", { status: 200 }));
    expect((await tailOn(garbage).tail.classify(CATEGORIES, LINES)).millicents).toBeNull();
  });

  it("leaves the cost unpriced when usage is missing or unparseable, or no price is set", async () => {
    const missing = new FakeChatCompletions("/v1").reply(completion(answers([11, "Meals"]), null));
    expect(await tailOn(missing).tail.classify(CATEGORIES, LINES)).toMatchObject({ millicents: null, promptTokens: null });
    const garbled = new FakeChatCompletions("/v1").reply(completion(answers(), { prompt_tokens: "many" }));
    expect((await tailOn(garbled).tail.classify(CATEGORIES, LINES)).millicents).toBeNull();
    const unpriced = new FakeChatCompletions("/v1").reply(completion(answers()));
    expect((await tailOn(unpriced, { outputMillicentsPerMillionTokens: null }).tail.classify(CATEGORIES, LINES)).millicents).toBeNull();
  });

  it("retries a 429 after its Retry-After, and 5xx with backoff", async () => {
    const fake = new FakeChatCompletions("/v1").reply(
      new Response("slow down", { status: 429, headers: { "retry-after": "2" } }),
      new Response("oops", { status: 502 }),
      completion(answers([11, "Software"])),
    );
    const { tail, slept } = tailOn(fake);
    expect((await tail.classify(CATEGORIES, LINES)).answers.get(11)).toBe("Software");
    expect(fake.calls).toHaveLength(3);
    expect(slept).toEqual([2000, 1000]);
  });

  it("gives up as retryable after the last attempt, and at once on a refusal", async () => {
    const down = new FakeChatCompletions("/v1").reply(...[1, 2, 3].map(() => new Response("down", { status: 500 })));
    const error = await tailOn(down).tail.classify(CATEGORIES, LINES).catch((e) => e);
    expect(error).toBeInstanceOf(TailError);
    expect(error).toMatchObject({ retryable: true, message: expect.stringContaining("after 3 attempts") });

    const refused = new FakeChatCompletions("/v1").reply(Response.json({ error: { message: "invalid api key" } }, { status: 401 }));
    const refusal = await tailOn(refused).tail.classify(CATEGORIES, LINES).catch((e) => e);
    expect(refusal).toMatchObject({ retryable: false, message: "the model API refused the call (invalid api key)" });
    expect(refused.calls).toHaveLength(1);
  });

  it("times out a call that does not answer, and retries it", async () => {
    const fake = new FakeChatCompletions("/v1").reply(
      () => new Promise<Response>((resolve) => setTimeout(() => resolve(completion(answers())), 500)),
      completion(answers([12, "Fuel"])),
    );
    const { tail } = tailOn(fake, { timeoutMs: 50 });
    expect((await tail.classify(CATEGORIES, LINES)).answers.get(12)).toBe("Fuel");
    expect(fake.calls).toHaveLength(2);
  });

  it("keeps a base address's path and refuses an oversized batch", async () => {
    const bare = new FakeChatCompletions().reply(completion(answers()));
    await tailOn(bare, { baseUrl: "https://models.test/" }).tail.classify(CATEGORIES, LINES);
    expect(bare.calls[0]!.path).toBe("/chat/completions");
    const many = Array.from({ length: MAX_TAIL_BATCH + 1 }, (_, i) => ({ ...LINES[0]!, id: i }));
    await expect(tailOn(bare).tail.classify(CATEGORIES, many)).rejects.toThrow(`at most ${MAX_TAIL_BATCH}`);
  });
});
