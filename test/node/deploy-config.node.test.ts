/**
 * wrangler.toml as an operator deploys it (docs/deploy.md), read by wrangler's own config
 * reader: no resource id or placeholder in it (wrangler finds the D1 database by name, and
 * `npm run provision` writes its id only into a generated copy); staging and production
 * each restate every binding and var of the top level (an environment inherits none) with
 * resources of their own; the dead-letter queue is wired the same way everywhere; and every
 * setting of src/env.ts is documented. (`npm run deploy:check`, in CI, builds each
 * environment with `wrangler deploy --dry-run`.)
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { JOB_MAX_DELIVERIES } from "../../src/jobs/job";
import { missingSettings, SECRETS, secretNamesIn } from "../../scripts/deploy.mjs";
import { queuesOf, withDatabaseId } from "../../scripts/provision.mjs";

const TOML = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
const DEPLOY_DOC = readFileSync(new URL("../../docs/deploy.md", import.meta.url), "utf8");
const ENV_TS = readFileSync(new URL("../../src/env.ts", import.meta.url), "utf8");
const DEPLOYED = ["staging", "production"] as const;
/** What these checks read of wrangler's resolved configuration. */
interface Config {
  name: string;
  vars: Record<string, string>;
  durable_objects: { bindings: unknown[] };
  migrations: unknown[];
  rules: unknown[];
  ratelimits: { name: string; namespace_id: string; simple: unknown }[];
  d1_databases: { binding: string; database_name?: string; database_id?: string; migrations_dir?: string }[];
  queues: { producers: { binding: string; queue: string }[]; consumers: { queue: string; max_retries?: number; dead_letter_queue?: string }[] };
  triggers: { crons: string[] };
}
const configOf = (env?: string): Config => unstable_readConfig({ config: "wrangler.toml", env }, { hideWarnings: true } as never) as unknown as Config;

/** The lines of a wrangler config that carry a resource id, or a value that stands in for one. */
function placeholdersIn(toml: string): string[] {
  return toml
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .filter(
      (line) =>
        /^\s*(database_id|preview_database_id|id|preview_id|bucket_id)\s*=/.test(line) ||
        /"0{8}-0{4}-0{4}-0{4}-0{12}"/.test(line) ||
        /=\s*"[^"]*(<[^>]*>|REPLACE|PLACEHOLDER|your[-_ ]|xxxx|TODO|CHANGEME)[^"]*"/i.test(line),
    );
}

describe("wrangler.toml", () => {
  it("carries no resource id and no placeholder", () => {
    expect(placeholdersIn(TOML)).toEqual([]);
    // What the check catches: the line main carried before, and its like.
    expect(placeholdersIn(`database_id = "00000000-0000-0000-0000-000000000000"`)).toHaveLength(1);
    expect(placeholdersIn(`database_id = "5f1c2a9e-41d3-4b8e-9a70-6c0d2e8b1f34"`)).toHaveLength(1);
    expect(placeholdersIn(`[[kv_namespaces]]\nbinding = "X"\nid = "<your namespace id>"`)).toHaveLength(1);
    expect(placeholdersIn(`EMAIL_FROM = "REPLACE_ME"`)).toHaveLength(1);
    for (const env of [undefined, ...DEPLOYED]) expect(configOf(env).d1_databases.map((d) => d.database_id)).toEqual([undefined]);
  });

  for (const env of DEPLOYED) {
    it(`[env.${env}] restates every binding and var of the top level, the sandbox off`, () => {
      const top = configOf();
      const deployed = configOf(env);
      expect(deployed.name).toBe(`ledger-service-${env}`);
      expect(Object.keys(deployed.vars).sort()).toEqual(Object.keys(top.vars).sort());
      expect(deployed.vars).toMatchObject({ SANDBOX: "off", TRUST_CF_CONNECTING_IP: "on", RATE_LIMITS: "on" });
      expect(deployed.durable_objects.bindings).toEqual(top.durable_objects.bindings);
      expect(deployed.migrations).toEqual(top.migrations);
      expect(deployed.ratelimits.map(({ name, simple }) => ({ name, simple }))).toEqual(top.ratelimits.map(({ name, simple }) => ({ name, simple })));
      expect(deployed.d1_databases.map(({ binding, migrations_dir }) => ({ binding, migrations_dir }))).toEqual(top.d1_databases.map(({ binding, migrations_dir }) => ({ binding, migrations_dir })));
      expect(deployed.queues.producers.map((p) => p.binding)).toEqual(["JOB_QUEUE"]);
      expect(deployed.triggers.crons).toEqual(top.triggers.crons);
      expect(deployed.rules).toEqual(top.rules);
    });
  }

  for (const env of [undefined, ...DEPLOYED]) {
    it(`${env ? `[env.${env}]` : "the top level"}: the job queue's consumer gives up after JOB_MAX_DELIVERIES into the dead-letter queue the Worker knows by name, which has a consumer`, () => {
      const config = configOf(env);
      const jobQueue = config.queues.producers.find((p) => p.binding === "JOB_QUEUE")!.queue;
      const consumer = config.queues.consumers.find((c) => c.queue === jobQueue)!;
      expect(consumer.max_retries! + 1).toBe(JOB_MAX_DELIVERIES);
      expect(consumer.dead_letter_queue).toBe(config.vars.JOB_DEAD_LETTER_QUEUE);
      const deadLetters = config.queues.consumers.find((c) => c.queue === consumer.dead_letter_queue);
      expect(deadLetters).toBeDefined();
      expect(deadLetters!.dead_letter_queue).toBeUndefined();
      expect(queuesOf(config).sort()).toEqual([jobQueue, consumer.dead_letter_queue].sort());
    });
  }

  it("gives each environment resources of its own: Worker, D1 database, queues, rate limit namespaces", () => {
    const configs = [undefined, ...DEPLOYED].map((env) => configOf(env));
    const all = (pick: (c: Config) => (string | undefined)[]) => configs.flatMap(pick);
    const distinct = (values: (string | undefined)[]) => expect(new Set(values).size).toBe(values.length);
    distinct(all((c) => [c.name]));
    distinct(all((c) => c.d1_databases.map((d) => d.database_name)));
    distinct(all((c) => queuesOf(c)));
    distinct(all((c) => c.ratelimits.map((r) => r.namespace_id)));
  });
});

