/**
 * The notice job: a notice waiting in the thread is texted once to the owner's enrolled
 * phone through the carrier's REST API (a fake of it here), its outcome filed; a
 * redelivered job sends nothing; a refused text is filed as failed.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ledgerOf, type Env } from "../env";
import { postTextedNotice } from "../ledger/messages";
import type { TenantLedger } from "../ledger/tenant-ledger";
import { api, createTenant, ro, type SandboxTenant } from "../../test/fixtures/sandbox";
import { textNotice } from "./notices";

const AT = "2026-11-21T11:00:00.000Z";

/** A deployment with the sandbox off and a carrier's credentials, the carrier being `fetch`. */
const withCarrier = (): Env => ({ ...env, SANDBOX: "off", SMS_API_BASE_URL: "https://carrier.test", SMS_ACCOUNT_SID: "AC1", SMS_AUTH_TOKEN: "tok", SMS_FROM: "+15555550199" });

function fakeCarrier(answer: () => Response) {
  const sent: Record<string, string>[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const form: Record<string, string> = {};
    for (const [name, value] of await request.formData()) if (typeof value === "string") form[name] = value;
    sent.push(form);
    return answer();
  };
  return { sent, fetcher };
}

/** A notice posted in the tenant's thread, waiting for its text, as the ledger files it with a mismatch. */
async function waitingNotice(t: SandboxTenant, body: string): Promise<number> {
  return runInDurableObject(ledgerOf(env, t.tenant), (instance: TenantLedger) => postTextedNotice(instance.db, body, AT));
}

const listed = async (t: SandboxTenant, id: number) => (await api(ro(t), "/api/v1/messages")).body.messages.find((m: any) => m.message_id === id);

describe("texting a notice", () => {
  it("texts it once to the enrolled phone and files the carrier's sid", async () => {
    const t = await createTenant({ phone: "+15555550142" });
    const id = await waitingNotice(t, "Parity mismatch on 2026-11-20");
    expect(await listed(t, id)).toMatchObject({ direction: "out", channel: "sms", status: "sending", provider_sid: "" });
    const carrier = fakeCarrier(() => Response.json({ sid: "SMnotice1" }, { status: 201 }));
    const job = { kind: "notice" as const, tenant: t.tenant, messageId: id };

    expect(await textNotice(withCarrier(), job, carrier.fetcher)).toBe("sent");
    expect(carrier.sent).toEqual([{ To: "+15555550142", From: "+15555550199", Body: "Parity mismatch on 2026-11-20" }]);
    expect(await listed(t, id)).toMatchObject({ status: "sent", provider_sid: "SMnotice1" });
    // Delivered again: the notice is sent already, and nothing more goes out.
    expect(await textNotice(withCarrier(), job, carrier.fetcher)).toBe("done already");
    expect(carrier.sent).toHaveLength(1);
  });

  it("files a refused text as failed, and one the deployment can no longer send too", async () => {
    const t = await createTenant();
    const refused = await waitingNotice(t, "refused");
    const carrier = fakeCarrier(() => Response.json({ message: "The 'To' number is not a valid phone number." }, { status: 400 }));
    expect(await textNotice(withCarrier(), { kind: "notice", tenant: t.tenant, messageId: refused }, carrier.fetcher)).toBe("failed");
    expect(await listed(t, refused)).toMatchObject({ status: "failed", provider_sid: "" });

    const stranded = await waitingNotice(t, "no carrier");
    const none: Env = { ...env, SANDBOX: "off", SMS_ACCOUNT_SID: undefined, SMS_AUTH_TOKEN: undefined, SMS_FROM: "" };
    expect(await textNotice(none, { kind: "notice", tenant: t.tenant, messageId: stranded })).toBe("failed");
    expect(await listed(t, stranded)).toMatchObject({ status: "failed" });
  });

  it("texts nothing for a message that is no notice waiting", async () => {
    const t = await createTenant();
    const carrier = fakeCarrier(() => Response.json({ sid: "SMx" }, { status: 201 }));
    expect(await textNotice(withCarrier(), { kind: "notice", tenant: t.tenant, messageId: 424242 }, carrier.fetcher)).toBe("done already");
    expect(carrier.sent).toEqual([]);
  });
});
