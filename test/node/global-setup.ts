/**
 * Global setup for the Node-side suites (test/node/vitest.config.mts and
 * test/node/browser.config.mts): starts the real service the way `npm start` does
 * (`node scripts/start.mjs --port <free port> --inspector-port <free port>
 * --persist-to <fresh temp dir>`), waits until `GET /api/v1` answers, hands the base URL
 * to the tests (`inject("baseUrl")`), and on teardown ends the whole process group
 * (start.mjs, wrangler, esbuild, workerd) and removes the temp state.
 *
 * The server's stdout and stderr go to test-results/<project>-server.log (kept after the
 * run; git ignores it). If the server does not come up, the error carries the log's tail.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The running service, e.g. http://127.0.0.1:41234 (no trailing slash). */
    baseUrl: string;
    /** The port the service listens on (127.0.0.1). */
    port: number;
    /** Where the server's output is logged. */
    serverLog: string;
  }
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;

export default async function setup(project: TestProject) {
  const port = await freePort();
  // wrangler dev's inspector defaults to 9229 (or the next free port, probed at start):
  // two servers starting at once (node and browser suites, a teammate's `npm start`) can
  // both pick 9229 and one dies with "Address already in use (127.0.0.1:9229)".
  let inspectorPort = await freePort();
  while (inspectorPort === port) inspectorPort = await freePort();
  const state = mkdtempSync(join(tmpdir(), "ledger-node-test-"));
  const logDir = join(ROOT, "test-results");
  mkdirSync(logDir, { recursive: true });
  const serverLog = join(logDir, `${project.name || "node"}-server.log`);
  const logFd = openSync(serverLog, "w");

  const args = ["--port", String(port), "--inspector-port", String(inspectorPort), "--persist-to", state];
  const child = spawn(process.execPath, [join(ROOT, "scripts/start.mjs"), ...args], {
    cwd: ROOT,
    // Its own process group, so teardown can end wrangler and workerd with it.
    detached: true,
    stdio: ["ignore", logFd, logFd],
    env: {
      ...process.env,
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      WRANGLER_SEND_METRICS: "false",
      NO_COLOR: "1",
      FORCE_COLOR: "0",
    },
  });
  closeSync(logFd);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start scripts/start.mjs (see ${serverLog})`);

  let exited: string | undefined;
  child.on("exit", (code, signal) => {
    exited = signal ? `signal ${signal}` : `code ${code}`;
  });
  // If vitest exits without running teardown (Ctrl-C during setup), leave nothing behind.
  const killOnExit = () => {
    signalGroup(pid, "SIGKILL");
    rmSync(state, { recursive: true, force: true });
  };
  process.on("exit", killOnExit);

  let stopped = false;
  const teardown = async () => {
    if (stopped) return;
    stopped = true;
    signalGroup(pid, "SIGTERM");
    if (!(await groupGone(pid, STOP_TIMEOUT_MS))) {
      signalGroup(pid, "SIGKILL");
      await groupGone(pid, STOP_TIMEOUT_MS);
    }
    process.off("exit", killOnExit);
    rmSync(state, { recursive: true, force: true });
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(`${baseUrl}/api/v1`, () => exited);
  } catch (error) {
    await teardown();
    throw new Error(`${(error as Error).message}\n--- last lines of ${serverLog} ---\n${tail(serverLog, 60)}`);
  }

  project.provide("baseUrl", baseUrl);
  project.provide("port", port);
  project.provide("serverLog", serverLog);
  return teardown;
}

/** A port nobody listens on right now (the OS picks it). */
function freePort(): Promise<number> {
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

function tail(path: string, lines: number): string {
  try {
    return stripVTControlCharacters(readFileSync(path, "utf8")).trimEnd().split("\n").slice(-lines).join("\n");
  } catch (error) {
    return `(could not read the log: ${(error as Error).message})`;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
