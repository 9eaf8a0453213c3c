#!/usr/bin/env node
// `npm start [-- wrangler dev flags]`: applies the local D1 migrations (to the same
// state directory and config wrangler dev will use), then serves the Worker in workerd
// with the sandbox on and the client's address untrusted. No account and no network are needed.
import { spawn, spawnSync } from "node:child_process";

// A first argument that is not a flag is the Worker's entry in place of wrangler.toml's
// `main` (the instrumented Worker, bench/instrumented/worker.ts); it goes right after `dev`,
// since wrangler's `--var` would take it as one of its values.
const [entry, passThrough] = process.argv[2] && !process.argv[2].startsWith("-") ? [[process.argv[2]], process.argv.slice(3)] : [[], process.argv.slice(2)];

/** The flag and its value as the caller spelled it (`--x v` or `--x=v`), or nothing. */
function flagOf(...names) {
  const at = passThrough.findIndex((a) => names.some((n) => a === n || a.startsWith(`${n}=`)));
  if (at === -1) return [];
  return passThrough[at].includes("=") ? [passThrough[at]] : passThrough.slice(at, at + 2);
}
const given = (...names) => flagOf(...names).length > 0;

const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };
const wranglerBin = new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url).pathname;
const wrangler = (args, stdio) => [process.execPath, [wranglerBin, ...args], { env, stdio }];

// The migrations must land where wrangler dev will look: same state dir, config and environment.
const sameState = [...flagOf("--persist-to"), ...flagOf("--config", "-c"), ...flagOf("--env", "-e")];
const migrate = spawnSync(...wrangler(["d1", "migrations", "apply", "INDEX_DB", "--local", ...sameState], ["ignore", "inherit", "inherit"]));
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

// Defaults only where the caller did not pass its own flag.
const defaults = ["--test-scheduled", ...(given("--ip") ? [] : ["--ip", "127.0.0.1"]), ...(given("--port") ? [] : ["--port", "8787"])];
// Locally a client sets CF-Connecting-IP at will (wrangler dev passes its own through): the
// address is not trusted unless the caller's own `--var TRUST_CF_CONNECTING_IP:on`, later, says so.
const local = ["--var", "SANDBOX:on", "--var", "TRUST_CF_CONNECTING_IP:off"];
const dev = spawn(...wrangler(["dev", ...entry, ...defaults, ...local, ...passThrough], "inherit"));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
// A wrangler ended by a signal did not succeed: exit as a shell would (128 + signal number).
const SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGKILL: 9 };
dev.on("exit", (code, signal) => process.exit(code ?? 128 + (SIGNALS[signal] ?? 1)));
