/**
 * The soak: the real service (wrangler dev, local, fresh state) under a mixed read and
 * write load from several tenants on 127.0.0.1 for a bounded time, then a full invariant
 * check of every tenant's ledger (GET /sandbox/tenants/{tenant}/invariants) and of what
 * the clients were told: each line's category is its last acknowledged judgement, and the
 * books' summary adds up. Prints requests served, errors by status and the verdict; exits
 * 1 on any 5xx, unanswered request or broken invariant.
 *
 *   npm run soak                      SOAK_SECONDS=300 SOAK_TENANTS=8 npm run soak
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalService, UNLIMITED } from "../scripts/local-service";
import { generateLines, prng } from "./generator";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const TENANTS = Number(process.env.SOAK_TENANTS ?? 4);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 12);
const SEED = Number(process.env.SOAK_SEED ?? 20261122);
const CATEGORIES = ["Meals", "Rent", "Software", "Supplies", "uncategorized"];

const service = await startLocalService({ instrumented: true, log: join(tmpdir(), "ledger-soak-server.log"), vars: UNLIMITED });
const base = service.baseUrl;
const random = prng(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

interface Tenant {
  tenant: string;
  token: string;
  lineIds: number[];
  /** The last acknowledged judgement per line: its op_seq and category. */
  judged: Map<number, { opSeq: number; category: string }>;
  delivered: number;
  /** Sync requests the tenant was told about: each must end in a final run. */
  syncs: Set<number>;
}

const statuses = new Map<number, number>();
/** Refusals by status and problem code, so a rise in one kind shows. */
const refusals = new Map<string, number>();
let served = 0;
let unanswered = 0;

