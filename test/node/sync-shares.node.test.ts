/**
 * A large sync shares the running service: while the queue's job applies a tenant's first
 * pull, reads on that tenant and on another are answered (their answers show the pull part
 * way in), the request sent next on the keep-alive connection that asked for the sync is
 * answered, and no request goes unanswered. Against the real service (wrangler dev), where
 * the bank, the queue and every tenant share one runtime: without the watcher's pacing
 * (src/watcher/pacing.ts) no request is even read until the job ends.
 * Not timed: the proof is what the answers say, not how fast they came.
 */
import http from "node:http";
import { expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const LINES = 20_000;
/** The sandbox takes at most 5,000 changes of a kind per call. */
const PER_CALL = 5_000;
/** Long enough for a job that ends anyway; a lost request never answers. */
const ANSWER_WITHIN_MS = 60_000;

interface Answer {
  status: number;
  body: any;
}

/** One request on `agent` (false: a connection of its own); a status of 0 means no answer came. */
function request(agent: http.Agent | false, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  return new Promise((resolve) => {
    const sent = http.request(`${baseUrl}${path}`, { method, agent, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text.startsWith("{") ? JSON.parse(text) : text }));
    });
    sent.setTimeout(ANSWER_WITHIN_MS, () => {
      sent.destroy();
      resolve({ status: 0, body: null });
    });
    sent.on("error", () => resolve({ status: 0, body: null }));
    sent.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function signUp(tenant: string): Promise<string> {
  const answer = await request(false, "POST", "/sandbox/tenants", {}, { tenant });
  expect(answer.status).toBe(201);
  return answer.body.tokens.read_write;
}

it("answers reads on the tenant and on another while a large first pull is applied", { timeout: 240_000 }, async () => {
  const suffix = Date.now().toString(36);
  const token = await signUp(`big-pull-${suffix}`);
  const otherToken = await signUp(`bystander-${suffix}`);
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

  for (let from = 0; from < LINES; from += PER_CALL) {
    const added = Array.from({ length: Math.min(PER_CALL, LINES - from) }, (_, i) => ({
      transaction_id: `pull-${from + i}`,
      account_id: "acc_checking",
      amount: ((from + i) % 200) + 0.25,
      date: `2025-${String(((from + i) % 12) + 1).padStart(2, "0")}-${String(((from + i) % 28) + 1).padStart(2, "0")}`,
      name: `MERCHANT ${(from + i) % 500} PURCHASE`,
    }));
    const accounts = from === 0 ? [{ account_id: "acc_checking", name: "Business Checking" }] : [];
    const queued = await request(false, "POST", `/sandbox/tenants/big-pull-${suffix}/bank`, {}, { accounts, added });
    expect(queued.status).toBe(202);
  }

  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const asked = await request(keepAlive, "POST", "/api/v1/sync-now", bearer(token));
    expect(asked.status).toBe(202);
    // The next request on the same connection, sent at once, while the job starts.
    const sameConnection = request(keepAlive, "GET", "/api/v1/me", bearer(token));

    // Rounds of: this tenant, the other tenant, this tenant again, each on a connection of its own.
    const rounds: { before: number; other: Answer; after: number }[] = [];
    const unanswered: string[] = [];
    const linesNow = async () => {
      const answer = await request(false, "GET", "/api/v1/me", bearer(token));
      if (answer.status !== 200) unanswered.push(`this tenant: ${answer.status}`);
      return answer.status === 200 ? (answer.body.lines as number) : -1;
    };
    for (;;) {
      const before = await linesNow();
      const other = await request(false, "GET", "/api/v1/me", bearer(otherToken));
      if (other.status !== 200) unanswered.push(`the other tenant: ${other.status}`);
      const after = await linesNow();
      rounds.push({ before, other, after });
      const history = await request(false, "GET", "/api/v1/sync-history", bearer(token));
      if (history.status === 200 && history.body.runs.some((run: any) => run.final)) break;
      if (unanswered.length > 0) break;
    }

    expect(unanswered).toEqual([]);
    expect((await sameConnection).status).toBe(200);
    const partWay = (n: number) => n > 0 && n < LINES;
    // Answers that show the pull part way in were answered while the job ran.
    expect(rounds.filter((r) => partWay(r.before)).length).toBeGreaterThan(1);
    // And the other tenant was answered between two such answers.
    expect(rounds.filter((r) => partWay(r.before) && partWay(r.after)).length).toBeGreaterThan(0);
    expect(await linesNow()).toBe(LINES);
  } finally {
    keepAlive.destroy();
  }
});
