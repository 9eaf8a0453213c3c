import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `npm run check:exports`: the export files as outside tools read them (Debian's hledger
// reads accounting-bank.csv with scripts/hledger/accounting-bank.rules), against the real
// service started by the same global setup as the Node-side suite.
export default defineConfig({
  test: {
    name: "exports",
    root: fileURLToPath(new URL("../..", import.meta.url)),
    environment: "node",
    include: ["test/node/**/*.check.test.ts"],
    globalSetup: ["./test/node/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
