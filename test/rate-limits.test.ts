/**
 * The general rate limits through the Rate Limiting bindings (miniflare's simulation: fixed
 * windows of the period): wrangler.toml's bindings hold the documented numbers, and the app
 * refuses per credential and per client address with 429 `rate_limited`, Retry-After and
 * problem+json, having done nothing. A window can end during a test (every count starts
 * again), so a check made after a budget is spent is repeated when its window changed.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../src/limits/rate-limit";
import worker from "../src/worker";
import { landSandboxBank } from "./fixtures/books";
import { api, BASE, CHECKING, createTenant, deliver, grantAuditor, session, txn } from "./fixtures/sandbox";

const PERIOD_MS = RATE_LIMITS.credential.periodSeconds * 1000;
const window = () => Math.floor(Date.now() / PERIOD_MS);

/** Runs `look` again (up to 3 times) when a window ended while it ran, so its counts are one window's. */
async function inOneWindow<T>(look: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    const before = window();
    const seen = await look();
    if (window() === before || i === 2) return seen;
  }
}

/** Sends until the first 429 (at most `max`); answers how many went through before it, and the refusal. */
async function spend(send: () => Promise<Response>, max: number): Promise<{ through: number; refusal: Response | undefined }> {
  for (let through = 0; through < max; through++) {
    const answer = await send();
    if (answer.status === 429) return { through, refusal: answer };
    await answer.body?.cancel();
  }
  return { through: max, refusal: undefined };
}

/**
 * The app with rate limits of a few calls in place of wrangler.toml's (vitest.config.mts):
 * the same code and bindings of the same kind, only smaller, so a test spends them in a few calls.
 */
const SMALL = { credential: 5, address: 8 };
const smallEnv = (vars: Record<string, string> = {}) => ({
  ...env,
  RATE_LIMIT_CREDENTIAL: env.SMALL_RATE_LIMIT_CREDENTIAL,
  RATE_LIMIT_ADDRESS: env.SMALL_RATE_LIMIT_ADDRESS,
  ...vars,
});

async function call(path: string, init: RequestInit = {}, vars: Record<string, string> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const answer = await worker.fetch(new Request(`${BASE}${path}`, init) as Request<unknown, IncomingRequestCfProperties>, smallEnv(vars), ctx);
  await waitOnExecutionContext(ctx);
  return answer;
}

/** A call counted against the credential and refused by validation: it changes nothing. */
const cheapCall = (bearer: string, headers: Record<string, string> = {}) =>
  call("/api/v1/transactions?per_page=0", { headers: { authorization: `Bearer ${bearer}`, ...headers } });

async function expectRateLimited(answer: Response, whose: string) {
  expect(answer.status).toBe(429);
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  expect(answer.headers.get("retry-after")).toBe(String(RATE_LIMITS.credential.periodSeconds));
  expect(answer.headers.get("strict-transport-security")).toContain("max-age=");
  const problem = (await answer.json()) as any;
  expect(problem).toMatchObject({ status: 429, code: "rate_limited", type: "urn:ledger:problem:rate_limited" });
  expect(problem.detail).toContain(whose);
}

let addressCounter = 0;
const freshAddress = () => `198.51.100.${++addressCounter}`;

describe("wrangler.toml's bindings", () => {
  for (const [which, { binding, limit }] of Object.entries(RATE_LIMITS)) {
    it(`allow ${limit} calls a period per ${which} key, then refuse`, async () => {
      const key = `${which}:${crypto.randomUUID()}`;
      const outcomes = await inOneWindow(async () => {
        const seen: boolean[] = [];
        for (let i = 0; i <= limit; i++) seen.push((await env[binding].limit({ key })).success);
        return seen;
      });
      expect(outcomes.slice(0, limit).every(Boolean)).toBe(true);
      expect(outcomes[limit]).toBe(false);
    });
  }
});