describe("the generated configuration", () => {
  it("is wrangler.toml with the D1 id on the named environment's database only", () => {
    const id = "5f1c2a9e-41d3-4b8e-9a70-6c0d2e8b1f34";
    const generated = withDatabaseId(TOML, "staging", "ledger-index-staging", id);
    expect(generated.split("\n").filter((l: string) => l.startsWith("database_id"))).toEqual([`database_id = "${id}"`]);
    expect(generated.replace(`database_id = "${id}"\n`, "")).toBe(TOML);
    expect(() => withDatabaseId(TOML, "staging", "ledger-index-production", id)).toThrow(/no \[\[env\.staging\.d1_databases\]\] named ledger-index-production/);
  });
});

describe("docs/deploy.md and the deploy script", () => {
  const settings = [...ENV_TS.matchAll(/^\s+([A-Z][A-Z0-9_]+)(\??):/gm)].map(([, name, optional]) => ({ name: name!, optional: optional === "?" }));
  const bindings = new Set(["TENANT_LEDGER", "INDEX_DB", "ATTEMPT_LIMITER", "RATE_LIMIT_CREDENTIAL", "RATE_LIMIT_ADDRESS", "JOB_QUEUE"]);
  const vars = Object.keys(configOf().vars);

  it("name every binding, var and secret the Worker reads", () => {
    expect(settings.length).toBeGreaterThan(30);
    const undocumented = settings.filter(({ name }) => !DEPLOY_DOC.includes(`\`${name}\``)).map((s) => s.name);
    expect(undocumented).toEqual([]);
  });

  it("know the secrets as src/env.ts does: its optional settings that are neither binding nor var", () => {
    const secrets = settings.filter((s) => s.optional && !bindings.has(s.name) && !vars.includes(s.name)).map((s) => s.name);
    expect(Object.keys(SECRETS).sort()).toEqual(secrets.sort());
    // Every var of src/env.ts is in wrangler.toml, so no setting is left to chance.
    expect(settings.filter((s) => !s.optional && !bindings.has(s.name)).map((s) => s.name).sort()).toEqual(vars.sort());
  });

  it("name what a deployment lacks, from the secrets set on the Worker or in the secrets file", () => {
    const all = Object.keys(SECRETS);
    expect(missingSettings(all, { EMAIL_FROM: "Ledger <no-reply@example.com>" })).toEqual([]);
    const lacking = missingSettings(all.filter((n) => n !== "BANK_TOKEN_KEY" && n !== "MODEL_API_KEY"), { EMAIL_FROM: "" });
    expect(lacking).toEqual([
      expect.stringMatching(/^NEEDED  ?BANK_TOKEN_KEY is not set: no bank can be linked \(503 bank_token_key_missing\)/),
      expect.stringMatching(/^optional MODEL_API_KEY is not set/),
      expect.stringMatching(/EMAIL_FROM is empty: sign-ups answer 503 email_unavailable/),
    ]);
    expect(secretNamesIn(`{"BANK_TOKEN_KEY":"k:x","GRANT_CODE_KEY":"y"}`)).toEqual(["BANK_TOKEN_KEY", "GRANT_CODE_KEY"]);
    expect(secretNamesIn(`# staging\nBANK_TOKEN_KEY=k-1:abc=\nexport GRANT_CODE_KEY="y"\n`)).toEqual(["BANK_TOKEN_KEY", "GRANT_CODE_KEY"]);
  });
});
