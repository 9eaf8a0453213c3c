/**
 * The benchmark's tenants, made the way a customer's are: signed up through the sandbox,
 * fed seeded lines through the sandbox bank, given 200 rules, synced through the real
 * queue. Shared by `npm run bench:service` and `npm run profile`.
 */
import { sleep } from "../scripts/local-service";
import { type Arrival, CATEGORIES, generateLines, inArrivalOrder, prng } from "./generator";

/** Where the bench's sign rule puts money out that no other rule names. */
const UNCATEGORIZED_SPEND = "Uncategorized spend";

export interface Tenant {
  tenant: string;
  token: string;
  /** The sign-up's session cookie: grants are offered and confirmed only in a session. */
  session: string;
}

/** The two accounts the benchmarks' tenants bank with, as the sandbox bank takes them. */
export const SANDBOX_ACCOUNTS = [
  { account_id: "acc_checking", name: "Business Checking", mask: "0042", type: "depository", subtype: "checking" },
  { account_id: "acc_card", name: "Business Visa", mask: "7711", type: "credit", subtype: "credit card" },
];

/** A line as the sandbox bank takes it (the aggregator's sign: positive = money out). */
export function sandboxTxn(transactionId: string, line: { accountId: string; amountCents: number; postedOn: string; description: string; merchantName: string | null }) {
  return {
    transaction_id: transactionId,
    account_id: line.accountId,
    amount: -line.amountCents / 100,
    date: line.postedOn,
    name: line.description,
    merchant_name: line.merchantName,
  };
}