describe("the credential limit", () => {
  it("refuses a credential's calls past its limit with 429, Retry-After and problem+json; its tenant's other credentials go on", async () => {
    const t = await createTenant();
    const seen = await inOneWindow(async () => {
      const spent = await spend(() => cheapCall(t.tokens.read_only, { "cf-connecting-ip": freshAddress() }), 3 * SMALL.credential);
      const other = await call("/api/v1/me", { headers: { authorization: `Bearer ${t.tokens.read_write}` } });
      const again = await cheapCall(t.tokens.read_only);
      return { spent, other: other.status, again: again.status };
    });
    expect(seen.spent.through).toBe(SMALL.credential);
    await expectRateLimited(seen.spent.refusal!, "This credential");
    expect(seen.other).toBe(200);
    expect(seen.again).toBe(429);
  });

  it("counts a session as a credential of its own", async () => {
    const t = await createTenant();
    const seen = await inOneWindow(async () => {
      const spent = await spend(() => call("/api/v1/transactions?per_page=0", { headers: { cookie: `svc_session=${t.session}` } }), 3 * SMALL.credential);
      const token = await call("/api/v1/me", { headers: { authorization: `Bearer ${t.tokens.read_write}` } });
      return { spent, token: token.status };
    });
    expect(seen.spent.through).toBe(SMALL.credential);
    await expectRateLimited(seen.spent.refusal!, "This credential");
    expect(seen.token).toBe(200);
  });

  it("counts an auditor grant's token as a credential of its own", async () => {
    const t = await createTenant();
    const { token } = await grantAuditor(t);
    const seen = await inOneWindow(async () => {
      const spent = await spend(() => call("/api/v1/auditor/view", { headers: { authorization: `Bearer ${token}` } }), 3 * SMALL.credential);
      const owner = await call("/api/v1/me", { headers: { authorization: `Bearer ${t.tokens.read_write}` } });
      return { spent, owner: owner.status };
    });
    expect(seen.spent.through).toBe(SMALL.credential);
    await expectRateLimited(seen.spent.refusal!, "This credential");
    expect(seen.owner).toBe(200);
  });

  it("refuses a write past the limit before it is done: the line keeps the last category acknowledged", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("w1", { name: "HARDWARE STORE" })] });
    await landSandboxBank(t);
    let acknowledged = "";
    let refusal: Response | undefined;
    for (let i = 0; i < 3 * SMALL.credential && !refusal; i++) {
      const category = `Category ${i}`;
      const answer = await call("/api/v1/categorize", {
        method: "POST",
        headers: { authorization: `Bearer ${t.tokens.read_write}`, "content-type": "application/json" },
        body: JSON.stringify({ side: "A", src_id: 1, category }),
      });
      if (answer.status === 429) refusal = answer;
      else {
        expect(answer.status, await answer.text()).toBe(200);
        acknowledged = category;
      }
    }
    expect(acknowledged).not.toBe("");
    await expectRateLimited(refusal!, "This credential");
    const line = await api(session(t), "/api/v1/transactions/A/1");
    expect(line.body.row.category).toBe(acknowledged);
  });
});

describe("the address limit", () => {
  it("refuses an address's calls past its limit, with or without a credential, pages too, and not other addresses'", async () => {
    const t = await createTenant();
    const address = freshAddress();
    const bearer = { authorization: `Bearer ${t.tokens.read_write}` };
    const seen = await inOneWindow(async () => {
      const spent = await spend(() => call("/api/v1/me", { headers: { "cf-connecting-ip": address } }), 3 * SMALL.address);
      const withToken = await call("/api/v1/me", { headers: { "cf-connecting-ip": address, ...bearer } });
      const page = await call("/signin", { headers: { "cf-connecting-ip": address } });
      const elsewhere = await call("/api/v1/me", { headers: { "cf-connecting-ip": freshAddress(), ...bearer } });
      return { spent, withToken, page: page.status, elsewhere: elsewhere.status };
    });
    expect(seen.spent.through).toBe(SMALL.address);
    await expectRateLimited(seen.spent.refusal!, "This client address");
    await expectRateLimited(seen.withToken, "This client address");
    expect(seen.page).toBe(429);
    expect(seen.elsewhere).toBe(200);
  });

  it("leaves out the sandbox and the carrier's webhook", async () => {
    const address = freshAddress();
    const seen = await inOneWindow(async () => {
      await spend(() => call("/api/v1/me", { headers: { "cf-connecting-ip": address } }), 3 * SMALL.address);
      const sandbox = await call("/sandbox/tenants/nobody-here/outbox", { headers: { "cf-connecting-ip": address } });
      const hook = await call("/hooks/sms", { method: "POST", headers: { "cf-connecting-ip": address, "content-type": "application/x-www-form-urlencoded" }, body: "Body=hi" });
      return { sandbox: sandbox.status, hook: hook.status };
    });
    expect(seen.sandbox).toBe(404);
    expect(seen.hook).toBe(403);
  });

  it("does not count by an address the deployment does not trust: CF-Connecting-IP is then the client's own word", async () => {
    const address = freshAddress();
    const statuses = new Set<number>();
    for (let i = 0; i < 3 * SMALL.address; i++) {
      statuses.add((await call("/api/v1/me", { headers: { "cf-connecting-ip": address } }, { TRUST_CF_CONNECTING_IP: "off" })).status);
    }
    expect([...statuses]).toEqual([401]);
    // The same calls where the deployment trusts the header are refused.
    const trusted = await inOneWindow(() => spend(() => call("/api/v1/me", { headers: { "cf-connecting-ip": address } }), 3 * SMALL.address));
    expect(trusted.refusal?.status).toBe(429);
  });
});

