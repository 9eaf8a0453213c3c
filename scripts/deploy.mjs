#!/usr/bin/env node
// `npm run deploy -- <staging|production> [--secrets-file <file>] [wrangler deploy flags]`:
// the environment's queues and D1 database made sure of (./provision.mjs), the secrets it
// lacks named (it deploys anyway: each feature missing its secret answers its own 503),
// the D1 migrations applied to the remote database, then `wrangler deploy`. Every step is
// wrangler's own; docs/deploy.md is the operator's guide.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { configOf, problemOf, provision, requireEnvironment, wrangler } from "./provision.mjs";

/**
 * The secrets a deployment with the sandbox off reads, and what it answers without each
 * (docs/deploy.md has the whole table; test/node/deploy-config.node.test.ts keeps the two
 * and src/env.ts in step). `needed`: a paying customer's path stops without it.
 */
export const SECRETS = {
  EMAIL_API_TOKEN: { needed: true, without: "sign-ups answer 503 email_unavailable (no owner could verify an email or reset a password)" },
  AGGREGATOR_CLIENT_ID: { needed: true, without: "no bank can be linked (503 aggregator_unavailable); the aggregator's webhooks are refused" },
  AGGREGATOR_SECRET: { needed: true, without: "no bank can be linked (503 aggregator_unavailable); the aggregator's webhooks are refused" },
  BANK_TOKEN_KEY: { needed: true, without: "no bank can be linked (503 bank_token_key_missing); linked banks' syncs fail naming the key" },
  GRANT_CODE_KEY: { needed: true, without: "auditor grants answer 503 grant_key_missing" },
  SMS_ACCOUNT_SID: { needed: false, without: "no texts: grant offers answer 503 sms_unavailable, notices stay in the thread, inbound texts cannot be checked" },
  SMS_AUTH_TOKEN: { needed: false, without: "no texts: grant offers answer 503 sms_unavailable, notices stay in the thread, inbound texts cannot be checked" },
  MODEL_API_KEY: { needed: false, without: "no tail calls: lines the rules and the local model leave wait for a person" },
  SPREADSHEET_OAUTH_CLIENT_SECRET: { needed: false, without: "no spreadsheet destination can be connected or pushed to" },
  SPREADSHEET_TOKEN_KEY: { needed: false, without: "no spreadsheet destination can be connected or pushed to" },
  SPREADSHEET_TOKEN_KEY_PREVIOUS: { needed: false, without: "nothing (set only while rotating SPREADSHEET_TOKEN_KEY)" },
};

/** The names a secrets file (JSON, or .env lines `NAME=value`) sets. */
export function secretNamesIn(text) {
  try {
    return Object.keys(JSON.parse(text));
  } catch {
    return text
      .split("\n")
      .map((line) => /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1])
      .filter(Boolean);
  }
}

/** One line per secret (and empty var a needed secret goes with) the deployment will lack. */
export function missingSettings(setSecrets, vars) {
  const lines = Object.entries(SECRETS)
    .filter(([name]) => !setSecrets.includes(name))
    .map(([name, { needed, without }]) => `${needed ? "NEEDED " : "optional"} ${name} is not set: ${without}`);
  if (vars.EMAIL_FROM === "") lines.push(`NEEDED  the var EMAIL_FROM is empty: sign-ups answer 503 email_unavailable`);
  return lines;
}

function flagValue(args, name) {
  const at = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (at === -1) return undefined;
  return args[at].includes("=") ? args[at].slice(name.length + 1) : args[at + 1];
}

async function deploy(env, passThrough) {
  const secretsFile = flagValue(passThrough, "--secrets-file");
  if (secretsFile !== undefined && !existsSync(secretsFile)) throw new Error(`no secrets file at ${secretsFile}`);
  const generated = await provision(env);
  const config = await configOf(env);

  const listed = wrangler(["secret", "list", "--format", "json", "--env", env]);
  let onTheWorker = [];
  if (listed.ok) onTheWorker = JSON.parse(listed.stdout).map((s) => s.name);
  // A Worker not deployed yet has no secrets to list; any other failure stops the deploy.
  else if (!/^Worker "[^"]+"( \(env: [^)]+\))? not found\./.test(problemOf(listed))) throw new Error(`the Worker's secrets could not be listed: ${problemOf(listed)}`);
  const inFile = secretsFile === undefined ? [] : secretNamesIn(readFileSync(secretsFile, "utf8"));
  const missing = missingSettings([...onTheWorker, ...inFile], config.vars);
  if (missing.length > 0) console.warn(`${env} will deploy without:\n  ${missing.join("\n  ")}\n(docs/deploy.md: "Secrets and vars")`);

  const interactive = { interactive: true };
  if (!wrangler(["d1", "migrations", "apply", "INDEX_DB", "--remote", "--env", env, "--config", generated], interactive).ok) throw new Error("the D1 migrations were not applied; nothing was deployed");
  if (!wrangler(["deploy", "--env", env, "--config", generated, ...passThrough], interactive).ok) {
    throw new Error(
      "wrangler deploy failed (its error is above). If it wanted a workers.dev subdomain and had no terminal to ask for one in, register it " +
        "(the dashboard's Workers & Pages) and deploy again: the next deploy also sets the cron and the queue consumers this one did not reach.",
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const env = requireEnvironment(process.argv[2]);
  deploy(env, process.argv.slice(3)).catch((error) => {
    console.error(`deploying ${env} failed: ${error.message}`);
    process.exit(1);
  });
}
