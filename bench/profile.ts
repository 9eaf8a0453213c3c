/**
 * `npm run profile`: the V8 CPU profile of the running service (wrangler dev, local, fresh
 * state) while it does one heavy thing, read through wrangler dev's inspector. Prints the
 * functions that took the most time, by their own time and with what they called, and
 * writes the whole profile to bench/results/ (open it in Chrome DevTools' Performance tab).
 *
 *   npm run profile                          a 100,000-line initial sync with 200 rules
 *   PROFILE=run_rules LINES=100000 npm run profile
 *   PROFILE=pnl npm run profile              twenty get_pnl_rolling calls (form=full) on a synced tenant
 *   PROFILE=export npm run profile           export_books and its four files on a synced tenant
 *   ARRIVAL=shuffled ...                     lines delivered at random dates (see bench/generator.ts)
 *
 * Locally the Worker, the tenant's object and D1 share one thread, so "(idle)" in the
 * answer is time spent outside the service's isolate (D1, the sandbox bank's reads).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { startLocalService, UNLIMITED } from "../scripts/local-service";
import { benchClient, benchRules } from "./bench-tenants";
import { arrivalFrom } from "./generator";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WHAT = process.env.PROFILE ?? "sync";
const LINES = Number(process.env.LINES ?? 100_000);
const TOP = Number(process.env.TOP ?? 25);
const ARRIVAL = arrivalFrom(process.env.ARRIVAL);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A DevTools protocol session on the Worker's isolate. */
async function inspect(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  const waiting = new Map<number, (result: any) => void>();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data));
    waiting.get(message.id)?.(message.result);
    waiting.delete(message.id);
  });
  let next = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<any>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { call, close: () => socket.close() };
}

/** Milliseconds per function: its own samples, and every sample with it on the stack. */
function summarise(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode) => `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber + 1}`;
  const own = new Map<string, number>();
  const within = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const ms = profile.timeDeltas[i]! / 1000;
    const node = byId.get(id)!;
    own.set(name(node), (own.get(name(node)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const label = name(byId.get(at)!);
      if (seen.has(label)) continue;
      seen.add(label);
      within.set(label, (within.get(label) ?? 0) + ms);
    }
  });
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  return { own: top(own), within: top(within) };
}

const service = await startLocalService({ instrumented: true, log: join(tmpdir(), "ledger-profile-server.log"), vars: { SANDBOX_BANK_PAGE_SIZE: "500", ...UNLIMITED } });
try {
  const client = benchClient(service.baseUrl);
  const t = await client.sandboxTenant(`profile-${Date.now().toString(36)}`);
  await client.createTaxonomy(t);
  const synced = WHAT === "pnl" || WHAT === "export";
  if (WHAT === "sync" || synced) await client.createRules(t, benchRules(200, 7));
  await client.queueLines(t, LINES, 42, ARRIVAL);
  if (synced) await client.syncAndWait(t);
  if (WHAT === "run_rules") {
    await client.syncAndWait(t);
    await client.createRules(t, benchRules(200, 7));
  }
  const inspector = await inspect(service.inspectorPort);
  await inspector.call("Profiler.enable");
  await inspector.call("Profiler.setSamplingInterval", { interval: 200 });
  await inspector.call("Profiler.start");
  const started = performance.now();
  if (WHAT === "sync") await client.syncAndWait(t);
  else if (WHAT === "run_rules") await client.json("/api/v1/run-rules", t.token, { method: "POST" });
  else if (WHAT === "pnl") for (let i = 0; i < 20; i++) await client.json("/api/v1/reports/pnl-rolling?as_of=2026-11-20&form=full", t.token);
  else if (WHAT === "export") {
    const receipt = await client.json("/api/v1/export", t.token, { method: "POST", body: "{}" });
    for (const url of Object.values<string>(receipt.urls)) await (await fetch(url, { headers: { authorization: `Bearer ${t.token}` } })).arrayBuffer();
  } else throw new Error(`PROFILE is sync, run_rules, pnl or export, not ${WHAT}`);
  const seconds = (performance.now() - started) / 1000;
  const { profile } = (await inspector.call("Profiler.stop")) as { profile: CpuProfile };
  inspector.close();

  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  const file = join(ROOT, `bench/results/${WHAT}-${LINES}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  const { own, within } = summarise(profile);
  const row = ([label, ms]: [string, number]) => `${ms.toFixed(0).padStart(8)} ms  ${label}`;
  console.log(`${WHAT} of ${LINES.toLocaleString("en-US")} lines: ${seconds.toFixed(1)} s, profiled`);
  console.log(`\nby own time (exec = SQLite; (idle) = outside the isolate):\n${own.map(row).join("\n")}`);
  console.log(`\nwith what they called:\n${within.map(row).join("\n")}`);
  console.log(`\nthe whole profile: ${file}`);
} finally {
  await service.stop();
}
