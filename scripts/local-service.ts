/**
 * The real service on this machine, started the way `npm start` does (scripts/start.mjs:
 * local D1 migrations, then `wrangler dev` in workerd) on a free port with fresh state,
 * for the Node-side tests, the benchmark and the soak. It runs in its own process group,
 * so stopping it ends start.mjs, wrangler, esbuild and workerd together.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;

export interface LocalService {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  baseUrl: string;
  port: number;
  /** The process group's id (the start script's pid). */
  group: number;
  /** wrangler dev's inspector (DevTools protocol): `npm run profile` attaches its CPU profiler here. */
  inspectorPort: number;
  /** Where the server's stdout and stderr go. */
  log: string;
  stop(): Promise<void>;
}

/**
 * The benchmark, the profile and the soak send far more calls from one token and one
 * address than the general rate limits allow: they measure the service, so they lift the
 * limits (honoured only with the sandbox on, as it is here).
 */
export const UNLIMITED = { RATE_LIMITS: "off" } as const;

export interface StartOptions {
  /** The file the server's output is written to. */
  log: string;
  /** `--var NAME:value` overrides for the Worker. */
  vars?: Record<string, string>;
  /**
   * Serve the instrumented Worker (bench/instrumented/worker.ts): the same service, whose
   * objects also answer a read's in-object cost and the ledger's invariants.
   */
  instrumented?: boolean;
}

export async function startLocalService(options: StartOptions): Promise<LocalService> {
  const port = await freePort();
  // wrangler dev's inspector defaults to 9229 (or the next free port, probed at start):
  // two servers starting at once can both pick 9229 and one dies with "Address already in use".
  let inspectorPort = await freePort();
  while (inspectorPort === port) inspectorPort = await freePort();
  const state = mkdtempSync(join(tmpdir(), "ledger-local-"));
  const logFd = openSync(options.log, "w");
  const vars = Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const entry = options.instrumented ? [join(ROOT, "bench/instrumented/worker.ts")] : [];
  // The entry first: scripts/start.mjs takes a first argument that is no flag as the entry.
  const args = [...entry, "--port", String(port), "--inspector-port", String(inspectorPort), "--persist-to", state, ...vars];
  const child = spawn(process.execPath, [join(ROOT, "scripts/start.mjs"), ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", logFd, logFd],
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  closeSync(logFd);
  const group = child.pid;
  if (group === undefined) throw new Error(`could not start scripts/start.mjs (see ${options.log})`);

  let exited: string | undefined;
  child.on("exit", (code, signal) => {
    exited = signal ? `signal ${signal}` : `code ${code}`;
  });
  // If the caller exits without stopping it (Ctrl-C during a run), leave nothing behind.
  const killOnExit = () => {
    signalGroup(group, "SIGKILL");
    rmSync(state, { recursive: true, force: true });
  };
  process.on("exit", killOnExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    signalGroup(group, "SIGTERM");
    if (!(await groupGone(group, STOP_TIMEOUT_MS))) {
      signalGroup(group, "SIGKILL");
      await groupGone(group, STOP_TIMEOUT_MS);
    }
    process.off("exit", killOnExit);
    rmSync(state, { recursive: true, force: true });
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(`${baseUrl}/api/v1`, () => exited);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- last lines of ${options.log} ---\n${logTail(options.log, 60)}`);
  }
  return { baseUrl, port, group, inspectorPort, log: options.log, stop };
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

async function waitUntilServing(url: string, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    const why = exited();
    if (why) throw new Error(`the service exited (${why}) before ${url} answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = String((error as Error).cause ?? error);
    }
    await sleep(250);
  }
  throw new Error(`the service did not answer ${url} within ${START_TIMEOUT_MS / 1000} s (last: ${last})`);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is gone already.
  }
}

/** True once no process of the group is left (polls kill(-pid, 0)). */
async function groupGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(-pid, 0);
    } catch {
      return true;
    }
    await sleep(100);
  }
  return false;
}

/** The last lines of a log, colours stripped. */
export function logTail(path: string, lines: number): string {
  try {
    return stripVTControlCharacters(readFileSync(path, "utf8")).trimEnd().split("\n").slice(-lines).join("\n");
  } catch (error) {
    return `(could not read the log: ${(error as Error).message})`;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
