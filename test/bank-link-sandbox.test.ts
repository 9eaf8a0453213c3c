/**
 * The sandbox's stand-in for the aggregator's link flow, as `npm start` serves it: the
 * owner's "Connect a bank" leads to the stand-in page under /sandbox/link, which lists the
 * fake institutions and their accounts and sends the browser back; the bank's feed is the
 * sandbox bank's, queued for the item; the stand-in's bank can ask for its login again
 * (a signed webhook through the real receiver) and be signed in to again in update mode.
 * Then the daily run re-encrypts the tokens under the newest key.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { bankTokenKeys, decryptBankToken, rewrapBankTokens } from "../src/banks/bank-tokens";
import { sandboxItem } from "../src/providers/bank/sandbox-link";
import { ledgerOf } from "../src/env";
import { bankConnections, bankConnectionTokens, syncRequests } from "../src/ledger/store/schema";
import { as, seatPerson } from "./fixtures/people";
import { api, BASE, CHECKING, createTenant, eventually, rw, session, txn, type SandboxTenant } from "./fixtures/sandbox";

function form(t: SandboxTenant, path: string, fields: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: `svc_session=${t.session}`, origin: BASE, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

/** "Connect a bank" (or "Sign in again"), the stand-in page, a choice on it, and the way back: the page the owner lands on. */
async function throughStandIn(t: SandboxTenant, start: string, choice: string): Promise<{ status: number; page: string; standIn: string }> {
  const continuePage = await (await form(t, start)).text();
  const href = /href="([^"]+)" data-testid="continue-to-bank"|data-testid="continue-to-bank" href="([^"]+)"/.exec(continuePage);
  const standInUrl = (href![1] ?? href![2])!;
  expect(standInUrl).toMatch(new RegExp(`^${BASE}/sandbox/link/link-sandbox-`));
  const standIn = await (await SELF.fetch(standInUrl)).text();
  const chosen = await SELF.fetch(standInUrl, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ choice }) });
  expect(chosen.status).toBe(303);
  const back = new URL(chosen.headers.get("location")!);
  expect(`${back.origin}${back.pathname}`).toBe(`${BASE}/settings/banks/linked`);
  const landed = await SELF.fetch(back, { headers: { cookie: `svc_session=${t.session}` } });
  return { status: landed.status, page: await landed.text(), standIn };
}

