/**
 * The message thread: the carrier's signed inbound webhook (checked against a signature
 * computed independently here), the sandbox's inbound texts, drafts that stay invisible
 * until a person releases them on /settings, and the `limit` clamp.
 */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_CARRIER_AUTH_TOKEN } from "../../providers/sms/sandbox";
import { api, BASE, createTenant, outbox, ro, type SandboxTenant } from "../../../test/fixtures/sandbox";

/** HMAC-SHA1 over the URL and the sorted name+value pairs, base64: written here from the carrier's documentation, not imported. */
async function independentSignature(token: string, url: string, params: Record<string, string>): Promise<string> {
  let data = url;
  for (const name of Object.keys(params).sort()) data += name + params[name];
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(token), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const bytes = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(data)));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function hook(url: string, params: Record<string, string>, signature: string | null) {
  return SELF.fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(signature ? { "x-twilio-signature": signature } : {}) },
    body: new URLSearchParams(params),
  });
}

async function settingsForm(t: SandboxTenant, path: string, fields: Record<string, string>) {
  const answer = await SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { cookie: `svc_session=${t.session}`, "content-type": "application/x-www-form-urlencoded", origin: BASE },
    body: new URLSearchParams(fields),
  });
  return { status: answer.status, html: await answer.text() };
}

const thread = async (t: SandboxTenant, query = "") => (await api(ro(t), `/api/v1/messages${query}`)).body;

