/** /docs: the API reference viewer, served whole from this Worker and public. */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE } from "../../test/fixtures/sandbox";

describe("/docs", () => {
  it("serves a page that loads only this origin's files, and the files themselves", async () => {
    const page = await SELF.fetch(`${BASE}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await page.text();
    const loaded = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(loaded.sort()).toEqual(["/docs/init.js", "/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css"]);
    for (const path of loaded) {
      const file = await SELF.fetch(`${BASE}${path}`);
      expect(file.status, path).toBe(200);
      expect((await file.text()).length, path).toBeGreaterThan(path.endsWith("init.js") ? 10 : 10_000);
    }
    expect(await (await SELF.fetch(`${BASE}/docs/init.js`)).text()).toContain('url: "/openapi.json"');
    // The file as published, not a module re-bundled from it.
    expect(await (await SELF.fetch(`${BASE}/docs/swagger-ui-bundle.js`)).text()).toMatch(/^\/\*! For license information please see swagger-ui-bundle\.js\.LICENSE\.txt \*\/\n!function webpackUniversalModuleDefinition/);
  });

  it("serves the rule pattern syntax the API reference points to", async () => {
    const page = await SELF.fetch(`${BASE}/docs/patterns`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await page.text();
    expect(text).toMatch(/^# Rule patterns\n/);
    expect(text).toContain("`GUSTO.*PAYROLL`");
    const openapi = await (await SELF.fetch(`${BASE}/openapi.json`)).json<any>();
    expect(openapi.components.schemas.RuleInput.properties.match_value.description).toContain("/docs/patterns");
  });
});
