/**
 * The common SMS carrier's REST messages API: `POST {base}/2010-04-01/Accounts/{sid}/Messages.json`,
 * a form body (To, From, Body) and HTTP basic auth (account sid : auth token). It answers the
 * message's `sid`. Its inbound webhook is signed: base64 HMAC-SHA1, keyed with the auth
 * token, over the full URL followed by every form parameter, sorted by name, as name+value.
 */
import { safeJson, withTimeout, endpoint } from "../http";
import { SmsError, type SmsCarrier } from "./types";

export const CARRIER_API_BASE_URL = "https://api.twilio.com";
export const SIGNATURE_HEADER = "x-twilio-signature";

export interface CarrierConfig {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** The number texts are sent from (E.164). */
  from: string;
}

export class HttpCarrier implements SmsCarrier {
  constructor(
    private readonly config: CarrierConfig,
    private readonly doFetch: typeof fetch = fetch,
    private readonly timeoutMs = 15_000,
  ) {}

  async send(message: { to: string; body: string }): Promise<{ sid: string }> {
    const url = endpoint(this.config.baseUrl || CARRIER_API_BASE_URL, `2010-04-01/Accounts/${encodeURIComponent(this.config.accountSid)}/Messages.json`);
    let response: Response;
    try {
      response = await withTimeout(this.timeoutMs, (signal) =>
        this.doFetch(url, {
          method: "POST",
          headers: {
            authorization: `Basic ${btoa(`${this.config.accountSid}:${this.config.authToken}`)}`,
            "content-type": "application/x-www-form-urlencoded",
            accept: "application/json",
          },
          body: new URLSearchParams({ To: message.to, From: this.config.from, Body: message.body }),
          signal,
        }),
      );
    } catch (cause) {
      throw new SmsError(`the SMS carrier could not be reached: ${String(cause)}`);
    }
    const answer = safeJson(await response.text()) as { sid?: unknown; message?: unknown } | undefined;
    if (!response.ok) {
      const words = typeof answer?.message === "string" ? `: ${answer.message.slice(0, 200)}` : "";
      throw new SmsError(`the SMS carrier answered HTTP ${response.status}${words}`);
    }
    if (typeof answer?.sid !== "string" || answer.sid === "") throw new SmsError("the SMS carrier's answer carried no message sid");
    return { sid: answer.sid };
  }
}

/** The carrier's signature of a webhook request: base64(HMAC-SHA1(authToken, url + sorted name+value pairs)). */
export async function carrierSignature(authToken: string, url: string, params: Record<string, string>): Promise<string> {
  const data = url + Object.keys(params).sort().map((name) => name + params[name]).join("");
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(authToken), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(data)));
  return btoa(String.fromCharCode(...mac));
}

/** Whether a webhook request carries the carrier's signature (compared in constant time). */
export async function signatureValid(authToken: string, url: string, params: Record<string, string>, presented: string | null): Promise<boolean> {
  if (!presented) return false;
  const expected = new TextEncoder().encode(await carrierSignature(authToken, url, params));
  const given = new TextEncoder().encode(presented);
  if (expected.byteLength !== given.byteLength) return false;
  return crypto.subtle.timingSafeEqual(expected, given);
}
