import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// The whole suite runs inside workerd with the real Durable Objects, D1 and queue.
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations/index");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            SANDBOX: "on",
            // Small pages so every sync in the suite exercises `has_more` paging.
            SANDBOX_BANK_PAGE_SIZE: "3",
            TEST_MIGRATIONS: migrations,
            // The property tests' seed: fixed, so a failure reproduces; set it to explore others.
            PROPERTY_SEED: process.env.PROPERTY_SEED ?? "20261122",
            // Nothing listens here: a push the real queue consumer makes fails fast as unreachable.
            SPREADSHEET_API_BASE_URL: "http://127.0.0.1:9",
            // The aggregator the real queue consumer syncs linked banks from: the tests route
            // https://aggregator.test to the fake aggregator (test/fixtures/outbound.ts).
            AGGREGATOR_BASE_URL: "https://aggregator.test",
            AGGREGATOR_CLIENT_ID: "client-7f3a",
            AGGREGATOR_SECRET: "secret-91bc",
            BANK_TOKEN_KEY: "test-2026:pN1lDq6ZqJ3xb0T5C2m9k8R4vWfYh7sE1aUoIcLgXzA=",
          },
          // A D1 database no migration has touched: reading the index from it fails, as an outage would.
          d1Databases: { UNMIGRATED_DB: "unmigrated-index" },
          // Rate limits of a few calls, which test/rate-limits.test.ts hands to the app in place of
          // wrangler.toml's: spending those through the app would take thousands of calls a test.
          ratelimits: {
            SMALL_RATE_LIMIT_CREDENTIAL: { simple: { limit: 5, period: 10 } },
            SMALL_RATE_LIMIT_ADDRESS: { simple: { limit: 8, period: 10 } },
          },
          // The service delivers sync requests at once (wrangler.toml). Tests that deliver a
          // request themselves, to prove a second delivery finds it over, need the real queue's
          // own delivery to come after theirs: here the queue waits a second, as it once did.
          // The other settings restate wrangler.toml's consumer (keep them in step); the
          // dead-letter queue's consumer is wrangler.toml's own.
          queueConsumers: { "ledger-jobs": { maxBatchSize: 10, maxBatchTimeout: 1, maxRetries: 3, deadLetterQueue: "ledger-jobs-dead" } },
        },
      }),
    ],
    test: {
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      exclude: ["test/node/**", "node_modules/**"],
      setupFiles: ["./test/apply-migrations.ts"],
      testTimeout: 30_000,
    },
  };
});
