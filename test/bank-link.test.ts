/**
 * Connecting banks in the aggregator's own flow, with the sandbox off, end to end: a
 * customer signs up (the mail API faked), verifies the email, signs in, opens the
 * aggregator's hosted page from /settings (the fake aggregator, test/fixtures/fake-aggregator.ts,
 * plays it: the test is the person on it), comes back, and the public token is exchanged
 * on the server for an access token kept encrypted in the ledger. The aggregator's signed
 * webhooks ask for syncs through the real queue, whose consumer pulls every connected
 * item's feed from the fake; a bank that wants its login again is marked, the owner told
 * in the thread, and repaired in update mode; several banks, the tier's cap, disconnecting,
 * expired links, bad signatures, and another tenant's connection a 404.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { findTenant } from "../src/auth/tenants";
import { bankItem } from "../src/index-db/bank-links";
import { ledgerOf } from "../src/env";
import { bankConnections } from "../src/ledger/store/schema";
import { VERIFICATION_HEADER } from "../src/providers/bank/webhook-signature";
import { BASE_URL as AGGREGATOR, FakeAggregator, type FakeItem } from "./fixtures/fake-aggregator";
import { FakeMail, MAIL_BASE_URL } from "./fixtures/fake-mail";
import { restoreOutboundAfterEach, routeOutbound } from "./fixtures/outbound";
import { BASE, CHECKING, eventually, txn } from "./fixtures/sandbox";
import { offFetch, postForm, signedUp, signInAs, verifyFromMail, type Owner } from "./fixtures/sandbox-off";

restoreOutboundAfterEach();

let mail: FakeMail;
let aggregator: FakeAggregator;
beforeEach(() => {
  mail = new FakeMail();
  aggregator = new FakeAggregator();
  routeOutbound({ [MAIL_BASE_URL]: mail, [AGGREGATOR]: aggregator });
});

interface Customer extends Owner {
  session: string;
}

/** Signed up, email verified, signed in. */
async function customer(fields: Record<string, unknown> = {}): Promise<Customer> {
  const owner = await signedUp(fields);
  await verifyFromMail(mail, owner.email);
  return { ...owner, session: await signInAs(owner) };
}

