import { defineConfig } from "drizzle-kit";

// The tenant's ledger: SQLite inside its Durable Object.
export default defineConfig({
  dialect: "sqlite",
  driver: "durable-sqlite",
  schema: "./src/ledger/store/schema.ts",
  out: "./migrations/ledger",
});
