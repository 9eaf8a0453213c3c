/**
 * The export benchmark: a 100,000-line book exported by the real service (wrangler dev,
 * workerd, the tenant's SQLite ledger), each file downloaded as a stream. Prints the time
 * and size of each file and workerd's resident memory before and during the downloads, to
 * show the files stream rather than being held whole. Figures only; nothing is asserted.
 *
 *   npm run bench:export            (LINES=20000 npm run bench:export for a quicker run)
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const LINES = Number(process.env.LINES ?? 100_000);
const BATCH = 5_000;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory (MiB) of the workerd processes in the server's process group. */
function workerdRssMiB(group: number): number {
  const out = execFileSync("ps", ["-o", "rss=,comm=", "-g", String(group)], { encoding: "utf8" });
  return (
    out
      .split("\n")
      .filter((l) => l.includes("workerd"))
      .reduce((sum, l) => sum + Number(l.trim().split(/\s+/)[0]), 0) / 1024
  );
}

async function main() {
  const port = await freePort();
  const state = mkdtempSync(join(tmpdir(), "ledger-export-bench-"));
  // The server's output, for when a phase stalls.
  const serverLog = openSync(join(tmpdir(), "ledger-export-bench-server.log"), "w");
  const server = spawn(
    process.execPath,
    [join(ROOT, "scripts/start.mjs"), "--port", String(port), "--inspector-port", String(await freePort()), "--persist-to", state, "--var", `SANDBOX_BANK_PAGE_SIZE:${BATCH}`],
    { cwd: ROOT, detached: true, stdio: ["ignore", serverLog, serverLog], env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" } },
  );
  const group = server.pid!;
  const stop = () => {
    try {
      process.kill(-group, "SIGKILL");
    } catch {}
    rmSync(state, { recursive: true, force: true });
  };
  process.on("exit", stop);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/v1`)).ok) break;
    } catch {}
    if (i > 400) throw new Error("the service did not start");
    await sleep(250);
  }

  const tenant = `bench-${Date.now().toString(36)}`;
  const created = (await (await fetch(`${base}/sandbox/tenants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tenant }) })).json()) as any;
  const token = created.tokens.read_write as string;
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };

  let started = performance.now();
  for (let from = 0; from < LINES; from += BATCH) {
    const added = Array.from({ length: Math.min(BATCH, LINES - from) }, (_, k) => {
      const i = from + k;
      return {
        transaction_id: `b${i}`,
        account_id: i % 4 === 0 ? "acc_card" : "acc_checking",
        amount: ((i % 13) - 6) * 17.31 + (i % 100) / 100,
        date: `20${24 + (i % 3)}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
        name: `MERCHANT ${i % 997}, STORE #${i}`,
      };
    });
    const accounts = from === 0 ? [{ account_id: "acc_checking", name: "Checking" }, { account_id: "acc_card", name: "Card", type: "credit" }] : [];
    const answer = await fetch(`${base}/sandbox/tenants/${tenant}/bank`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ accounts, added }) });
    if (answer.status !== 202) throw new Error(`the sandbox bank refused a batch: ${answer.status} ${await answer.text()}`);
  }
  const request = (await (await fetch(`${base}/api/v1/sync-now`, { method: "POST", headers: auth })).json()) as any;
  for (;;) {
    // A read that reaches the tenant's object while it applies a large page can go unanswered
    // under wrangler dev; give up on it and ask again.
    const listed = await fetch(`${base}/api/v1/sync-history`, { headers: auth, signal: AbortSignal.timeout(5_000) }).catch(() => null);
    if (!listed) continue;
    const runs = ((await listed.json()) as any).runs;
    const run = runs.find((r: any) => r.request_id === request.request_id && r.final);
    if (run) {
      if (run.status !== "ok") throw new Error(`the sync failed: ${run.error}`);
      break;
    }
    await sleep(500);
  }
  const seeded = (performance.now() - started) / 1000;
  const me = (await (await fetch(`${base}/api/v1/me`, { headers: auth })).json()) as any;

  started = performance.now();
  const receipt = (await (await fetch(`${base}/api/v1/export`, { method: "POST", headers: auth, body: "{}" })).json()) as any;
  const opened = performance.now() - started;

  const idle = workerdRssMiB(group);
  console.log(`export benchmark: ${me.booked.toLocaleString("en-US")} booked lines (seeded and synced in ${seeded.toFixed(1)} s)`);
  console.log(`  export_books (marks and counts): ${opened.toFixed(0)} ms; workerd resident before downloading: ${idle.toFixed(0)} MiB`);
  for (const [file, url] of Object.entries<string>(receipt.urls)) {
    let peak = workerdRssMiB(group);
    const sampler = setInterval(() => (peak = Math.max(peak, workerdRssMiB(group))), 50);
    started = performance.now();
    const answer = await fetch(url, { headers: auth });
    let bytes = 0;
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    console.log(
      `  ${file.padEnd(20)} ${(bytes / 2 ** 20).toFixed(1).padStart(6)} MiB in ${seconds.toFixed(2)} s ` +
        `(${(receipt.row_counts[file] / seconds / 1000).toFixed(0)}k rows/s); workerd peak ${peak.toFixed(0)} MiB`,
    );
  }
  stop();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
