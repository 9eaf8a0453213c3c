/**
 * `npm run eval:service`: the local model measured the way an outside evaluation measures
 * it, through the public API of the running service (`wrangler dev`, local, fresh state),
 * beside `npm run eval:model`'s harness on the same lines.
 *
 * Each case is one business (a seed of bench/bank-text/) banking in one style (section A of
 * eval:model): a tenant signed up through the sandbox, its chart of accounts made with
 * `create_categories`, its 3,000 training-period lines delivered at the sandbox bank and
 * synced, the first N labelled with `label_transaction`, then its 2,000 test-period lines
 * delivered and synced. What the model decided of them is read line by line from
 * `explain_transaction` (engine `model`, its confidence). The harness's figures come from
 * the same split through `trainModel` (bench/bank-text/harness-model.ts).
 *
 *   npm run eval:service
 *   SEEDS=1,2 STYLES=credit-union LABELS=200 npm run eval:service
 *
 * Figures only, never asserted. ECE is not reported: a line the model left below the band
 * shows no confidence through the API.
 */
import { join } from "node:path";
import { tmpdir } from "node:os";
import { startLocalService, UNLIMITED } from "../scripts/local-service";
import { benchClient, SANDBOX_ACCOUNTS, sandboxTxn, type Tenant } from "./bench-tenants";
import { type BankLine, inStyle, makeBook } from "./bank-text/book";
import { BANK_CATEGORIES } from "./bank-text/business";
import { trainModel } from "./bank-text/harness-model";
import { addTally, coverage, emptyTally, type Guess, precision, tally, type Tally } from "./bank-text/measure";
import { STYLE_NAMES, type StyleName } from "./bank-text/styles";
import { DEFAULT_DUH_BAND_FLOOR } from "../src/ledger/model/classifier";

const SEEDS = (process.env.SEEDS || "1,2,3").split(",").map(Number);
const STYLES = (process.env.STYLES || "authorized-on,credit-union,aggregator-named").split(",") as StyleName[];
const LABELS = (process.env.LABELS || "200,1000").split(",").map(Number);
for (const style of STYLES) if (!STYLE_NAMES.includes(style)) throw new Error(`STYLES: no style "${style}" (${STYLE_NAMES.join(", ")})`);
if ([...SEEDS, ...LABELS].some((n) => !Number.isInteger(n))) throw new Error("SEEDS and LABELS are comma-separated lists of integers");
/** How many calls run at once while labelling and reading the explanations. */
const CONCURRENCY = 4;
const FLOOR = DEFAULT_DUH_BAND_FLOOR;

const service = await startLocalService({ log: join(tmpdir(), "ledger-eval-service.log"), vars: UNLIMITED });
const client = benchClient(service.baseUrl);

/** Runs `work` over `items`, `CONCURRENCY` at a time, in order of start. */
async function eachAtOnce<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

/**
 * Delivers lines at the sandbox bank and syncs them; answers each line's id on side A,
 * checked against the books (each line's date and amount), never assumed.
 */
async function deliver(t: Tenant, lines: readonly BankLine[], linesBefore: number): Promise<Map<number, number>> {
  for (let from = 0; from < lines.length; from += 4_000) {
    const added = lines.slice(from, from + 4_000).map((line) => sandboxTxn(`t${line.id}`, line));
    await client.bankChanges(t, { accounts: linesBefore === 0 && from === 0 ? SANDBOX_ACCOUNTS : [], added });
  }
  await client.syncAndWait(t);
  const from = lines[0]!.postedOn;
  const to = lines[lines.length - 1]!.postedOn;
  const rows: any[] = [];
  for (let page = 1; ; page++) {
    const answer = await client.json(`/api/v1/transactions?from=${from}&to=${to}&per_page=100&page=${page}`, t.token);
    rows.push(...answer.rows);
    if (answer.rows.length < 100) break;
  }
  // The feed lands lines in the order the bank delivers them, so ids follow it; each is checked.
  const byId = new Map(rows.filter((r) => r.side === "A").map((r) => [r.src_id as number, r]));
  const ids = new Map<number, number>();
  for (const [i, line] of lines.entries()) {
    const id = linesBefore + i + 1;
    const row = byId.get(id);
    if (!row || row.posted_on !== line.postedOn || row.amount_cents !== line.amountCents) {
      throw new Error(`line ${line.id} (${line.postedOn} ${line.amountCents} "${line.description}") is not A:${id} (${JSON.stringify(row)})`);
    }
    ids.set(line.id, id);
  }
  return ids;
}

