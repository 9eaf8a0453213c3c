/**
 * Global setup for the Node-side suites (test/node/vitest.config.mts and
 * test/node/browser.config.mts): starts the real service the way `npm start` does
 * (scripts/local-service.mts: a free port, fresh state), hands the base URL to the tests
 * (`inject("baseUrl")`), and on teardown ends the whole process group and removes the
 * temp state.
 *
 * The server's stdout and stderr go to test-results/<project>-server.log (kept after the
 * run; git ignores it). If the server does not come up, the error carries the log's tail.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { startLocalService } from "../../scripts/local-service";

declare module "vitest" {
  export interface ProvidedContext {
    /** The running service, e.g. http://127.0.0.1:41234 (no trailing slash). */
    baseUrl: string;
    /** The port the service listens on (127.0.0.1). */
    port: number;
    /** Where the server's output is logged. */
    serverLog: string;
  }
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export default async function setup(project: TestProject) {
  const logDir = join(ROOT, "test-results");
  mkdirSync(logDir, { recursive: true });
  const service = await startLocalService({ log: join(logDir, `${project.name || "node"}-server.log`) });
  project.provide("baseUrl", service.baseUrl);
  project.provide("port", service.port);
  project.provide("serverLog", service.log);
  return service.stop;
}
