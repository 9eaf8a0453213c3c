import { defineConfig } from "drizzle-kit";

// The cross-tenant indexes in D1 (applied with `wrangler d1 migrations apply`).
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/index-db/schema.ts",
  out: "./migrations/index",
});
