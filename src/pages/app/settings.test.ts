/**
 * The settings gathered in the workspace (/app/settings, and /settings): the bank
 * connection with its sync runs and a sync request, the meter against the cap, beside the
 * tokens, grants and destinations; and the workspace's frame (its assets and their CSP).
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { WORKSPACE_CSP } from "../../http/guards";
import { recordMeter } from "../../index-db/meter";
import { TAIL_SPEND_CAPS } from "../../tiers";
import { BASE, createTenant, eventually, api, rw, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { bakery, page, textOf } from "../../../test/fixtures/workspace";

describe("the settings page", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await bakery({ lines: 3, syncedThroughQueue: true });
  });

  it("gathers the banks, their sync runs, the meter, tokens, grants and destinations, at /app/settings and /settings alike", async () => {
    await recordMeter(env.INDEX_DB, t.tenant, new Date(), { millicents: 250_000, linesSentToApi: 3 });
    for (const path of ["/app/settings", "/settings"]) {
      const answer = await page(t, path);
      expect(answer.status, path).toBe(200);
      const text = textOf(answer.html);
      expect(text).toContain("The paid tier holds 5 bank connections; 1 in use.");
      expect(text).toMatch(/1 Sandbox bank connected/);
      expect(text).toMatch(/The latest sync runs .* ok 3 0 0 0/);
      expect(text).toContain(`This month: $2.50 of the $${(TAIL_SPEND_CAPS.paid / 100_000).toFixed(2)} cap (the paid tier's). Under it, the external model is asked as lines arrive.`);
      expect(answer.html).toMatch(/<meter min="0" max="1000000" value="250000" aria-labelledby="meter-now">/);
      for (const heading of ["Banks", "Sync", "Meter", "Personal access tokens", "Spreadsheet destinations", "Auditor grants"]) expect(answer.html).toContain(`>${heading}</h2>`);
      expect(answer.html).toContain('<a href="/app/settings" aria-current="page">Settings</a>');
      expect(answer.headers.get("content-security-policy")).toBe(WORKSPACE_CSP);
    }
  });

  it("requests a sync, and says when one is already waiting", async () => {
    const asked = await page(t, "/app/settings/sync", { form: {} });
    expect(asked.status).toBe(303);
    expect(asked.location).toMatch(/^\/app\/settings\?sync=(recorded|already-pending)#bank$/);
    expect(textOf((await page(t, "/app/settings?sync=recorded")).html)).toContain("A sync is requested");
    await eventually("the requested sync run", async () => ((await api(rw(t), "/api/v1/sync-history")).body.runs.length >= 2 ? true : undefined));
  });

  it("says when no bank is connected, and refuses a sync then in the ledger's words", async () => {
    const bare = await createTenant({ bank: false });
    expect(textOf((await page(bare, "/app/settings")).html)).toContain("No bank is connected.");
    const refused = await page(bare, "/app/settings/sync", { form: {} });
    expect(refused.status).toBe(409);
    expect(textOf(refused.html)).toContain("No bank is connected to this tenant, so there is nothing to sync.");
  });

  it("refuses a sync request read-only, from another origin, or without a session", async () => {
    expect((await page(t, "/app/settings/sync", { form: {}, bearer: t.tokens.read_only })).status).toBe(403);
    expect((await page(t, "/app/settings/sync", { form: {}, origin: "https://evil.example" })).status).toBe(403);
    expect((await page(t, "/app/settings/sync", { form: {}, noCredential: true })).location).toBe("/signin");
    expect((await page(t, "/app/settings", { noCredential: true })).location).toBe("/signin");
  });
});

describe("the shared merchant prior on the settings page", () => {
  it("says whether the tenant takes part, and opts it in and out as the API does", async () => {
    const t = await bakery({ lines: 3 });
    const before = await page(t, "/app/settings");
    expect(before.html).toContain('>Shared merchant prior</h2>');
    expect(textOf(before.html)).toContain("You do not take part.");

    const joined = await page(t, "/app/settings/shared-merchant-prior", { form: { opted_in: "yes" } });
    expect(joined.status).toBe(303);
    expect(joined.location).toBe("/app/settings?prior=in#prior");
    expect((await api(rw(t), "/api/v1/shared-merchant-prior")).body).toMatchObject({ opted_in: true, chosen_by: `human:${t.tenant}` });
    const after = textOf((await page(t, "/app/settings?prior=in")).html);
    expect(after).toContain("You take part in the shared merchant prior from now on.");
    expect(after).toMatch(/You take part \(since .+\), contributing 0 merchant words as of the last daily run\./);

    const left = await page(t, "/app/settings/shared-merchant-prior", { form: { opted_in: "no" } });
    expect(left.location).toBe("/app/settings?prior=out#prior");
    expect((await api(rw(t), "/api/v1/shared-merchant-prior")).body.opted_in).toBe(false);
    expect(textOf((await page(t, "/app/settings")).html)).toContain("You do not take part.");
  });

  it("refuses a choice that is neither, read-only, from another origin, or without a session, recording nothing", async () => {
    const t = await bakery({ lines: 3 });
    expect((await page(t, "/app/settings/shared-merchant-prior", { form: { opted_in: "maybe" } })).status).toBe(400);
    expect((await page(t, "/app/settings/shared-merchant-prior", { form: { opted_in: "yes" }, bearer: t.tokens.read_only })).status).toBe(403);
    expect((await page(t, "/app/settings/shared-merchant-prior", { form: { opted_in: "yes" }, origin: "https://evil.example" })).status).toBe(403);
    expect((await page(t, "/app/settings/shared-merchant-prior", { form: { opted_in: "yes" }, noCredential: true })).location).toBe("/signin");
    expect((await api(rw(t), "/api/v1/shared-merchant-prior")).body.chosen_at).toBeNull();
  });
});

describe("the workspace's frame", () => {
  it("serves its own script, stylesheet and the pinned htmx, and nothing at an unknown address", async () => {
    for (const [path, type] of [
      ["/app/assets/htmx.min.js", "text/javascript"],
      ["/app/assets/workspace.js", "text/javascript"],
      ["/app/assets/workspace.css", "text/css"],
    ] as const) {
      const served = await SELF.fetch(`${BASE}${path}`);
      expect(served.status, path).toBe(200);
      expect(served.headers.get("content-type")).toContain(type);
      expect((await served.text()).length).toBeGreaterThan(500);
    }
    const t = await createTenant();
    const unknown = await page(t, "/app/nothing-here");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("text/html");
    expect((await page(t, "/app")).location).toBe("/app/review");
  });
});