async function items(t: SandboxTenant): Promise<any[]> {
  return ((await (await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/items`)).json()) as any).items;
}

describe("the sandbox's link page", () => {
  it("lists the fake institutions and links the one chosen; its feed is queued for the item and synced", async () => {
    const t = await createTenant({ bank: false });
    const linked = await throughStandIn(t, "/settings/banks/link", "ins_sandbox_prairie");
    expect(linked.standIn).toContain("Harbor Community Bank");
    expect(linked.standIn).toContain("Prairie Credit Union");
    expect(linked.standIn).toContain("Business Checking ····1100 (checking)");
    expect(linked.status).toBe(200);
    expect(linked.page).toContain("Prairie Credit Union is connected");
    const [item] = await items(t);
    expect(item).toMatchObject({ institution: "Prairie Credit Union", login_required: false, removed: false });

    const queued = await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/bank`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ item_id: item.item_id, accounts: [CHECKING], added: [txn("s1", { name: "PRAIRIE COFFEE" })] }),
    });
    expect(queued.status).toBe(202);
    const hook = await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/items/${item.item_id}/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(await hook.json()).toMatchObject({ received: true, acted: expect.stringMatching(/^a sync: (recorded|already-pending)$/) });
    await eventually("the item's line synced", async () => {
      const rows = (await api(rw(t), "/api/v1/transactions")).body.rows;
      return rows.some((r: any) => r.description === "PRAIRIE COFFEE") ? true : undefined;
    });
    // The sandbox bank's feed of the sign-up and an item's are apart: another tenant's item is refused.
    const other = await createTenant();
    const foreign = await SELF.fetch(`${BASE}/sandbox/tenants/${other.tenant}/bank`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ item_id: item.item_id, added: [txn("x1")] }),
    });
    expect(foreign.status).toBe(404);
  });

  it("asks for the login again (a signed webhook), and the owner signs in again through the stand-in's update mode", async () => {
    const t = await createTenant({ bank: false });
    await throughStandIn(t, "/settings/banks/link", "ins_sandbox_harbor");
    const [item] = await items(t);
    const reset = await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/items/${item.item_id}/reset-login`, { method: "POST" });
    expect(await reset.json()).toMatchObject({ received: true, acted: "connection 1: login_required; the owner is told" });
    expect((await items(t))[0].login_required).toBe(true);
    const thread = (await api(session(t), "/api/v1/messages")).body.messages;
    expect(thread[0]).toMatchObject({ channel: "notice", body: expect.stringContaining("Harbor Community Bank asks you to sign in to it again") });

    const repaired = await throughStandIn(t, "/settings/banks/1/reauthorise", "repair");
    expect(repaired.standIn).toContain("Sign in to Harbor Community Bank again");
    expect(repaired.page).toContain("Harbor Community Bank is signed in again");
    expect((await items(t))[0].login_required).toBe(false);
    expect((await api(rw(t), "/api/v1/connections/1")).body.connection.status).toBe("connected");
  });

  it("links nothing when the owner leaves, and is not there for a finished or unknown link", async () => {
    const t = await createTenant({ bank: false });
    const left = await throughStandIn(t, "/settings/banks/link", "leave");
    expect(left.status).toBe(409);
    expect(left.page).toContain("Nothing was connected");
    expect((await SELF.fetch(`${BASE}/sandbox/link/link-sandbox-unknown`)).status).toBe(404);
    expect((await api(rw(t), "/api/v1/connections")).body.in_use).toBe(0);
  });
});

describe("a co-owner's bank actions", () => {
  it("are recorded as the person who acted, and the connection's history names them", async () => {
    const t = await createTenant({ bank: false });
    const coOwner = await seatPerson(t, "owner", "Cora Banks");
    const actor = (await api({ session: coOwner.session }, "/api/v1/me")).body.auth.actor as string;
    const byCora = `Cora Banks (${actor})`;
    const cora = as(coOwner);

    expect((await throughStandIn(cora, "/settings/banks/link", "ins_sandbox_harbor")).page).toContain("Harbor Community Bank is connected");
    const [item] = await items(t);
    await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/items/${item.item_id}/reset-login`, { method: "POST" });
    expect((await throughStandIn(cora, "/settings/banks/1/reauthorise", "repair")).page).toContain("is signed in again");
    const gone = await form(cora, "/settings/banks/1/disconnect");
    expect(gone.status).toBe(200);

    const answer = (await api(rw(t), "/api/v1/connections/1")).body;
    expect(answer.connection).toMatchObject({ status: "disconnected", status_detail: `disconnected by ${byCora}` });
    const person = { id: actor.slice("person:".length), name: "Cora Banks", email: coOwner.email };
    expect(answer.history.map((e: any) => [e.status, e.detail, e.actor, e.person])).toEqual([
      ["connected", `linked by ${byCora}`, actor, person],
      ["login_required", expect.stringContaining("ITEM_LOGIN_REQUIRED"), "aggregator:webhook", null],
      ["connected", `signed in again in the aggregator's update mode by ${byCora}`, actor, person],
      ["disconnected", `disconnected by ${byCora}`, actor, person],
    ]);
    // The syncs the linking and the repair asked for are the co-owner's too.
    const askedBy = await runInDurableObject(ledgerOf(env, t.tenant), (instance) => instance.db.select({ actor: syncRequests.actor }).from(syncRequests).all());
    expect(askedBy.map((r) => r.actor)).toEqual(expect.arrayContaining([actor]));
    expect(askedBy.map((r) => r.actor)).not.toContain(`human:${t.tenant}`);
    // The settings page says who.
    const settings = await (await SELF.fetch(`${BASE}/settings`, { headers: { cookie: `svc_session=${t.session}` } })).text();
    expect(settings).toContain(`disconnected by ${byCora}`);
  });

  it("by the owner's own session stay the owner's: human:<tenant>", async () => {
    const t = await createTenant({ bank: false });
    await throughStandIn(t, "/settings/banks/link", "ins_sandbox_harbor");
    const history = (await api(rw(t), "/api/v1/connections/1")).body.history;
    expect(history).toEqual([expect.objectContaining({ status: "connected", detail: `linked by human:${t.tenant}`, actor: `human:${t.tenant}`, person: null })]);
  });
});

describe("rotating the key of the tokens at rest", () => {
  it("re-encrypts every live token under the newest key; the old key can then go", async () => {
    const t = await createTenant({ bank: false });
    await throughStandIn(t, "/settings/banks/link", "ins_sandbox_harbor");
    // The sync the linking asked for runs with the deployment's key as it stands, before the rotation.
    await eventually("the first sync finished", async () => (await api(rw(t), "/api/v1/sync-history")).body.runs.find((r: any) => r.final));
    const ledger = ledgerOf(env, t.tenant);
    const sealed = async () =>
      runInDurableObject(ledger, (instance) => {
        const tokens = instance.db.select().from(bankConnectionTokens).all();
        return tokens.at(-1)?.accessToken ?? instance.db.select().from(bankConnections).all()[0]!.accessToken;
      });
    expect(await sealed()).toMatch(/^v1\.test-2026\./);
    const newKey = `next-2027:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
    const rotated = { ...env, BANK_TOKEN_KEY: `${newKey},${env.BANK_TOKEN_KEY}` };
    expect(await rewrapBankTokens(rotated, t.tenant)).toBe(1);
    expect(await sealed()).toMatch(/^v1\.next-2027\./);
    expect(await rewrapBankTokens(rotated, t.tenant)).toBe(0);
    // With the old key dropped, the token still opens: it is the item's access token at the stand-in.
    const [item] = await items(t);
    const opened = await decryptBankToken(bankTokenKeys({ BANK_TOKEN_KEY: newKey, SANDBOX: "off" }), await sealed(), { tenant: t.tenant, itemId: item.item_id });
    expect(opened).toBe((await sandboxItem(env.INDEX_DB, item.item_id))!.accessToken);
  });
});
