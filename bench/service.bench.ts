/**
 * The service benchmark: the real service (wrangler dev, local, fresh state) with tenants of
 * 1,000, 10,000 and 100,000 seeded lines built through the sandbox bank and the real queue
 * path, measured over HTTP on 127.0.0.1, each read beside its floor (the same domain code
 * timed inside the tenant's object). Prints a table and writes bench/results/service.json.
 * Figures only; nothing is asserted (docs/performance.md explains them).
 *
 *   npm run bench:service           SIZES=1000,10000 npm run bench:service
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sleep, startLocalService } from "../scripts/local-service";
import { generateLines, prng } from "./generator";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SIZES = (process.env.SIZES ?? "1000,10000,100000").split(",").map(Number);
const PAGE_SIZE = 500; // the common aggregators' largest sync page
const CLIENTS = 8;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

let base = "";
let group = 0;

async function startService(): Promise<() => Promise<void>> {
  const service = await startLocalService({ log: join(tmpdir(), "ledger-bench-server.log"), vars: { SANDBOX_BANK_PAGE_SIZE: String(PAGE_SIZE) } });
  base = service.baseUrl;
  group = service.group;
  return service.stop;
}

/** Resident memory (MiB) of the workerd processes in the server's process group. */
function workerdRssMiB(): number {
  const out = execFileSync("ps", ["-o", "rss=,comm=", "-g", String(group)], { encoding: "utf8" });
  return out.split("\n").filter((l) => l.includes("workerd")).reduce((sum, l) => sum + Number(l.trim().split(/\s+/)[0]), 0) / 1024;
}

interface Tenant {
  tenant: string;
  token: string;
}

