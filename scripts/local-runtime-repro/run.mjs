#!/usr/bin/env node
// `npm run repro:local-runtime`: starts ./worker.js under wrangler dev and, for a job that
// keeps the runtime busy with in-process calls for 8 s, sends two pings 0.2 s after
// starting it: one on a new connection, one on the keep-alive connection that started
// the job. Then the same with the job yielding to a zero-length timer between its calls.
// Expected (wrangler 4.86.0, workerd 1.20260426.1): without the yield the first ping
// waits for the whole job and the second is never answered; with it, both in milliseconds.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const wrangler = fileURLToPath(new URL("../../node_modules/wrangler/bin/wrangler.js", import.meta.url));
const JOB_SECONDS = 8;
const GIVE_UP_MS = 30_000;

const port = await new Promise((resolve) => {
  const server = createServer().listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const state = mkdtempSync(join(tmpdir(), "local-runtime-repro-"));
const dev = spawn(process.execPath, [wrangler, "dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", state], {
  cwd: here,
  detached: true,
  stdio: "ignore",
  env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
});
const base = `http://127.0.0.1:${port}`;

function get(path, agent) {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.get(`${base}${path}`, { agent }, (response) => {
      response.resume();
      response.on("end", () => resolve(`HTTP ${response.statusCode} after ${Math.round(performance.now() - started)} ms`));
    });
    request.setTimeout(GIVE_UP_MS, () => {
      request.destroy();
      resolve(`no answer after ${GIVE_UP_MS / 1000} s`);
    });
    request.on("error", (error) => resolve(`${error.message} after ${Math.round(performance.now() - started)} ms`));
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  for (let tries = 0; !(await get("/ping", false)).startsWith("HTTP 200"); tries++) {
    if (tries > 120) throw new Error("wrangler dev did not start");
    await sleep(500);
  }
  for (const yieldBetweenCalls of [false, true]) {
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    await get(`/start?seconds=${JOB_SECONDS}&yield=${yieldBetweenCalls ? 1 : 0}`, keepAlive);
    await sleep(200);
    const [fresh, same] = await Promise.all([get("/ping", false), get("/ping", keepAlive)]);
    console.log(`a ${JOB_SECONDS} s job ${yieldBetweenCalls ? "that yields to a timer between calls" : "of back-to-back in-process calls"}:`);
    console.log(`  ping on a new connection:                 ${fresh}`);
    console.log(`  ping on the connection that started it:  ${same}`);
    keepAlive.destroy();
    await sleep(JOB_SECONDS * 1000);
  }
} finally {
  try {
    process.kill(-dev.pid, "SIGTERM");
  } catch {}
  await sleep(1000);
  rmSync(state, { recursive: true, force: true });
}