interface CaseResult {
  seed: number;
  style: StyleName;
  labels: number;
  service: Tally;
  harness: Tally;
  seconds: number;
}

async function runCase(seed: number, style: StyleName, labels: number): Promise<CaseResult> {
  const started = performance.now();
  const book = makeBook(seed);
  const split = inStyle(book, style, labels);
  const t = await client.sandboxTenant(`eval-${seed}-${style}-${labels}-${Date.now().toString(36)}`);
  const taxonomy = await client.json("/api/v1/taxonomy", t.token);
  const have = new Set(taxonomy.categories.map((e: any) => e.name));
  const missing = BANK_CATEGORIES.filter((c) => !have.has(c.name));
  if (missing.length > 0) await client.json("/api/v1/new-categories", t.token, { method: "POST", body: JSON.stringify({ categories: missing }) });

  const trainingIds = await deliver(t, split.past, 0);
  await eachAtOnce(split.labels, (line) =>
    client.json(`/api/v1/transactions/A/${trainingIds.get(line.id)}/label`, t.token, { method: "POST", body: JSON.stringify({ category: line.category }) }),
  );
  const testIds = await deliver(t, split.test, split.past.length);
  const guesses = await eachAtOnce(split.test, async (line): Promise<Guess | null> => {
    const why = await client.json(`/api/v1/transactions/A/${testIds.get(line.id)}/why`, t.token);
    if (why.engine !== "model") return null;
    const model = why.citations.find((c: any) => c.kind === "model");
    return { category: why.category, confidence: model.confidence };
  });
  const service = tally(split.labels, split.test, guesses, FLOOR);
  const harness = tally(split.labels, split.test, split.test.map(trainModel(split.labels, [...split.past, ...split.test], null, new Map(), FLOOR)), FLOOR);
  return { seed, style, labels, service, harness, seconds: (performance.now() - started) / 1000 };
}

const pct = (x: number) => (Number.isNaN(x) ? "-" : `${(100 * x).toFixed(1)}%`);
const cells = (t: Tally) => [precision(t.all), coverage(t.all), coverage(t.explainable)].map((x) => pct(x).padStart(7)).join(" ");
const HEAD = `${"prec".padStart(7)} ${"cover".padStart(7)} ${"explain".padStart(7)}`;

console.log(`the local model through the running service's API, beside eval:model's harness: seeds ${SEEDS.join(",")}, styles ${STYLES.join(", ")}, labels ${LABELS.join(", ")}`);
console.log(`(A: labels and test lines printed by one bank; 3,000 training-period lines, the first N labelled, then 2,000 test lines; duh band floor ${FLOOR})`);
console.log(`columns as eval:model's: precision in the band, share of all test lines in it, share of the lines the labels could explain in it\n`);
console.log(`${"seed".padEnd(5)} ${"style".padEnd(20)} ${"labels".padStart(6)} | service ${HEAD} | harness ${HEAD}`);
const results: CaseResult[] = [];
try {
  for (const seed of SEEDS) {
    for (const style of STYLES) {
      for (const labels of LABELS) {
        const r = await runCase(seed, style, labels);
        results.push(r);
        console.log(`${String(seed).padEnd(5)} ${style.padEnd(20)} ${String(labels).padStart(6)} |         ${cells(r.service)} |         ${cells(r.harness)}   (${r.seconds.toFixed(0)} s)`);
      }
    }
  }
  for (const labels of LABELS) {
    const sum = (pick: (r: CaseResult) => Tally) => results.filter((r) => r.labels === labels).reduce((into, r) => addTally(into, pick(r)), emptyTally());
    console.log(`${"all".padEnd(5)} ${"".padEnd(20)} ${String(labels).padStart(6)} |         ${cells(sum((r) => r.service))} |         ${cells(sum((r) => r.harness))}`);
  }
} finally {
  await service.stop();
}
