import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The browser test (`npm run test:browser`): Debian's chromium through playwright-core
// against the real service, started by the same global setup as the Node-side suite.
export default defineConfig({
  test: {
    name: "browser",
    root: fileURLToPath(new URL("../..", import.meta.url)),
    environment: "node",
    include: ["test/node/**/*.browser.test.ts"],
    globalSetup: ["./test/node/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