/** The calls the benchmarks make against one running service. */
export function benchClient(base: string) {
  /** A call answering JSON; `token` null for a call made in a session (its cookie in `init`). */
  async function json(path: string, token: string | null, init: RequestInit = {}): Promise<any> {
    const headers = new Headers(init.headers);
    headers.set("content-type", "application/json");
    if (token !== null) headers.set("authorization", `Bearer ${token}`);
    const answer = await fetch(`${base}${path}`, { ...init, headers });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${answer.status} ${text.slice(0, 300)}`);
    return JSON.parse(text);
  }

  /** Signs a paid tenant up through the sandbox; `visibleFrom` is its sign-up floor (none by default). */
  async function sandboxTenant(name: string, options: { visibleFrom?: string } = {}): Promise<Tenant> {
    const body = { tenant: name, visible_from: options.visibleFrom };
    const answer = await fetch(`${base}/sandbox/tenants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (answer.status !== 201) throw new Error(`sign-up: ${answer.status} ${await answer.text()}`);
    const signup = (await answer.json()) as any;
    return { tenant: name, token: signup.tokens.read_write, session: signup.session };
  }

  /**
   * An auditor grant's token, the way a customer gives one: offered in the session, its code
   * read from the sandbox carrier's outbox (the customer's phone), confirmed in the session.
   */
  async function auditorToken(t: Tenant): Promise<string> {
    const viewer = { viewer_name: "Bench Auditor", viewer_channel: "+15555550199" };
    const inSession = { cookie: `svc_session=${t.session}`, origin: base };
    const offer = await json("/api/v1/auditor/grants", null, { method: "POST", headers: inSession, body: JSON.stringify(viewer) });
    const outbox = (await (await fetch(`${base}/sandbox/tenants/${t.tenant}/outbox`)).json()) as any;
    const code = /\b(\d{6})\b/.exec(outbox.messages[0].body)![1];
    const confirmed = await json(`/api/v1/auditor/grants/${offer.request_id}/confirm`, null, { method: "POST", headers: inSession, body: JSON.stringify({ code, ...viewer }) });
    return confirmed.token;
  }

  /**
   * Queues `count` seeded lines at the tenant's sandbox bank, in the order a feed delivers
   * them (see `inArrivalOrder`): ~1% pending, ~0.5% duplicates and ~0.5% removals.
   */
  async function queueLines(t: Tenant, count: number, seed: number, arrival: Arrival = "posted"): Promise<void> {
    const random = prng(seed + 1);
    const lines = inArrivalOrder(generateLines(count, seed), arrival, seed);
    const txn = (l: (typeof lines)[number]) => ({ ...sandboxTxn(`g${l.id}`, l), pending: random() < 0.01 });
    // The sandbox takes at most 5,000 changes of a kind per call: room for the duplicates.
    for (let from = 0; from < lines.length; from += 4900) {
      const batch = lines.slice(from, from + 4900);
      const duplicates = batch.filter(() => random() < 0.005).map(txn);
      const removed = batch.filter(() => random() < 0.005).map((l) => ({ transaction_id: `g${l.id}` }));
      const body = { accounts: from === 0 ? SANDBOX_ACCOUNTS : [], added: [...batch.map(txn), ...duplicates], removed };
      const answer = await fetch(`${base}/sandbox/tenants/${t.tenant}/bank`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (answer.status !== 202) throw new Error(`the sandbox bank: ${answer.status} ${await answer.text()}`);
    }
  }

  /** Changes at the tenant's sandbox bank as an aggregator's sync answers them (a day's lines, a pending line posting). */
  async function bankChanges(t: Tenant, changes: { accounts?: unknown[]; added?: unknown[]; modified?: unknown[]; removed?: unknown[] }): Promise<void> {
    const body = { accounts: [], added: [], modified: [], removed: [], ...changes };
    const answer = await fetch(`${base}/sandbox/tenants/${t.tenant}/bank`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (answer.status !== 202) throw new Error(`the sandbox bank: ${answer.status} ${await answer.text()}`);
  }

  /** The categories the generator's lines and the bench rules name, each under its header, so the P&L has sections to fill. */
  async function createTaxonomy(t: Tenant): Promise<void> {
    const categories = [...CATEGORIES.map((c) => ({ name: c.category, header: c.header })), { name: UNCATEGORIZED_SPEND, header: "expense" }];
    await json("/api/v1/new-categories", t.token, { method: "POST", body: JSON.stringify({ categories }) });
  }

  async function createRules(t: Tenant, list: ReturnType<typeof benchRules>): Promise<void> {
    for (let i = 0; i < list.length; i += 100) await json("/api/v1/create-rules", t.token, { method: "POST", body: JSON.stringify({ rules: list.slice(i, i + 100) }) });
  }

  /**
   * Requests a sync (through `ask`, which answers sync-now's body, when the caller sends it
   * its own way) and waits for its final run; answers the seconds from the request to the
   * books (to the run's own finishing time: the service runs on this machine's clock, so how
   * often we ask does not change the figure), and the seconds the watcher's run itself took
   * (the rest is the queue's wait). Asking is unhurried because every poll is a request the
   * service's one thread serves between pages.
   */
  async function syncAndWait(t: Tenant, ask?: () => Promise<{ request_id: number }>): Promise<{ seconds: number; watcherSeconds: number }> {
    const started = Date.now();
    const request = await (ask ? ask() : json("/api/v1/sync-now", t.token, { method: "POST" }));
    for (;;) {
      const answer = await fetch(`${base}/api/v1/sync-history`, { headers: { authorization: `Bearer ${t.token}` } });
      const runs = ((await answer.json()) as any).runs;
      const run = runs.find((r: any) => r.request_id === request.request_id && r.final);
      if (run) {
        if (run.status !== "ok") throw new Error(`sync failed: ${run.error}`);
        return { seconds: (Date.parse(run.finished_at) - started) / 1000, watcherSeconds: (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000 };
      }
      await sleep(500);
    }
  }

  return { json, sandboxTenant, auditorToken, queueLines, bankChanges, createTaxonomy, createRules, syncAndWait };
}

export type BenchClient = ReturnType<typeof benchClient>;

/**
 * 200 rules of the three kinds: exact descriptions, patterns and the two signs. The
 * patterns are written as people write them: most a merchant's name (its punctuation
 * escaped), the rest real expressions around it (words apart, an optional processor
 * prefix, an optional store number, word edges, two merchants as alternatives, a city
 * and state at the end), and two that name no text.
 */
export function benchRules(count: number, seed: number) {
  const lines = generateLines(5000, seed);
  const out: Record<string, string>[] = [];
  const stems = [...new Set(lines.map((l) => l.merchant.split(" ").slice(0, 2).join(" ")))];
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const categoryOf = (stem: string) => lines.find((l) => l.merchant.startsWith(stem))!.category;
  const written = [
    (stem: string) => stem.split(" ").map(escape).join(".*"),
    (stem: string) => `^(SQ \\*|TST\\* |PAYPAL \\*|POS )?${escape(stem)}`,
    (stem: string) => `${escape(stem)}( #\\d+)?`,
    (stem: string) => `\\b${escape(stem)}\\b`,
    (stem: string, next: string | undefined) => (next ? `(${escape(stem)}|${escape(next)})` : escape(stem)),
    (stem: string) => `${escape(stem)}.* [A-Z]{2}$`,
  ];
  stems.forEach((stem, i) => {
    if (out.length >= count / 2 - 2) return;
    const category = categoryOf(stem);
    // Six in ten as expressions; the alternative is the next merchant of the same category.
    const next = stems.slice(i + 1).find((s) => categoryOf(s) === category);
    const match_value = i % 10 < 6 ? written[i % 10]!(stem, next) : escape(stem);
    out.push({ rule_key: `stem-${out.length}`, match_kind: "description_regex", match_value, category });
  });
  // Two that name no text, after the merchants (a lower priority): a check printed as its
  // number alone, a line printed with its date first. The generator prints neither, so
  // they decide nothing; they run on every line the rules before them leave.
  out.push({ rule_key: "check-numbers", match_kind: "description_regex", match_value: "^\\d{4,}$", category: "Owner draw", priority: "500" });
  out.push({ rule_key: "dated", match_kind: "description_regex", match_value: "^[0-9]{2}/[0-9]{2} [A-Z]", category: "Transfers", priority: "500" });
  for (const line of lines) {
    if (out.length >= count - 2) break;
    if (out.some((r) => r.match_value === line.description)) continue;
    out.push({ rule_key: `exact-${out.length}`, match_kind: "description_exact", match_value: line.description, category: line.category });
  }
  out.push({ rule_key: "sign-in", match_kind: "amount_sign", match_value: "in", category: "Sales", priority: "1000" });
  out.push({ rule_key: "sign-out", match_kind: "amount_sign", match_value: "out", category: UNCATEGORIZED_SPEND, priority: "1000" });
  return out.map((r) => ({ rule_key: r.rule_key!, match_kind: r.match_kind!, match_value: r.match_value!, category: r.category!, priority: r.priority ? Number(r.priority) : 100 }));
}

