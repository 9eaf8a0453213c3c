import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Node-side checks against the real service (`npm start` on a free port, fresh state):
// plain Node, not the workers pool. Part of `npm test`.
export default defineConfig({
  test: {
    name: "node",
    root: fileURLToPath(new URL("../..", import.meta.url)),
    environment: "node",
    include: ["test/node/**/*.node.test.ts"],
    globalSetup: ["./test/node/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