describe("the inbound webhook", () => {
  let t: SandboxTenant;
  const url = () => `${BASE}/hooks/sms?tenant=${t.tenant}`;
  const params = () => ({ AccountSid: "AC0000", MessageSid: "SMa1b2c3", From: "+15555550177", To: "+15555550199", Body: "Was the $84 at Costco business?" });
  beforeAll(async () => {
    t = await createTenant({ phone: "+15555550177" });
  });

  it("accepts a request carrying the carrier's signature, and lists it as an inbound text", async () => {
    const answer = await hook(url(), params(), await independentSignature(SANDBOX_CARRIER_AUTH_TOKEN, url(), params()));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/xml");
    expect((await thread(t)).messages[0]).toMatchObject({ direction: "in", channel: "sms", status: "received", body: "Was the $84 at Costco business?", provider_sid: "SMa1b2c3" });
  });

  it("refuses a bad signature, a missing one and a tampered body with 403, filing nothing", async () => {
    const before = (await thread(t)).count;
    const good = await independentSignature(SANDBOX_CARRIER_AUTH_TOKEN, url(), params());
    for (const [signature, body] of [
      [await independentSignature("another-token", url(), params()), params()],
      [null, params()],
      [good, { ...params(), Body: "Send the books to me" }],
    ] as const) {
      const answer = await hook(url(), body, signature);
      expect(answer.status).toBe(403);
      expect(((await answer.json()) as any).code).toBe("signature_invalid");
    }
    expect((await thread(t)).count).toBe(before);
  });

  it("takes the sandbox's inbound texts through the same code", async () => {
    const answer = await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/inbound-sms`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ body: "Receipt is in the glovebox" }),
    });
    expect(answer.status).toBe(202);
    expect((await thread(t)).messages[0]).toMatchObject({ direction: "in", body: "Receipt is in the glovebox", provider_sid: expect.stringMatching(/^SM/) });
  });
});

describe("a phone two tenants share", () => {
  const PHONE = "+15555550155";
  let a: SandboxTenant;
  let b: SandboxTenant;
  const url = `${BASE}/hooks/sms`;
  let n = 0;
  /** The carrier's signed call for a text from `from`; answers the TwiML. */
  const text = async (body: string, from = PHONE, address = url) => {
    n += 1;
    const params = { AccountSid: "AC0000", MessageSid: `SMshared${n}`, From: from, To: "+15555550199", Body: body };
    const answer = await hook(address, params, await independentSignature(SANDBOX_CARRIER_AUTH_TOKEN, address, params));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/xml");
    return answer.text();
  };
  const bodies = async (t: SandboxTenant) => (await thread(t)).messages.map((m: any) => m.body);
  const EMPTY = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

  beforeAll(async () => {
    a = await createTenant({ phone: PHONE });
    b = await createTenant({ phone: PHONE });
  });

  it("lands a text in the one tenant it names, by handle, in any case, anywhere in it", async () => {
    expect(await text(`${a.tenant}: was the $84 at Costco business?`)).toBe(EMPTY);
    expect(await text(`Receipt for ${b.tenant.toUpperCase()} is in the glovebox`)).toBe(EMPTY);
    expect(await bodies(a)).toEqual([`${a.tenant}: was the $84 at Costco business?`]);
    expect(await bodies(b)).toEqual([`Receipt for ${b.tenant.toUpperCase()} is in the glovebox`]);
  });

  it("asks the sender which business, and files nothing, when the text names neither or both", async () => {
    const [first, second] = [a.tenant, b.tenant].sort();
    for (const body of ["Was the $84 at Costco business?", `${a.tenant} and ${b.tenant} both bought lunch`, `${a.tenant}x is no handle`]) {
      const answer = await text(body);
      expect(answer).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?><Response><Message>This number is enrolled with 2 businesses: /);
      expect(answer).toContain(`${first}, ${second}.`);
      expect(answer).toContain(`e.g. &quot;${first}: ...&quot; Nothing was filed.</Message></Response>`);
    }
    expect(await bodies(a)).toHaveLength(1);
    expect(await bodies(b)).toHaveLength(1);
  });

  it("lands a text from a phone one tenant holds whatever it says, and files one from an unknown phone nowhere", async () => {
    const solo = await createTenant({ phone: "+15555550156" });
    expect(await text("no name in here", "+15555550156")).toBe(EMPTY);
    expect(await bodies(solo)).toEqual(["no name in here"]);
    expect(await text(`${a.tenant}: hello`, "+15555550157")).toBe(EMPTY);
    expect(await bodies(a)).toHaveLength(1);
  });

  it("lands a text whose signed address names a tenant there only if that tenant holds the phone", async () => {
    expect(await text("for b, by address", PHONE, `${url}?tenant=${b.tenant}`)).toBe(EMPTY);
    expect((await bodies(b))[0]).toBe("for b, by address");
    const stranger = await createTenant({ phone: "+15555550158" });
    expect(await text("not my phone", PHONE, `${url}?tenant=${stranger.tenant}`)).toBe(EMPTY);
    expect(await bodies(stranger)).toEqual([]);
    expect(await bodies(a)).toHaveLength(1);
  });

  it("is driven the same way from the sandbox, by phone", async () => {
    const send = async (body: string) =>
      (await SELF.fetch(`${BASE}/sandbox/inbound-sms`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ from: PHONE, body }) })).json() as Promise<any>;
    expect(await send(`${a.tenant} here`)).toMatchObject({ received: true, landed_in: a.tenant, reply: null, message_sid: expect.stringMatching(/^SM/) });
    expect(await send("whose is this?")).toMatchObject({ received: false, landed_in: null, reply: expect.stringContaining("Which business is this message for?") });
    expect(await bodies(a)).toEqual([`${a.tenant} here`, `${a.tenant}: was the $84 at Costco business?`]);
  });
});

describe("replies", () => {
  it("stay invisible as drafts until a person releases them, which texts the customer's phone", async () => {
    const t = await createTenant({ phone: "+15555550188" });
    expect((await settingsForm(t, "/settings/messages", { body: "Yes, business: office snacks." })).status).toBe(201);
    expect((await thread(t)).messages).toEqual([]);
    expect(await outbox(t)).toEqual([]);

    const page = await settingsForm(t, "/settings/phone", { phone: "+15555550189" });
    expect(page.status).toBe(200);
    const draftId = /\/settings\/messages\/(\d+)\/release/.exec(page.html)![1];
    expect((await settingsForm(t, `/settings/messages/${draftId}/release`, {})).status).toBe(200);

    const [sent] = await outbox(t);
    expect(sent).toMatchObject({ to: "+15555550189", body: "Yes, business: office snacks." });
    expect((await thread(t)).messages).toEqual([
      { message_id: Number(draftId), direction: "out", channel: "sms", status: "sent", body: "Yes, business: office snacks.", provider_sid: sent!.sid, created_at: expect.any(String) },
    ]);
    // Released once: a second release is refused and sends nothing.
    expect((await settingsForm(t, `/settings/messages/${draftId}/release`, {})).status).toBe(409);
    expect(await outbox(t)).toHaveLength(1);
  });

  it("are not sent without an outbound SMS credential: the draft stays a draft", async () => {
    const t = await createTenant({ sms: false });
    const page = await settingsForm(t, "/settings/messages", { body: "Hello" });
    const draftId = /\/settings\/messages\/(\d+)\/release/.exec(page.html)![1];
    expect((await settingsForm(t, `/settings/messages/${draftId}/release`, {})).status).toBe(503);
    expect((await thread(t)).messages).toEqual([]);
  });
});

describe("get_messages", () => {
  it("lists newest first, defaults to 50, clamps above 200 and counts this response", async () => {
    const t = await createTenant({ phone: "+15555550166" });
    for (let i = 0; i < 205; i++) {
      await SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/inbound-sms`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ body: `text ${i}` }) });
    }
    const first = await thread(t);
    expect(first.count).toBe(50);
    expect(first.messages[0].body).toBe("text 204");
    expect((await thread(t, "?limit=3")).messages.map((m: any) => m.body)).toEqual(["text 204", "text 203", "text 202"]);
    const clamped = await thread(t, "?limit=500");
    expect(clamped.count).toBe(200);
    expect(clamped.messages.at(-1).body).toBe("text 5");
    expect((await api(ro(t), "/api/v1/messages?limit=0")).status).toBe(400);
  });
});
