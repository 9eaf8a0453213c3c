/** docs/errors.md is what the error catalog and the endpoint index say. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { renderErrorReference } from "../../scripts/error-reference";
import { ERROR_CATALOG } from "../../src/error-catalog";
import { endpoints } from "../../src/endpoints/index";

it("docs/errors.md is generated from the catalog: run `npm run docs:errors` when this fails", () => {
  const checkedIn = readFileSync(fileURLToPath(new URL("../../docs/errors.md", import.meta.url)), "utf8");
  expect(checkedIn === renderErrorReference(endpoints), "docs/errors.md is stale: run `npm run docs:errors`").toBe(true);
});

it("lists each code an operation may answer under its status in the document, the problem's `code` limited to them", () => {
  for (const endpoint of endpoints) {
    for (const code of endpoint.refusals) {
      const response = endpoint.route.responses[ERROR_CATALOG[code].status] as { description: string; content: Record<string, { schema: { shape: { code: { options: string[] } } } }> };
      expect(response, `${endpoint.operationId}: ${code}`).toBeDefined();
      expect(response.description).toContain(`\`${code}\``);
      expect(response.content["application/problem+json"]!.schema.shape.code.options).toContain(code);
    }
  }
});