async function call(t: Tenant, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  try {
    const answer = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${t.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await answer.text();
    served++;
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const parsed = /json/.test(answer.headers.get("content-type") ?? "") && text ? JSON.parse(text) : text;
    if (answer.status >= 400) {
      const kind = `${answer.status} ${parsed?.code ?? "?"}`;
      refusals.set(kind, (refusals.get(kind) ?? 0) + 1);
    }
    return { status: answer.status, body: parsed };
  } catch {
    unanswered++;
    return { status: 0, body: null };
  }
}

async function sandbox(path: string, body?: unknown): Promise<any> {
  const answer = await fetch(`${base}/sandbox${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`sandbox ${path}: ${answer.status} ${await answer.text()}`);
  return answer.json();
}

/** Queues `count` generated lines at the tenant's sandbox bank. */
async function deliver(t: Tenant, count: number): Promise<void> {
  const lines = generateLines(count, SEED + t.delivered).map((l, i) => ({
    transaction_id: `${t.tenant}-${t.delivered + i}`,
    account_id: l.accountId,
    amount: -l.amountCents / 100,
    date: l.postedOn,
    name: l.description,
    pending: random() < 0.02,
  }));
  t.delivered += count;
  const accounts = [{ account_id: "acc_checking", name: "Business Checking" }, { account_id: "acc_card", name: "Business Visa" }];
  await sandbox(`/tenants/${t.tenant}/bank`, { accounts, added: lines });
}

async function refreshLines(t: Tenant): Promise<void> {
  const page = await call(t, "GET", `/api/v1/transactions?per_page=100&page=${1 + Math.floor(random() * 3)}`);
  if (page.status === 200) t.lineIds = page.body.rows.filter((r: any) => r.side === "A").map((r: any) => r.src_id);
}

const READS = [
  "/api/v1/me",
  "/api/v1/transactions",
  "/api/v1/transactions?page=3",
  "/api/v1/transactions?q=coffee",
  "/api/v1/transactions?cat=uncategorised",
  "/api/v1/transactions?cat=Software&from=2025-01-01",
  "/api/v1/categories",
  "/api/v1/exceptions",
  "/api/v1/rules",
  "/api/v1/accounts",
  "/api/v1/usage",
  "/api/v1/visibility",
  "/api/v1/sync-history",
  "/api/v1/reports/pnl-rolling?as_of=2026-11-20&form=totals",
  "/api/v1/reports/pnl-rolling?as_of=2026-11-20",
  "/api/v1/reports/pnl-rolling/transactions?as_of=2026-11-20&window=30d&section=net_income&page=2",
];

/** One client's next step on a tenant: reads two times in three, writes otherwise. */
async function step(t: Tenant): Promise<void> {
  if (random() < 0.66) {
    await call(t, "GET", pick(READS));
    return;
  }
  const line = t.lineIds.length ? pick(t.lineIds) : undefined;
  const category = pick(CATEGORIES);
  const roll = random();
  if (line !== undefined && roll < 0.45) {
    const label = roll < 0.2;
    const answer = label
      ? await call(t, "POST", `/api/v1/transactions/A/${line}/label`, { category, reason: "soak" })
      : await call(t, "POST", "/api/v1/categorize", { side: "A", src_id: line, category });
    if (answer.status === 200 && (t.judged.get(line)?.opSeq ?? 0) < answer.body.op_seq) t.judged.set(line, { opSeq: answer.body.op_seq, category });
  } else if (roll < 0.6) {
    await call(t, "POST", "/api/v1/create-rule", { rule_key: `soak-${Math.floor(random() * 10)}`, match_kind: "description_regex", match_value: pick(["COFFEE", "ADOBE", "SHELL", "RENT", "STRIPE"]), category: pick(CATEGORIES.slice(0, 4)) });
  } else if (roll < 0.7) {
    await call(t, "POST", "/api/v1/run-rules");
  } else if (roll < 0.8) {
    const exceptions = await call(t, "GET", "/api/v1/exceptions");
    const target = exceptions.status === 200 ? exceptions.body.exceptions[0] : undefined;
    if (target) {
      const answer = await call(t, "POST", "/api/v1/adjudicate", { a_id: target.a_id, rule_key: `adj-${target.a_id}`, match_kind: "description_exact", match_value: target.description, category });
      if (answer.status === 200 && (t.judged.get(target.a_id)?.opSeq ?? 0) < answer.body.op_seq) t.judged.set(target.a_id, { opSeq: answer.body.op_seq, category });
    }
  } else if (roll < 0.85) {
    await deliver(t, 50);
    await syncNow(t);
  } else {
    await refreshLines(t);
  }
}

/** What the clients were told, against what the books say now; and the ledger's own check. */
async function verify(t: Tenant): Promise<string[]> {
  const broken: string[] = (await sandbox(`/tenants/${t.tenant}/invariants`)).broken.map((b: string) => `${t.tenant}: ${b}`);
  for (const [line, last] of t.judged) {
    const row = await call(t, "GET", `/api/v1/transactions/A/${line}`);
    const expected = last.category === "uncategorized" ? "uncategorised" : last.category;
    if (row.body?.row?.category !== expected) broken.push(`${t.tenant}: A:${line} is "${row.body?.row?.category}", its last acknowledged judgement said "${expected}"`);
  }
  const me = (await call(t, "GET", "/api/v1/me")).body;
  const parts = me.booked + me.archived + me.pending + me.superseded + me.retracted;
  if (parts !== me.lines) broken.push(`${t.tenant}: get_me's states add to ${parts}, not its ${me.lines} lines`);
  const byCategory = me.by_category.reduce((sum: number, c: { total_cents: number }) => sum + c.total_cents, 0);
  if (byCategory !== me.total_cents) broken.push(`${t.tenant}: get_me's categories add to ${byCategory}, not its total ${me.total_cents}`);
  return broken;
}

async function syncNow(t: Tenant): Promise<void> {
  const answer = await call(t, "POST", "/api/v1/sync-now");
  if (answer.status === 202) t.syncs.add(answer.body.request_id);
}

/** Waits until every sync request the tenant was told about has its final run; answers those that never ended. */
async function waitForSyncs(t: Tenant): Promise<number[]> {
  for (let i = 0; i < 600; i++) {
    const history = await call(t, "GET", "/api/v1/sync-history");
    const ended = new Set<number>(history.status === 200 ? history.body.runs.filter((r: any) => r.final).map((r: any) => r.request_id) : []);
    const waiting = [...t.syncs].filter((id) => !ended.has(id));
    if (waiting.length === 0) return [];
    if (i === 599) return waiting;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return [];
}

let exitCode = 1;
try {
  const tenants: Tenant[] = [];
  for (let i = 0; i < TENANTS; i++) {
    const signup = await sandbox("/tenants", { tenant: `soak-${i}-${Date.now().toString(36)}` });
    const t: Tenant = { tenant: signup.tenant, token: signup.tokens.read_write, lineIds: [], judged: new Map(), delivered: 0, syncs: new Set() };
    await deliver(t, 300);
    await syncNow(t);
    tenants.push(t);
  }
  for (const t of tenants) {
    await waitForSyncs(t);
    await refreshLines(t);
  }
  served = 0;
  statuses.clear();
  refusals.clear();

  const started = Date.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      while (Date.now() < deadline) await step(tenants[client % tenants.length]!);
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const servedUnderLoad = served;
  const broken: string[] = [];
  for (const t of tenants) for (const id of await waitForSyncs(t)) broken.push(`${t.tenant}: sync request ${id} never ended`);
  broken.push(...(await Promise.all(tenants.map(verify))).flat());

  const fiveHundreds = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
  console.log(`soak: ${SECONDS} s, ${TENANTS} tenants, ${CLIENTS} clients, seed ${SEED}`);
  console.log(`requests served under load: ${servedUnderLoad} (${(servedUnderLoad / seconds).toFixed(0)}/s), then ${served - servedUnderLoad} to verify; unanswered: ${unanswered}`);
  console.log(`by status: ${[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`).join(", ")}`);
  console.log(`refusals: ${[...refusals].sort().map(([kind, n]) => `${kind}: ${n}`).join(", ") || "none"}`);
  console.log(`5xx: ${fiveHundreds}`);
  console.log(broken.length === 0 ? "invariants: hold for every tenant" : `invariants: ${broken.length} broken\n  ${broken.join("\n  ")}`);
  exitCode = fiveHundreds === 0 && unanswered === 0 && broken.length === 0 ? 0 : 1;
} finally {
  await service.stop();
}
process.exit(exitCode);
