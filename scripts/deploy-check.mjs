#!/usr/bin/env node
// `npm run deploy:check` (CI): what `npm run deploy` would upload, built offline for each
// environment with `wrangler deploy --dry-run` (no account, no network), from wrangler.toml
// and from the copy `npm run provision` generates with a D1 id in it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ENVIRONMENTS, withDatabaseId } from "./provision.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const wranglerBin = fileURLToPath(new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url));
const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };

function dryRun(label, args) {
  const outdir = mkdtempSync(join(tmpdir(), "ledger-dry-run-"));
  try {
    const run = spawnSync(process.execPath, [wranglerBin, "deploy", "--dry-run", "--outdir", outdir, ...args], { cwd: root, env, encoding: "utf8" });
    if (run.status !== 0 || !existsSync(join(outdir, "worker.js"))) {
      process.stderr.write(run.stdout + run.stderr);
      throw new Error(`wrangler deploy --dry-run failed for ${label}`);
    }
    const bindings = run.stdout.split("\n").filter((l) => /^env\.(INDEX_DB|JOB_QUEUE|JOB_DEAD_LETTER_QUEUE|SANDBOX) /.test(l));
    console.log(`${label}: ok\n  ${bindings.map((l) => l.replace(/\s{2,}/g, "  ").trim()).join("\n  ")}`);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

let failed = false;
for (const name of ENVIRONMENTS) {
  const generated = join(root, `wrangler.${name}.check.generated.toml`);
  try {
    dryRun(`${name} (wrangler.toml)`, ["--env", name]);
    const config = readFileSync(join(root, "wrangler.toml"), "utf8");
    writeFileSync(generated, withDatabaseId(config, name, `ledger-index-${name}`, "a0b1c2d3-e4f5-4a6b-8c7d-0e1f2a3b4c5d"));
    dryRun(`${name} (as provisioned)`, ["--env", name, "--config", generated]);
  } catch (error) {
    console.error(error.message);
    failed = true;
  } finally {
    rmSync(generated, { force: true });
  }
}
process.exit(failed ? 1 : 0);
