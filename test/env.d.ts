declare namespace Cloudflare {
  interface Env {
    /** The D1 migrations, read by vitest.config.mts and applied by test/apply-migrations.ts. */
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** The property tests' fast-check seed (vitest.config.mts). */
    PROPERTY_SEED: string;
    /** A D1 database without the index's tables (vitest.config.mts): every read of it fails. */
    UNMIGRATED_DB: D1Database;
    /** Rate limits of a few calls (vitest.config.mts), handed to the app in place of wrangler.toml's by the rate limit tests. */
    SMALL_RATE_LIMIT_CREDENTIAL: RateLimit;
    SMALL_RATE_LIMIT_ADDRESS: RateLimit;
  }
}
