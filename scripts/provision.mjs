#!/usr/bin/env node
// `npm run provision -- <staging|production>`: makes sure the environment's resources exist
// on the Cloudflare account wrangler is logged in to, creating what is missing with wrangler
// itself: the job queue and its dead-letter queue (wrangler deploy does not create queues)
// and the D1 database (created here rather than by deploy, so that its migrations can be
// applied before the Worker that reads it goes live). Nothing is written to wrangler.toml:
// the database's id goes into a generated copy, wrangler.<env>.generated.toml (git-ignored),
// which `npm run deploy` hands to wrangler. Safe to run again: what exists is left alone.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const ENVIRONMENTS = ["staging", "production"];
const root = fileURLToPath(new URL("..", import.meta.url));
const wranglerBin = fileURLToPath(new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url));

/**
 * Runs wrangler in the repository. Its output is captured and returned (`problemOf` words
 * a failure), or, with `interactive`, it talks to the operator's terminal itself (its
 * confirmations, the workers.dev subdomain a fresh account registers on its first deploy).
 */
export function wrangler(args, { interactive = false } = {}) {
  const stdio = interactive ? "inherit" : ["ignore", "pipe", "pipe"];
  const run = spawnSync(process.execPath, [wranglerBin, ...args], { cwd: root, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, stdio });
  return { ok: run.status === 0, stdout: run.stdout ?? "", stderr: run.stderr ?? "" };
}

/**
 * What went wrong in a wrangler run, in one line: its first error as wrangler words it
 * (for a refusal of the API: the request and the API's own message and code).
 */
export function problemOf(run) {
  const text = `${run.stderr}\n${run.stdout}`.replace(/\x1b\[[0-9;]*m/g, "");
  const [, first] = text.split(/^✘ \[ERROR\] /m);
  const lines = first === undefined ? text.trim().split("\n").slice(-3) : first.split(/\n(?=\S)/)[0].split("\n");
  return lines
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("If you think this is a bug"))
    .join(" ");
}

export function requireEnvironment(name) {
  if (!ENVIRONMENTS.includes(name)) {
    console.error(`Name the environment: ${ENVIRONMENTS.join(" or ")} (wrangler.toml's [env.<name>]).`);
    process.exit(2);
  }
  return name;
}

/** The environment's configuration as wrangler reads it. */
export async function configOf(env) {
  const { unstable_readConfig } = await import("wrangler");
  return unstable_readConfig({ config: `${root}/wrangler.toml`, env });
}

/** Every queue the environment names: producers, consumers and dead-letter queues. */
export function queuesOf(config) {
  const names = [...config.queues.producers.map((p) => p.queue), ...config.queues.consumers.flatMap((c) => [c.queue, c.dead_letter_queue])];
  return [...new Set(names.filter(Boolean))];
}

/**
 * wrangler.toml with `database_id` set on the environment's D1 database (found by its
 * `database_name` inside `[[env.<env>.d1_databases]]`). Throws when the block is not there.
 */
export function withDatabaseId(toml, env, databaseName, databaseId) {
  const block = new RegExp(`(\\[\\[env\\.${env}\\.d1_databases\\]\\][^\\[]*?database_name = "${databaseName}"\\n)`);
  if (!block.test(toml)) throw new Error(`wrangler.toml has no [[env.${env}.d1_databases]] named ${databaseName}`);
  return toml.replace(block, `$1database_id = "${databaseId}"\n`);
}

export const generatedConfigPath = (env) => `${root}/wrangler.${env}.generated.toml`;

export async function provision(env) {
  const config = await configOf(env);
  for (const queue of queuesOf(config)) {
    // Only a queue the account does not have is created: any other failure to look one up
    // (a refusal, an outage) stops here, before anything is written to the account.
    const info = wrangler(["queues", "info", queue, "--env", env]);
    if (info.ok) {
      console.log(`queue ${queue}: exists`);
      continue;
    }
    if (!problemOf(info).startsWith(`Queue "${queue}" does not exist`)) throw new Error(`queue ${queue} could not be looked up: ${problemOf(info)}`);
    const created = wrangler(["queues", "create", queue, "--env", env]);
    if (!created.ok) throw new Error(`queue ${queue} could not be created: ${problemOf(created)}`);
    console.log(`queue ${queue}: created`);
  }

  const [database] = config.d1_databases;
  const listed = () => {
    const run = wrangler(["d1", "list", "--json", "--env", env]);
    if (!run.ok) throw new Error(`the account's D1 databases could not be listed: ${problemOf(run)}`);
    let databases;
    try {
      databases = JSON.parse(run.stdout);
    } catch {
      throw new Error(`wrangler d1 list --json answered something other than JSON: ${run.stdout.slice(0, 200)}`);
    }
    return databases.find((d) => d.name === database.database_name);
  };
  let found = listed();
  if (found) console.log(`D1 database ${database.database_name}: exists (${found.uuid})`);
  else {
    const created = wrangler(["d1", "create", database.database_name, "--env", env]);
    if (!created.ok) throw new Error(`D1 database ${database.database_name} could not be created: ${problemOf(created)}`);
    found = listed();
    if (!found) throw new Error(`D1 database ${database.database_name} was created but is not listed`);
    console.log(`D1 database ${database.database_name}: created (${found.uuid})`);
  }

  const path = generatedConfigPath(env);
  writeFileSync(path, withDatabaseId(readFileSync(`${root}/wrangler.toml`, "utf8"), env, database.database_name, found.uuid));
  console.log(`wrote ${path}`);
  return path;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const env = requireEnvironment(process.argv[2]);
  provision(env).catch((error) => {
    console.error(`provisioning ${env} failed: ${error.message}`);
    process.exit(1);
  });
}
