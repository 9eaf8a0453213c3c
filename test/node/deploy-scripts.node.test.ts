/**
 * `npm run provision` and `npm run deploy` run as an operator runs them, in a checkout of
 * the repository, against a fake of the Cloudflare API on 127.0.0.1 (wrangler reads its
 * address from CLOUDFLARE_API_BASE_URL; the token and the account id come from the
 * environment, so it never asks to log in). Nothing leaves 127.0.0.1: the fake is also
 * the processes' proxy and npm registry, and counts anything meant for elsewhere.
 * Each wrangler run costs seconds here, so the tests share one account and follow an
 * operator's order: provision, deploy, deploy again.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_ID, FakeCloudflare, type Script } from "../fixtures/fake-cloudflare";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** What a deploy reads of the repository: the config, the scripts, the Worker's code and the files it bundles, the migrations. */
const CHECKOUT = ["package.json", "tsconfig.json", "wrangler.toml", "scripts", "src", "docs", "migrations"];
const RUN_TIMEOUT = 240_000;
const INDEX_MIGRATIONS = readdirSync(join(ROOT, "migrations/index")).filter((f) => f.endsWith(".sql")).sort();

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

let home: string;
let checkout: string;

/** A copy of the repository's deployable part, its node_modules the repository's own. */
function makeCheckout(): string {
  const dir = join(home, "checkout");
  for (const entry of CHECKOUT) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** `npm run <script> -- <args>` in the checkout, with the fake as the account and nothing of the caller's Cloudflare settings. */
function npmScript(fake: FakeCloudflare, script: "provision" | "deploy", args: string[]): Promise<Run> {
  const command = JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")).scripts[script] as string;
  const [node, file] = command.split(" ");
  expect(node).toBe("node");
  const env = { PATH: process.env.PATH!, HOME: home, XDG_CONFIG_HOME: join(home, "config"), TMPDIR: join(home, "tmp"), ...fake.environment };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file!, ...args], { cwd: checkout, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");
const writes = (fake: FakeCloudflare, from = 0) => fake.calls.slice(from).filter((c) => c.method !== "GET" && !/\/d1\/database\/[^/]+\/query$/.test(c.path));
const binding = (script: Script, name: string) => script.metadata.bindings.find((b) => b.name === name);
/** The secrets a deploy says the Worker will lack. */
const lacking = (run: Run) => [...plain(run.stderr).matchAll(/^\s+(?:NEEDED|optional) +([A-Z_]+) is not set/gm)].map(([, name]) => name);

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "ledger-deploy-"));
  mkdirSync(join(home, "tmp"));
  checkout = makeCheckout();
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe("provisioning and deploying staging on an empty account", () => {
  const fake = new FakeCloudflare();
  beforeAll(() => fake.listen());
  afterAll(async () => {
    // Whatever the tests did, nothing was asked that the fake does not serve, and nothing left 127.0.0.1.
    expect(fake.unrouted).toEqual([]);
    expect(fake.elsewhere).toEqual([]);
    await fake.close();
  });

  it(
    "provision creates the job queue, its dead-letter queue and the D1 database, and writes the database's id only into the generated configuration; run again, it creates nothing",
    async () => {
      const toml = readFileSync(join(checkout, "wrangler.toml"), "utf8");
      const first = await npmScript(fake, "provision", ["staging"]);
      expect(first.status, first.stderr).toBe(0);
      expect([...fake.queues.keys()].sort()).toEqual(["ledger-jobs-dead-staging", "ledger-jobs-staging"]);
      const database = fake.databaseNamed("ledger-index-staging")!;
      expect([...fake.databases.values()].map((d) => d.name)).toEqual(["ledger-index-staging"]);
      expect(first.stdout).toContain("queue ledger-jobs-staging: created");
      expect(first.stdout).toContain(`D1 database ledger-index-staging: created (${database.uuid})`);

      expect(readFileSync(join(checkout, "wrangler.toml"), "utf8")).toBe(toml);
      const generated = readFileSync(join(checkout, "wrangler.staging.generated.toml"), "utf8");
      expect(generated.replace(`database_id = "${database.uuid}"\n`, "")).toBe(toml);
      expect(generated).toMatch(new RegExp(`\\[\\[env\\.staging\\.d1_databases\\]\\][^\\[]*database_name = "ledger-index-staging"\\ndatabase_id = "${database.uuid}"\\n`));

      const before = fake.calls.length;
      const again = await npmScript(fake, "provision", ["staging"]);
      expect(again.status, again.stderr).toBe(0);
      expect(writes(fake, before)).toEqual([]);
      expect(again.stdout).toContain("queue ledger-jobs-dead-staging: exists");
      expect(again.stdout).toContain(`D1 database ledger-index-staging: exists (${database.uuid})`);
      expect(readFileSync(join(checkout, "wrangler.staging.generated.toml"), "utf8")).toBe(generated);
    },
    RUN_TIMEOUT,
  );

  it(
    "deploy applies the index's migrations, uploads the Worker with staging's bindings and the secrets of the file, sets its cron and queue consumers, and names each secret it lacks",
    async () => {
      const secrets = join(home, "staging.secrets");
      writeFileSync(secrets, "EMAIL_API_TOKEN=mail-token-1\nGRANT_CODE_KEY=Z3JhbnQta2V5\n");
      const run = await npmScript(fake, "deploy", ["staging", "--secrets-file", secrets]);
      expect(run.status, run.stderr).toBe(0);

      const database = fake.databaseNamed("ledger-index-staging")!;
      expect(database.migrations).toEqual(INDEX_MIGRATIONS);
      for (const name of INDEX_MIGRATIONS) {
        const sent = database.statements.find((s) => s.includes(`values ('${name}')`));
        expect(sent, name).toContain(readFileSync(join(ROOT, "migrations/index", name), "utf8").trim());
      }

      expect([...fake.scripts.keys()]).toEqual(["ledger-service-staging"]);
      const worker = fake.scripts.get("ledger-service-staging")!;
      expect(worker.tags).toContain("cf:environment=staging");
      expect(worker.metadata.main_module).toBe("worker.js");
      expect(binding(worker, "INDEX_DB")).toEqual({ name: "INDEX_DB", type: "d1", id: database.uuid });
      expect(binding(worker, "JOB_QUEUE")).toEqual({ name: "JOB_QUEUE", type: "queue", queue_name: "ledger-jobs-staging" });
      expect(binding(worker, "TENANT_LEDGER")).toMatchObject({ type: "durable_object_namespace", class_name: "TenantLedger" });
      expect(binding(worker, "ATTEMPT_LIMITER")).toMatchObject({ type: "durable_object_namespace", class_name: "AttemptLimiter" });
      expect(binding(worker, "RATE_LIMIT_CREDENTIAL")).toMatchObject({ type: "ratelimit", namespace_id: "2001" });
      expect(binding(worker, "SANDBOX")).toMatchObject({ type: "plain_text", text: "off" });
      expect(binding(worker, "JOB_DEAD_LETTER_QUEUE")).toMatchObject({ type: "plain_text", text: "ledger-jobs-dead-staging" });
      expect(binding(worker, "AGGREGATOR_BASE_URL")).toMatchObject({ type: "plain_text", text: "https://sandbox.plaid.com" });
      expect(Object.fromEntries(worker.secrets)).toEqual({ EMAIL_API_TOKEN: "mail-token-1", GRANT_CODE_KEY: "Z3JhbnQta2V5" });
      // The Durable Objects' classes are created on SQLite, as wrangler.toml's migrations say.
      expect(worker.metadata.migrations).toEqual({ new_tag: "v2", steps: [{ new_sqlite_classes: ["TenantLedger"] }, { new_sqlite_classes: ["AttemptLimiter"] }] });

      expect(worker.schedules).toEqual(["0 11 * * *"]);
      expect(fake.queue("ledger-jobs-staging").consumers).toEqual([
        expect.objectContaining({ script: "ledger-service-staging", dead_letter_queue: "ledger-jobs-dead-staging", settings: expect.objectContaining({ max_retries: 3 }) }),
      ]);
      expect(fake.queue("ledger-jobs-dead-staging").consumers).toEqual([expect.objectContaining({ script: "ledger-service-staging", settings: expect.objectContaining({ max_retries: 5 }) })]);
      expect(worker.subdomainEnabled).toBe(true);

      expect(lacking(run)).toEqual([
        "AGGREGATOR_CLIENT_ID",
        "AGGREGATOR_SECRET",
        "BANK_TOKEN_KEY",
        "SMS_ACCOUNT_SID",
        "SMS_AUTH_TOKEN",
        "MODEL_API_KEY",
        "SPREADSHEET_OAUTH_CLIENT_SECRET",
        "SPREADSHEET_TOKEN_KEY",
        "SPREADSHEET_TOKEN_KEY_PREVIOUS",
      ]);
      expect(plain(run.stderr)).toContain("NEEDED  the var EMAIL_FROM is empty");
    },
    RUN_TIMEOUT,
  );

  it(
    "deploy again creates nothing, applies no migration again, keeps the Worker's secrets and names only those it still lacks",
    async () => {
      const before = fake.calls.length;
      const database = fake.databaseNamed("ledger-index-staging")!;
      const statements = database.statements.length;
      const run = await npmScript(fake, "deploy", ["staging"]);
      expect(run.status, run.stderr).toBe(0);

      expect(writes(fake, before).filter((c) => c.method === "POST" && /\/(queues|d1\/database)$/.test(c.path))).toEqual([]);
      expect(database.migrations).toEqual(INDEX_MIGRATIONS);
      // Only wrangler's look at its own bookkeeping: the migrations table made sure of, and read.
      expect(database.statements.slice(statements).map((s) => s.trim().split(/\s+/).slice(0, 3).join(" "))).toEqual(["CREATE TABLE IF", "SELECT * FROM"]);

      const worker = fake.scripts.get("ledger-service-staging")!;
      expect(worker.uploads).toBe(2);
      expect(worker.metadata.migrations).toBeUndefined();
      expect([...worker.secrets.keys()].sort()).toEqual(["EMAIL_API_TOKEN", "GRANT_CODE_KEY"]);
      expect(fake.queue("ledger-jobs-staging").consumers).toHaveLength(1);
      expect(fake.queue("ledger-jobs-dead-staging").consumers).toHaveLength(1);
      expect(lacking(run)).not.toContain("EMAIL_API_TOKEN");
      expect(lacking(run)).not.toContain("GRANT_CODE_KEY");
      expect(lacking(run)).toContain("BANK_TOKEN_KEY");
    },
    RUN_TIMEOUT,
  );
});

