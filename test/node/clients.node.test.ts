/**
 * The clients against the running service: the checked-in typed client's types are what
 * openapi-typescript makes of the served /openapi.json today, and both examples (the
 * typed client and the MCP client) run to the end.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { generateClientTypes } from "../../clients/typescript/generate";

const baseUrl = inject("baseUrl");
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

describe("the typed client", () => {
  it("is generated from the served document: run `npm run client:gen` when this fails", async () => {
    const served = await (await fetch(`${baseUrl}/openapi.json`)).json();
    const checkedIn = readFileSync(`${ROOT}/clients/typescript/schema.d.ts`, "utf8");
    expect(checkedIn === (await generateClientTypes(served)), "clients/typescript/schema.d.ts is stale: run `npm run client:gen`").toBe(true);
  });
});

describe("the examples", () => {
  for (const example of ["typed-client", "mcp-client"]) {
    it(`${example} signs up, syncs, creates and runs rules and prints the P&L`, async () => {
      const { stdout } = await run(process.execPath, [`${ROOT}/node_modules/tsx/dist/cli.mjs`, `${ROOT}/examples/${example}.ts`], {
        cwd: ROOT,
        env: { ...process.env, LEDGER_URL: baseUrl },
        timeout: 60_000,
      });
      expect(stdout).toMatch(/: 4 rules decided 6 lines/);
      expect(stdout).toMatch(/7d\s+revenue\s+1250\.00\s+\(prior 980\.40\)/);
      expect(stdout).toMatch(/30d\s+net_income\s+819\.55/);
    });
  }
});
