#!/usr/bin/env node
// `npm start [-- wrangler dev flags]`: applies the local D1 migrations (to the same
// state directory wrangler dev will use), then serves the Worker in workerd with the
// sandbox on. No account and no network are needed.
import { spawnSync, spawn } from "node:child_process";

const passThrough = process.argv.slice(2);
const persistAt = passThrough.findIndex((a) => a === "--persist-to" || a.startsWith("--persist-to="));
const persist =
  persistAt === -1 ? [] : passThrough[persistAt].includes("=") ? [passThrough[persistAt]] : passThrough.slice(persistAt, persistAt + 2);

const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };
const wrangler = (args, options) => [process.execPath, [new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url).pathname, ...args], { env, ...options }];

const migrate = spawnSync(...wrangler(["d1", "migrations", "apply", "INDEX_DB", "--local", ...persist], { stdio: ["ignore", "inherit", "inherit"] }));
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

// Defaults only where the caller did not pass its own flag.
const given = (flag) => passThrough.some((a) => a === flag || a.startsWith(`${flag}=`));
const defaults = ["--test-scheduled", ...(given("--ip") ? [] : ["--ip", "127.0.0.1"]), ...(given("--port") ? [] : ["--port", "8787"])];
const dev = spawn(...wrangler(["dev", ...defaults, "--var", "SANDBOX:on", ...passThrough], { stdio: "inherit" }));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