async function json(path: string, token: string, init: RequestInit = {}): Promise<any> {
  const answer = await fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers } });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function sandboxTenant(name: string): Promise<Tenant> {
  const answer = await fetch(`${base}/sandbox/tenants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tenant: name }) });
  if (answer.status !== 201) throw new Error(`sign-up: ${answer.status} ${await answer.text()}`);
  return { tenant: name, token: ((await answer.json()) as any).tokens.read_write };
}

/** Queues `count` seeded lines at the tenant's sandbox bank: ~1% pending, ~0.5% duplicates and ~0.5% removals. */
async function queueLines(t: Tenant, count: number, seed: number): Promise<void> {
  const random = prng(seed + 1);
  const lines = generateLines(count, seed);
  const txn = (l: (typeof lines)[number]) => ({
    transaction_id: `g${l.id}`,
    account_id: l.accountId,
    // Aggregator sign: positive = money out.
    amount: -l.amountCents / 100,
    date: l.postedOn,
    name: l.description,
    merchant_name: l.merchantName,
    pending: random() < 0.01,
  });
  const accounts = [
    { account_id: "acc_checking", name: "Business Checking", mask: "0042", type: "depository", subtype: "checking" },
    { account_id: "acc_card", name: "Business Visa", mask: "7711", type: "credit", subtype: "credit card" },
  ];
  // The sandbox takes at most 5,000 changes of a kind per call: room for the duplicates.
  for (let from = 0; from < lines.length; from += 4900) {
    const batch = lines.slice(from, from + 4900);
    const duplicates = batch.filter(() => random() < 0.005).map(txn);
    const removed = batch.filter(() => random() < 0.005).map((l) => ({ transaction_id: `g${l.id}` }));
    const body = { accounts: from === 0 ? accounts : [], added: [...batch.map(txn), ...duplicates], removed };
    const answer = await fetch(`${base}/sandbox/tenants/${t.tenant}/bank`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (answer.status !== 202) throw new Error(`the sandbox bank: ${answer.status} ${await answer.text()}`);
  }
}

/** 200 rules of the three kinds: exact descriptions, stems as patterns, and the two signs. */
function rules(count: number, seed: number) {
  const lines = generateLines(5000, seed);
  const out: Record<string, string>[] = [];
  const stems = [...new Set(lines.map((l) => l.merchant.split(" ").slice(0, 2).join(" ")))];
  for (const stem of stems) {
    if (out.length >= count / 2) break;
    const category = lines.find((l) => l.merchant.startsWith(stem))!.category;
    out.push({ rule_key: `stem-${out.length}`, match_kind: "description_regex", match_value: stem.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), category });
  }
  for (const line of lines) {
    if (out.length >= count - 2) break;
    if (out.some((r) => r.match_value === line.description)) continue;
    out.push({ rule_key: `exact-${out.length}`, match_kind: "description_exact", match_value: line.description, category: line.category });
  }
  out.push({ rule_key: "sign-in", match_kind: "amount_sign", match_value: "in", category: "Sales", priority: "1000" });
  out.push({ rule_key: "sign-out", match_kind: "amount_sign", match_value: "out", category: "Uncategorized spend", priority: "1000" });
  return out.map((r) => ({ ...r, priority: r.priority ? Number(r.priority) : 100 }));
}

async function createRules(t: Tenant, list: ReturnType<typeof rules>): Promise<void> {
  for (let i = 0; i < list.length; i += 100) await json("/api/v1/create-rules", t.token, { method: "POST", body: JSON.stringify({ rules: list.slice(i, i + 100) }) });
}

/**
 * Requests a sync and waits for its final run; answers the seconds from the request to
 * the books (to the run's own finishing time: the service runs on this machine's clock,
 * so how often we ask does not change the figure), and the seconds the watcher's run
 * itself took (the rest is the queue's wait). Asking is unhurried because every poll is
 * a request the service's one thread serves between pages.
 */
async function syncAndWait(t: Tenant): Promise<{ seconds: number; watcherSeconds: number }> {
  const started = Date.now();
  const request = await json("/api/v1/sync-now", t.token, { method: "POST" });
  for (;;) {
    // A read that reaches the object while it applies a page can go unanswered under wrangler dev: ask again.
    const answer = await fetch(`${base}/api/v1/sync-history`, { headers: { authorization: `Bearer ${t.token}` }, signal: AbortSignal.timeout(10_000) }).catch(() => null);
    const runs = answer?.ok ? ((await answer.json()) as any).runs : [];
    const run = runs.find((r: any) => r.request_id === request.request_id && r.final);
    if (run) {
      if (run.status !== "ok") throw new Error(`sync failed: ${run.error}`);
      return { seconds: (Date.parse(run.finished_at) - started) / 1000, watcherSeconds: (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000 };
    }
    await sleep(500);
  }
}

interface Latency {
  p50: number;
  p99: number;
  rps: number;
}

/** `total` requests from `clients` concurrent clients; latency in ms. */
async function load(makeRequest: (i: number) => Promise<Response>, total: number, clients = CLIENTS): Promise<Latency> {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        const answer = await makeRequest(i);
        await answer.arrayBuffer();
        if (!answer.ok) throw new Error(`HTTP ${answer.status} during load`);
        times.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), rps: total / seconds };
}

async function floor(t: Tenant, read: string, args: Record<string, unknown> = {}, iterations = 20): Promise<number> {
  const answer = await fetch(`${base}/sandbox/tenants/${t.tenant}/floor`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ read, args, iterations }) });
  if (!answer.ok) throw new Error(`floor ${read}: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as any).ms_per_call;
}