describe("an account whose API refuses", () => {
  const fake = new FakeCloudflare();
  beforeAll(() => fake.listen());
  afterAll(() => fake.close());

  it(
    "stops provisioning with the API's message and a non-zero exit, having created nothing and written no configuration",
    async () => {
      fake.refuse = { status: 403, code: 10000, message: "Authentication error" };
      const run = await npmScript(fake, "provision", ["production"]);
      expect(run.status).toBe(1);
      expect(plain(run.stderr)).toContain(
        `provisioning production failed: queue ledger-jobs-production could not be looked up: A request to the Cloudflare API (/accounts/${ACCOUNT_ID}/queues) failed. Authentication error [code: 10000]`,
      );
      expect(writes(fake)).toEqual([]);
      expect(existsSync(join(checkout, "wrangler.production.generated.toml"))).toBe(false);
      expect(fake.elsewhere).toEqual([]);
    },
    RUN_TIMEOUT,
  );

  it(
    "stops a deploy whose Worker's secrets cannot be listed, before any migration or upload",
    async () => {
      fake.refuse = { status: 403, code: 10000, message: "Authentication error", path: /\/workers\/scripts\/[^/]+\/secrets$/ };
      const run = await npmScript(fake, "deploy", ["production"]);
      expect(run.status).toBe(1);
      expect(plain(run.stderr)).toContain(
        `deploying production failed: the Worker's secrets could not be listed: A request to the Cloudflare API (/accounts/${ACCOUNT_ID}/workers/scripts/ledger-service-production/secrets) failed. Authentication error [code: 10000]`,
      );
      expect(fake.databaseNamed("ledger-index-production")!.statements).toEqual([]);
      expect(fake.scripts.size).toBe(0);
      expect(fake.elsewhere).toEqual([]);
    },
    RUN_TIMEOUT,
  );
});