describe("lifting the limits", () => {
  it("is honoured where the sandbox is on (the benchmark and the soak)", async () => {
    const t = await createTenant();
    const seen = new Set<number>();
    for (let i = 0; i < 3 * SMALL.credential; i++) {
      seen.add((await call("/api/v1/transactions?per_page=0", { headers: { authorization: `Bearer ${t.tokens.read_only}` } }, { RATE_LIMITS: "off", SANDBOX: "on" })).status);
    }
    expect([...seen]).toEqual([400]);
  });

  it("is not honoured where the sandbox is off", async () => {
    const t = await createTenant();
    const spent = await inOneWindow(() =>
      spend(() => call("/api/v1/transactions?per_page=0", { headers: { authorization: `Bearer ${t.tokens.read_only}` } }, { RATE_LIMITS: "off", SANDBOX: "off" }), 3 * SMALL.credential),
    );
    expect(spent.through).toBe(SMALL.credential);
    expect(spent.refusal?.status).toBe(429);
  });
});

describe("the tool face", () => {
  /** An MCP client of the app with the small limits; `sent.count` is how many /mcp requests it has made. */
  async function connect(bearer: string, address: string) {
    const sent = { count: 0 };
    const client = new Client({ name: "ledger-tests", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
      fetch: async (input, init) => {
        sent.count++;
        const ctx = createExecutionContext();
        const answer = await worker.fetch(new Request(input, init) as Request<unknown, IncomingRequestCfProperties>, smallEnv(), ctx);
        await waitOnExecutionContext(ctx);
        return answer;
      },
      requestInit: { headers: { authorization: `Bearer ${bearer}`, "cf-connecting-ip": address } },
    });
    await client.connect(transport);
    return { client, sent };
  }

  it("answers a tool call past the credential's limit with a tool error naming the wait", async () => {
    const t = await createTenant();
    const { client } = await connect(t.tokens.read_only, freshAddress());
    try {
      const result: any = await inOneWindow(async () => {
        await spend(() => cheapCall(t.tokens.read_only), 3 * SMALL.credential);
        return client.callTool({ name: "get_me", arguments: {} });
      });
      expect(result.isError).toBe(true);
      const problem = JSON.parse(result.content[0].text);
      expect(problem).toMatchObject({ status: 429, code: "rate_limited" });
      expect(problem.detail).toContain(`try again in ${RATE_LIMITS.credential.periodSeconds} s`);
    } finally {
      await client.close();
    }
  });

  it("counts a tool call once against the address, as its /mcp request, and refuses /mcp itself past the address's limit", async () => {
    const t = await createTenant();
    const seen = await inOneWindow(async () => {
      const address = freshAddress();
      const { client, sent } = await connect(t.tokens.read_write, address);
      const opening = sent.count;
      const results = [];
      for (let i = 0; i < 3; i++) results.push((await client.callTool({ name: "get_me", arguments: {} })).isError ?? false);
      const requests = sent.count;
      await client.close();
      const spent = await spend(() => call("/api/v1/me", { headers: { "cf-connecting-ip": address } }), 3 * SMALL.address);
      const mcp = await call("/mcp", {
        method: "POST",
        headers: { "cf-connecting-ip": address, authorization: `Bearer ${t.tokens.read_only}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      return { results, opening, requests, spent, mcp };
    });
    expect(seen.results).toEqual([false, false, false]);
    expect(seen.requests - seen.opening).toBe(3);
    // Every /mcp request spent one of the address's calls, and the calls the tool face dispatched none more.
    expect(seen.spent.through).toBe(SMALL.address - seen.requests);
    await expectRateLimited(seen.mcp, "This client address");
  });
});