const rows: { size: number; measure: string; figure: string; floor?: string; ratio?: string; goal?: string }[] = [];
const results: Record<string, unknown> = { machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version }, sizes: {} };
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function benchSize(size: number): Promise<void> {
  const out: Record<string, unknown> = {};
  (results.sizes as Record<number, unknown>)[size] = out;
  const t = await sandboxTenant(`bench-${size}-${Date.now().toString(36)}`);
  const ruleList = rules(200, 7);
  await createRules(t, ruleList);
  await queueLines(t, size, 42);
  const { seconds, watcherSeconds } = await syncAndWait(t);
  const me = await json("/api/v1/me", t.token);
  out.sync = { seconds, watcher_seconds: watcherSeconds, lines: me.lines, lines_per_second: me.lines / seconds };
  rows.push({
    size,
    measure: "initial sync (queue to books, rules and model)",
    figure: `${Math.round(me.lines / seconds).toLocaleString("en-US")} lines/s; the watcher's run ${watcherSeconds.toFixed(1)} of ${seconds.toFixed(1)} s`,
    goal: ">= 10,000 lines/s",
  });

  const auth = { headers: { authorization: `Bearer ${t.token}` } };
  const get = (path: string) => () => fetch(`${base}${path}`, auth);
  const deepPage = Math.max(1, Math.floor(me.lines / 50 / 2));
  const reads: [string, string, string, Record<string, unknown>][] = [
    ["list_transactions first page", "/api/v1/transactions", "list_transactions", {}],
    [`list_transactions page ${deepPage}`, `/api/v1/transactions?page=${deepPage}`, "list_transactions", { page: deepPage }],
    ["list_transactions q=", "/api/v1/transactions?q=coffee", "list_transactions", { filter: { q: "coffee" } }],
    ["list_transactions cat=", "/api/v1/transactions?cat=Software", "list_transactions", { filter: { cat: "Software" } }],
    ["list_transactions from/to", "/api/v1/transactions?from=2026-01-01&to=2026-03-31", "list_transactions", { filter: { from: "2026-01-01", to: "2026-03-31" } }],
    ["list_transactions the queue", "/api/v1/transactions?cat=uncategorised", "list_transactions", { filter: { cat: "uncategorised" } }],
    ["get_me", "/api/v1/me", "get_me", {}],
    ["list_categories", "/api/v1/categories", "list_categories", {}],
    ["list_exceptions", "/api/v1/exceptions", "list_exceptions", {}],
    ["get_pnl_rolling", "/api/v1/reports/pnl-rolling?as_of=2026-11-20", "get_pnl_rolling", { asOf: "2026-11-20" }],
    ["get_usage", "/api/v1/usage", "get_usage", {}],
  ];
  out.reads = {};
  for (const [name, path, read, args] of reads) {
    await load(get(path), 10); // warm
    // One client: a call's own latency, comparable with the floor. Eight: the object's throughput.
    const alone = await load(get(path), size >= 100_000 ? 20 : 60, 1);
    const latency = await load(get(path), size >= 100_000 ? 120 : 240);
    const floorMs = await floor(t, read, args, size >= 100_000 ? 5 : 20);
    (out.reads as Record<string, unknown>)[name] = { one_client: alone, eight_clients: latency, floor_ms: floorMs };
    rows.push({
      size,
      measure: name,
      figure: `1 client p50 ${ms(alone.p50)}; 8 clients p50 ${ms(latency.p50)}, p99 ${ms(latency.p99)}, ${Math.round(latency.rps)} req/s`,
      floor: ms(floorMs),
      ratio: `${(alone.p50 / Math.max(floorMs, 0.01)).toFixed(1)}x`,
      goal: "p50 <= 15 ms, p99 <= 50 ms, <= 2x floor + 2 ms",
    });
  }

  // run_rules over every line uncategorised, with 200 live rules: a second tenant synced without rules.
  const bare = await sandboxTenant(`bench-rules-${size}-${Date.now().toString(36)}`);
  await queueLines(bare, size, 42);
  const bareSync = await syncAndWait(bare);
  out.sync_without_rules = { seconds: bareSync.seconds, lines_per_second: me.lines / bareSync.seconds };
  rows.push({ size, measure: "initial sync without rules (the same lines)", figure: `${Math.round(me.lines / bareSync.seconds).toLocaleString("en-US")} lines/s` });
  await createRules(bare, ruleList);
  const matchFloor = await floor(bare, "run_rules_match", {}, 1);
  const started = performance.now();
  const run = await json("/api/v1/run-rules", bare.token, { method: "POST" });
  const runMs = performance.now() - started;
  out.run_rules = { ms: runMs, decided: run.decided, floor_ms: matchFloor };
  rows.push({ size, measure: `run_rules, 200 rules (decided ${run.decided.toLocaleString("en-US")})`, figure: ms(runMs), floor: ms(matchFloor), ratio: `${(runMs / Math.max(matchFloor, 0.01)).toFixed(1)}x`, goal: "<= 1 s at 100,000" });

  // export_books and the four files.
  const idle = workerdRssMiB();
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, workerdRssMiB())), 50);
  const exportStarted = performance.now();
  const receipt = await json("/api/v1/export", t.token, { method: "POST", body: "{}" });
  let bytes = 0;
  for (const url of Object.values<string>(receipt.urls)) {
    const answer = await fetch(url, auth);
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  }
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  clearInterval(sampler);
  const exported = receipt.row_counts["transactions.csv"] * 3 + receipt.row_counts["accounts.csv"];
  out.export = { seconds: exportSeconds, rows: exported, bytes, rows_per_second: exported / exportSeconds, workerd_rss_idle_mib: idle, workerd_rss_peak_mib: peak };
  rows.push({
    size,
    measure: "export_books + the four files",
    figure: `${Math.round(exported / exportSeconds).toLocaleString("en-US")} rows/s, ${(bytes / 2 ** 20).toFixed(1)} MiB; workerd +${(peak - idle).toFixed(0)} MiB`,
    goal: ">= 100,000 lines/s, < 64 MB",
  });

  // A write mix at 8 clients: categorize and label on lines spread over the books.
  const ids = (await json(`/api/v1/transactions?per_page=100&page=${Math.max(1, deepPage)}`, t.token)).rows.filter((r: any) => r.side === "A").map((r: any) => r.src_id);
  const writes = await load(
    (i) =>
      fetch(`${base}${i % 2 ? "/api/v1/categorize" : `/api/v1/transactions/A/${ids[i % ids.length]}/label`}`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
        body: JSON.stringify(i % 2 ? { side: "A", src_id: ids[i % ids.length], category: "Meals" } : { category: "Software", reason: "bench" }),
      }),
    200,
  );
  out.writes = writes;
  rows.push({ size, measure: "write mix: categorize + label (8 clients)", figure: `${Math.round(writes.rps)} req/s, p50 ${ms(writes.p50)}, p99 ${ms(writes.p99)}` });
}