/** The API with the customer's session (reads) and the session's same-origin writes. */
async function apiAs(c: Customer, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const answer = await offFetch(path, {
    method: init.method ?? "GET",
    headers: { cookie: `svc_session=${c.session}`, ...(init.body !== undefined ? { "content-type": "application/json" } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: answer.status, body: await answer.json() };
}

/** "Connect a bank" on /settings: the page that links to the aggregator's hosted page, and the link token in its address. */
async function openLink(c: Customer, path = "/settings/banks/link"): Promise<{ status: number; page: string; linkToken: string | null }> {
  const answer = await postForm(path, {}, { session: c.session });
  const page = await answer.text();
  const url = /data-testid="continue-to-bank" href="([^"]+)"|href="([^"]+)" data-testid="continue-to-bank"/.exec(page);
  const href = url ? (url[1] ?? url[2])! : null;
  return { status: answer.status, page, linkToken: href ? aggregator.linkTokenOf(href.replaceAll("&amp;", "&")) : null };
}

/** The browser back from the aggregator's page at the address it was sent to. */
async function comeBack(c: Customer, returnTo: string): Promise<{ status: number; page: string }> {
  const url = new URL(returnTo);
  expect(url.origin).toBe(BASE);
  const answer = await offFetch(`${url.pathname}${url.search}`, { headers: { cookie: `svc_session=${c.session}` } });
  return { status: answer.status, page: await answer.text() };
}

/** The whole flow for a new bank: its connection. */
async function linkBank(c: Customer, institution = "Harbor Community Bank"): Promise<{ item: FakeItem; connection: any }> {
  const opened = await openLink(c);
  expect(opened.status, opened.page).toBe(200);
  const { returnTo, item } = aggregator.finishLink(opened.linkToken!, institution);
  const back = await comeBack(c, returnTo);
  expect(back.status, back.page).toBe(200);
  expect(back.page).toContain(`${institution} is connected`);
  const connections = await apiAs(c, "/api/v1/connections");
  return { item, connection: connections.body.connections.find((x: any) => x.item_id === item.itemId) };
}

async function webhook(payload: Record<string, unknown>, options: Parameters<FakeAggregator["signedWebhook"]>[1] & { signature?: string | null } = {}): Promise<{ status: number; body: any }> {
  const signed = await aggregator.signedWebhook(payload, options);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const signature = options.signature === undefined ? signed.signature : options.signature;
  if (signature !== null) headers[VERIFICATION_HEADER] = signature;
  const answer = await offFetch("/hooks/bank", { method: "POST", headers, body: signed.body });
  return { status: answer.status, body: await answer.json() };
}

/** The final run of a sync request (the newest one asked for when none is named), once the real queue's consumer has finished it. */
async function finishedSync(c: Customer, requestId?: number): Promise<any> {
  return eventually(`sync request ${requestId ?? "(newest)"} finished`, async () => {
    const runs = (await apiAs(c, "/api/v1/sync-history")).body.runs;
    const wanted = requestId ?? Math.max(0, ...runs.map((r: any) => r.request_id));
    return runs.find((r: any) => r.request_id === wanted && r.final);
  });
}

/** sync-now through the API, then its request's final run. */
async function syncNow(c: Customer): Promise<any> {
  const asked = await apiAs(c, "/api/v1/sync-now", { method: "POST", body: {} });
  expect(asked.status, JSON.stringify(asked.body)).toBe(202);
  return finishedSync(c, asked.body.request_id);
}

const descriptions = async (c: Customer) => ((await apiAs(c, "/api/v1/transactions?per_page=100")).body.rows as any[]).map((r) => r.description).sort();

describe("connecting a bank in the aggregator's flow", () => {
  it("links a bank: link token, the hosted page, the public token exchanged on the server, the token encrypted at rest, a first sync", async () => {
    const c = await customer();
    const opened = await openLink(c);
    expect(opened.status).toBe(200);
    const created = aggregator.linkCalls.find((call) => call.path === "/link/token/create")!.body;
    expect(created).toMatchObject({ user: { client_user_id: c.tenant }, webhook: `${BASE}/hooks/bank`, products: ["transactions"] });
    expect((created.hosted_link as any).completion_redirect_uri).toMatch(new RegExp(`^${BASE}/settings/banks/linked\\?state=[A-Za-z0-9_-]{43}$`));

    const { returnTo, item } = aggregator.finishLink(opened.linkToken!, "Harbor Community Bank");
    aggregator.addTo(item.itemId, "added", txn("h1", { name: "HARBOR COFFEE", amount: 4.5 }), txn("h2", { name: "CLIENT PAYMENT", amount: -900 }));
    item.accounts.push(CHECKING);
    const back = await comeBack(c, returnTo);
    expect(back.status).toBe(200);
    expect(back.page).toContain("Harbor Community Bank is connected");
    expect(aggregator.linkCalls.map((call) => call.path)).toEqual(["/link/token/create", "/link/token/get", "/item/public_token/exchange"]);

    const listed = await apiAs(c, "/api/v1/connections");
    expect(listed.body).toMatchObject({ in_use: 1, cap: 5, tier: "paid" });
    expect(listed.body.connections).toEqual([
      expect.objectContaining({ provider: "aggregator", institution: "Harbor Community Bank", item_id: item.itemId, status: "connected" }),
    ]);
    const id = listed.body.connections[0].connection_id;
    expect((await apiAs(c, `/api/v1/connections/${id}`)).body.connection).toMatchObject({ connection_id: id, status: "connected" });
    expect(await bankItem(env.INDEX_DB, item.itemId)).toMatchObject({ tenantId: c.tenant, connectionId: id, disconnectedAt: null });

    // At rest the ledger holds only the sealed token.
    const stored = await runInDurableObject(ledgerOf(env, c.tenant), (instance) => instance.db.select().from(bankConnections).all());
    expect(stored[0]!.accessToken).toMatch(/^v1\.test-2026\./);
    expect(stored[0]!.accessToken).not.toContain(item.accessToken);

    // The first sync was asked for on linking; the real consumer pulls the item's feed with its access token.
    expect(await finishedSync(c)).toMatchObject({ status: "ok", added: 2 });
    expect(await descriptions(c)).toEqual(["CLIENT PAYMENT", "HARBOR COFFEE"]);
    expect(aggregator.requests.at(-1)!.body.access_token).toBe(item.accessToken);

    // Coming back again (a reload) changes nothing.
    const reload = await comeBack(c, returnTo);
    expect(reload.page).toContain("Harbor Community Bank is connected");
    expect((await apiAs(c, "/api/v1/connections")).body.in_use).toBe(1);
  });

  it("syncs every connected bank when the aggregator says new lines are there", async () => {
    const c = await customer();
    const harbor = await linkBank(c, "Harbor Community Bank");
    const prairie = await linkBank(c, "Prairie Credit Union");
    await finishedSync(c);
    aggregator.addTo(harbor.item.itemId, "added", txn("h1", { name: "HARBOR LINE" }));
    aggregator.addTo(prairie.item.itemId, "added", txn("p1", { name: "PRAIRIE LINE" }), txn("p2", { name: "PRAIRIE TWO" }));
    const hook = await webhook({ webhook_type: "TRANSACTIONS", webhook_code: "SYNC_UPDATES_AVAILABLE", item_id: prairie.item.itemId, initial_update_complete: true });
    expect(hook).toMatchObject({ status: 200, body: { received: true, acted: "a sync: recorded" } });
    const run = await eventually("a run that landed both banks' lines", async () => {
      const runs = (await apiAs(c, "/api/v1/sync-history")).body.runs;
      return runs.find((r: any) => r.final && r.added === 3);
    });
    expect(run).toMatchObject({ status: "ok", error: null });
    expect(await descriptions(c)).toEqual(["HARBOR LINE", "PRAIRIE LINE", "PRAIRIE TWO"]);
  });

  it("marks a bank that wants its login again, tells the owner once, and repairs it in update mode", async () => {
    const c = await customer();
    const { item, connection } = await linkBank(c);
    await finishedSync(c);
    aggregator.requireLogin(item.itemId);
    const payload = { webhook_type: "ITEM", webhook_code: "ERROR", item_id: item.itemId, error: { error_code: "ITEM_LOGIN_REQUIRED", error_message: "the login details of this item have changed" } };
    expect((await webhook(payload)).body.acted).toBe(`connection ${connection.connection_id}: login_required; the owner is told`);
    // Delivered again: nothing more.
    expect((await webhook(payload)).body.acted).toBe(`nothing: connection ${connection.connection_id} was login_required already`);
    const thread = (await apiAs(c, "/api/v1/messages")).body.messages;
    expect(thread).toEqual([
      expect.objectContaining({ direction: "out", channel: "notice", status: "posted", body: expect.stringContaining("Harbor Community Bank asks you to sign in to it again") }),
    ]);
    expect((await apiAs(c, `/api/v1/connections/${connection.connection_id}`)).body.connection).toMatchObject({ status: "login_required", status_detail: expect.stringContaining("ITEM_LOGIN_REQUIRED") });

    // A sync meanwhile names the bank that waits.
    expect(await syncNow(c)).toMatchObject({ status: "failed", final: true, error: "the bank waits for its owner to sign in again (Settings, Banks)" });

    // /settings offers "Sign in again": update mode, with the item's access token.
    const settings = await (await offFetch("/settings", { headers: { cookie: `svc_session=${c.session}` } })).text();
    expect(settings).toContain(`/settings/banks/${connection.connection_id}/reauthorise`);
    const repair = await openLink(c, `/settings/banks/${connection.connection_id}/reauthorise`);
    expect(repair.status).toBe(200);
    expect(aggregator.linkCalls.filter((x) => x.path === "/link/token/create").at(-1)!.body).toMatchObject({ access_token: item.accessToken });
    const { returnTo } = aggregator.finishLink(repair.linkToken!);
    aggregator.addTo(item.itemId, "added", txn("after", { name: "AFTER REPAIR" }));
    const back = await comeBack(c, returnTo);
    expect(back.page).toContain("Harbor Community Bank is signed in again");
    expect((await apiAs(c, `/api/v1/connections/${connection.connection_id}`)).body.connection.status).toBe("connected");
    expect(await eventually("the repaired bank's line", async () => ((await descriptions(c)).includes("AFTER REPAIR") ? true : undefined))).toBe(true);
    const notices = (await apiAs(c, "/api/v1/messages")).body.messages.map((m: any) => m.body);
    expect(notices[0]).toContain("is connected again");
  });

  it("marks a bank whose sync the aggregator refuses for its login, and tells the owner", async () => {
    const c = await customer();
    const { item, connection } = await linkBank(c);
    await finishedSync(c);
    aggregator.requireLogin(item.itemId);
    expect(await syncNow(c)).toMatchObject({ status: "failed", final: true, error: expect.stringContaining("ITEM_LOGIN_REQUIRED") });
    expect((await apiAs(c, `/api/v1/connections/${connection.connection_id}`)).body.connection.status).toBe("login_required");
    expect((await apiAs(c, "/api/v1/messages")).body.messages[0].body).toContain("asks you to sign in to it again");
  });

  it("disconnects a bank: its lines stay, its feed is pulled no more, the item is removed at the aggregator and its webhooks do nothing", async () => {
    const c = await customer();
    const { item, connection } = await linkBank(c);
    item.changes.push({ kind: "added", txn: txn("kept", { name: "KEPT LINE" }) });
    await finishedSync(c);
    const gone = await postForm(`/settings/banks/${connection.connection_id}/disconnect`, {}, { session: c.session });
    expect(gone.status).toBe(200);
    expect(await gone.text()).toContain("is disconnected");
    expect(item.removed).toBe(true);
    expect((await apiAs(c, "/api/v1/connections")).body).toMatchObject({ in_use: 0, connections: [expect.objectContaining({ status: "disconnected" })] });
    expect(await descriptions(c)).toEqual(["KEPT LINE"]);
    expect((await apiAs(c, "/api/v1/sync-now", { method: "POST", body: {} })).body).toMatchObject({ status: 409, code: "nothing_connected" });
    expect((await webhook({ webhook_type: "TRANSACTIONS", webhook_code: "SYNC_UPDATES_AVAILABLE", item_id: item.itemId })).body.acted).toBe(
      "nothing: no connected item or open link of ours",
    );
    // Disconnected already: the page says so.
    expect((await postForm(`/settings/banks/${connection.connection_id}/disconnect`, {}, { session: c.session })).status).toBe(409);
  });

  it("holds the free tier to one bank: the page refuses, and a second link finished meanwhile is removed at the aggregator", async () => {
    const c = await customer({ tier: "free" });
    const first = await openLink(c);
    const second = await openLink(c);
    const back = await comeBack(c, aggregator.finishLink(first.linkToken!).returnTo);
    expect(back.status).toBe(200);
    const over = aggregator.finishLink(second.linkToken!, "Prairie Credit Union");
    const refused = await comeBack(c, over.returnTo);
    expect(refused.status).toBe(409);
    expect(refused.page).toContain("The free tier holds at most 1 bank connection");
    expect(over.item.removed).toBe(true);
    const third = await openLink(c);
    expect(third.status).toBe(409);
    expect(third.page).toContain("The free tier holds at most 1 bank connection and this tenant holds 1");
    expect(third.page).toContain("To connect another bank, disconnect one first or move to the paid tier");
    expect(third.linkToken).toBeNull();
    expect((await apiAs(c, "/api/v1/connections")).body).toMatchObject({ in_use: 1, cap: 1 });
  });

  it("finishes a link by the aggregator's end-of-session webhook when the browser does not come back first", async () => {
    const c = await customer();
    const opened = await openLink(c);
    const { returnTo, item } = aggregator.finishLink(opened.linkToken!, "Summit Card Services");
    const finished = await webhook({ webhook_type: "LINK", webhook_code: "SESSION_FINISHED", link_token: opened.linkToken, status: "SUCCESS", public_tokens: ["public-…"] });
    expect(finished).toMatchObject({ status: 200, body: { acted: expect.stringContaining("the link: Summit Card Services is connected") } });
    // The browser comes back after: the link was finished once, and says how.
    const back = await comeBack(c, returnTo);
    expect(back.page).toContain("Summit Card Services is connected");
    expect((await apiAs(c, "/api/v1/connections")).body.connections).toEqual([expect.objectContaining({ item_id: item.itemId, status: "connected" })]);
    expect(aggregator.linkCalls.filter((x) => x.path === "/item/public_token/exchange")).toHaveLength(1);
  });

  it("takes the aggregator's word on an item: an error, then its login repaired", async () => {
    const c = await customer();
    const { item, connection } = await linkBank(c);
    await finishedSync(c);
    const failed = await webhook({ webhook_type: "ITEM", webhook_code: "ERROR", item_id: item.itemId, error: { error_code: "ITEM_NOT_FOUND", error_message: "the Item you requested cannot be found" } });
    expect(failed.body.acted).toBe(`connection ${connection.connection_id}: error; the owner is told`);
    expect((await apiAs(c, `/api/v1/connections/${connection.connection_id}`)).body.connection).toMatchObject({
      status: "error",
      status_detail: "ITEM_NOT_FOUND: the Item you requested cannot be found",
    });
    const repaired = await webhook({ webhook_type: "ITEM", webhook_code: "LOGIN_REPAIRED", item_id: item.itemId });
    expect(repaired.body.acted).toBe(`connection ${connection.connection_id}: connected; the owner is told`);
    const unknownCode = await webhook({ webhook_type: "ITEM", webhook_code: "WEBHOOK_UPDATE_ACKNOWLEDGED", item_id: item.itemId });
    expect(unknownCode.body.acted).toBe("nothing: ITEM WEBHOOK_UPDATE_ACKNOWLEDGED needs nothing done");
    const bodies = (await apiAs(c, "/api/v1/messages")).body.messages.map((m: any) => m.body);
    expect(bodies).toEqual([expect.stringContaining("is connected again"), expect.stringContaining("could not be synced: ITEM_NOT_FOUND")]);
  });

  it("says so when the owner left the aggregator's page, when the link expired, or it is not finished yet", async () => {
    const c = await customer();
    const left = await openLink(c);
    const leftBack = await comeBack(c, aggregator.leaveLink(left.linkToken!));
    expect(leftBack.status).toBe(409);
    expect(leftBack.page).toContain("Nothing was connected: the person left the bank&#39;s page (institution_not_found).");

    const waiting = await openLink(c);
    const link = aggregator.links.get(waiting.linkToken!)!;
    const early = await comeBack(c, link.completionUri);
    expect(early.status).toBe(202);
    expect(early.page).toContain("is not finished yet");
    link.expiration = new Date(Date.now() - 1000).toISOString();
    const expired = await comeBack(c, link.completionUri);
    expect(expired.status).toBe(409);
    expect(expired.page).toContain("The bank link expired");
    expect((await apiAs(c, "/api/v1/connections")).body.in_use).toBe(0);
  });

  it("refuses a webhook without the aggregator's valid signature, and does nothing", async () => {
    const c = await customer();
    const { item } = await linkBank(c);
    await finishedSync(c);
    const payload = { webhook_type: "TRANSACTIONS", webhook_code: "SYNC_UPDATES_AVAILABLE", item_id: item.itemId };
    const stranger = (await crypto.subtle.exportKey("jwk", ((await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"])) as CryptoKeyPair).privateKey)) as JsonWebKey;
    const refusals = [
      await webhook(payload, { signature: null }),
      await webhook(payload, { privateKey: stranger }),
      await webhook(payload, { keyId: "not-a-key-of-theirs" }),
      await webhook(payload, { issuedAt: new Date(Date.now() - 10 * 60_000) }),
    ];
    for (const refusal of refusals) expect(refusal).toMatchObject({ status: 403, body: { code: "signature_invalid" } });
    expect(refusals.map((r) => r.body.detail)).toEqual([
      "The webhook's signature is refused: no Plaid-Verification header.",
      "The webhook's signature is refused: the signature does not verify.",
      'The webhook\'s signature is refused: the aggregator knows no key "not-a-key-of-theirs".',
      expect.stringMatching(/^The webhook's signature is refused: the signature was issued 6\d\d s ago/),
    ]);
    // A body changed after signing.
    const signed = await aggregator.signedWebhook(payload);
    const tampered = await offFetch("/hooks/bank", { method: "POST", headers: { [VERIFICATION_HEADER]: signed.signature, "content-type": "application/json" }, body: signed.body.replace("SYNC", "SYNC ") });
    expect(tampered.status).toBe(403);
    expect((await apiAs(c, "/api/v1/sync-history")).body.runs).toHaveLength(1);
  });

  it("refuses to link until the owner's email is verified, and where the deployment lacks the aggregator or the token key", async () => {
    const owner = await signedUp();
    const unverified: Customer = { ...owner, session: await signInAs(owner) };
    const early = await openLink(unverified);
    expect(early.status).toBe(403);
    expect(early.page).toContain("Verify the owner&#39;s email");
    await verifyFromMail(mail, owner.email);
    const noAggregator = await postForm("/settings/banks/link", {}, { session: unverified.session, vars: { AGGREGATOR_CLIENT_ID: undefined } });
    expect(noAggregator.status).toBe(503);
    expect(await noAggregator.text()).toContain("no aggregator credentials");
    const noKey = await postForm("/settings/banks/link", {}, { session: unverified.session, vars: { BANK_TOKEN_KEY: undefined } });
    expect(noKey.status).toBe(503);
    expect(await noKey.text()).toContain("no BANK_TOKEN_KEY");
    expect(aggregator.linkCalls).toEqual([]);
  });
});

describe("bank connections across tenants and credentials", () => {
  it("are another tenant's 404: the API, disconnecting, signing in again and a link's return", async () => {
    const a = await customer();
    const b = await customer();
    const { connection } = await linkBank(a);
    const opened = await openLink(a);
    const { returnTo } = aggregator.finishLink(opened.linkToken!, "Prairie Credit Union");
    const id = connection.connection_id;
    expect((await apiAs(b, `/api/v1/connections/${id}`)).body).toMatchObject({ status: 404, code: "not_found" });
    expect((await apiAs(b, "/api/v1/connections")).body.connections).toEqual([]);
    expect((await postForm(`/settings/banks/${id}/disconnect`, {}, { session: b.session })).status).toBe(404);
    expect((await postForm(`/settings/banks/${id}/reauthorise`, {}, { session: b.session })).status).toBe(404);
    expect((await comeBack(b, returnTo)).status).toBe(404);
    // a's own return still links a's bank.
    expect((await comeBack(a, returnTo)).page).toContain("Prairie Credit Union is connected");
    expect((await apiAs(a, `/api/v1/connections/${id}`)).body.connection.status).toBe("connected");
  });

  it("are changed only by a same-origin session; the pages send others to /signin", async () => {
    const a = await customer();
    const { connection } = await linkBank(a);
    const foreign = await offFetch(`/settings/banks/${connection.connection_id}/disconnect`, {
      method: "POST",
      headers: { cookie: `svc_session=${a.session}`, origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
    });
    expect(foreign.status).toBe(403);
    const anonymous = await postForm(`/settings/banks/${connection.connection_id}/disconnect`, {});
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/signin");
    expect((await apiAs(a, `/api/v1/connections/${connection.connection_id}`)).body.connection.status).toBe("connected");
    expect((await findTenant(env.INDEX_DB, a.tenant))!.emailVerifiedAt).not.toBeNull();
  });
});
