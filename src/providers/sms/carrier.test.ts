/** The carrier adapter against a fake of the REST messages API. */
import { describe, expect, it } from "vitest";
import { carrierSignature, HttpCarrier, signatureValid } from "./carrier";
import { SmsError } from "./types";

const CONFIG = { baseUrl: "https://carrier.test", accountSid: "AC123", authToken: "tok-456", from: "+15555550199" };

/** A fake carrier: checks basic auth and the form, answers a sid or the carrier's error shape. */
function fakeCarrier(answer?: Response) {
  const seen: { url: string; auth: string | null; form: Record<string, string> }[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const form = Object.fromEntries(new URLSearchParams(await request.text()));
    seen.push({ url: request.url, auth: request.headers.get("authorization"), form });
    if (answer) return answer;
    if (request.headers.get("authorization") !== `Basic ${btoa("AC123:tok-456")}`) return Response.json({ code: 20003, message: "Authenticate", status: 401 }, { status: 401 });
    return Response.json({ sid: "SM9f8e7d", status: "queued", to: form.To, from: form.From, body: form.Body }, { status: 201 });
  };
  return { seen, fetcher };
}

describe("the carrier adapter", () => {
  it("posts the form with basic auth and answers the message sid", async () => {
    const fake = fakeCarrier();
    expect(await new HttpCarrier(CONFIG, fake.fetcher).send({ to: "+15555550142", body: "Your code: 123456" })).toEqual({ sid: "SM9f8e7d" });
    expect(fake.seen).toEqual([
      { url: "https://carrier.test/2010-04-01/Accounts/AC123/Messages.json", auth: `Basic ${btoa("AC123:tok-456")}`, form: { To: "+15555550142", From: "+15555550199", Body: "Your code: 123456" } },
    ]);
  });

  it("names a refusal, a missing sid and an unreachable carrier", async () => {
    const refused = new HttpCarrier({ ...CONFIG, authToken: "wrong" }, fakeCarrier().fetcher);
    await expect(refused.send({ to: "+15555550142", body: "x" })).rejects.toThrow(new SmsError("the SMS carrier answered HTTP 401: Authenticate"));
    const noSid = new HttpCarrier(CONFIG, fakeCarrier(Response.json({ status: "queued" }, { status: 201 })).fetcher);
    await expect(noSid.send({ to: "+1", body: "x" })).rejects.toThrow(/no message sid/);
    const down = new HttpCarrier(CONFIG, async () => {
      throw new TypeError("Network connection lost.");
    });
    await expect(down.send({ to: "+1", body: "x" })).rejects.toThrow(/could not be reached/);
  });
});

describe("the webhook signature", () => {
  it("is checked over the URL and the sorted parameters, so any change breaks it", async () => {
    const url = "https://ledger.example/hooks/sms";
    const params = { To: "+15555550199", From: "+15555550142", Body: "hi", MessageSid: "SM1" };
    const signature = await carrierSignature("tok-456", url, params);
    expect(await signatureValid("tok-456", url, { ...params }, signature)).toBe(true);
    expect(await signatureValid("tok-456", url, { ...params, Body: "hi!" }, signature)).toBe(false);
    expect(await signatureValid("tok-456", `${url}?x=1`, params, signature)).toBe(false);
    expect(await signatureValid("other", url, params, signature)).toBe(false);
    expect(await signatureValid("tok-456", url, params, null)).toBe(false);
  });
});