async function benchManyTenants(): Promise<void> {
  const tenants: Tenant[] = [];
  for (let i = 0; i < 20; i++) {
    const t = await sandboxTenant(`bench-many-${i}-${Date.now().toString(36)}`);
    await queueLines(t, 1000, 100 + i);
    tenants.push(t);
  }
  await Promise.all(tenants.map(syncAndWait));
  const request = (t: Tenant) => fetch(`${base}/api/v1/transactions?q=coffee`, { headers: { authorization: `Bearer ${t.token}` } });
  const one = await load(() => request(tenants[0]!), 400, 20);
  const all = await load((i) => request(tenants[i % tenants.length]!), 400, 20);
  results.tenants = { one, twenty: all };
  rows.push({ size: 1000, measure: "20 clients on 1 tenant vs on 20 tenants", figure: `${Math.round(one.rps)} vs ${Math.round(all.rps)} req/s (${(all.rps / one.rps).toFixed(2)}x)` });
}

const stop = await startService();
try {
  for (const size of SIZES) await benchSize(size);
  await benchManyTenants();
} finally {
  await stop();
}

const widths = [8, 44, 84, 10, 7];
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ");
console.log(line(["lines", "measure", "figure", "floor", "ratio"]));
console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
for (const r of rows) console.log(line([r.size.toLocaleString("en-US"), r.measure, r.figure, r.floor ?? "", r.ratio ?? ""]));
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/service.json"), JSON.stringify({ ...results, rows }, null, 2));
console.log("\nwritten to bench/results/service.json");
process.exit(0);
