/** The aggregator's webhook signature: an ES256 JWT over the body's digest, checked against the key it names. */
import { describe, expect, it } from "vitest";
import { base64url } from "../../auth/crypto";
import type { WebhookKey } from "./link";
import { MAX_SIGNATURE_AGE_SECONDS, signatureKeyId, signatureProblem, signWebhook } from "./webhook-signature";

async function keyPair() {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const privateJwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  const { kty, crv, x, y } = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
  return { privateJwk, key: { jwk: { kty, crv, x, y }, expiredAt: null } as WebhookKey };
}

const BODY = JSON.stringify({ webhook_type: "TRANSACTIONS", webhook_code: "SYNC_UPDATES_AVAILABLE", item_id: "item-1" });
const NOW = new Date("2026-11-20T15:00:00Z");

describe("the aggregator's webhook signature", () => {
  it("holds for the body it signed, under the key it names, while fresh", async () => {
    const { privateJwk, key } = await keyPair();
    const jwt = await signWebhook(privateJwk, "k1", BODY, NOW);
    expect(signatureKeyId(jwt)).toBe("k1");
    expect(await signatureProblem(jwt, BODY, key, NOW)).toBeNull();
    expect(await signatureProblem(jwt, BODY, key, new Date(NOW.getTime() + (MAX_SIGNATURE_AGE_SECONDS - 1) * 1000))).toBeNull();
  });

  it("is refused for another body, another key, an old or future one, an expired key, none at all", async () => {
    const { privateJwk, key } = await keyPair();
    const other = await keyPair();
    const jwt = await signWebhook(privateJwk, "k1", BODY, NOW);
    expect(await signatureProblem(jwt, BODY.replace("item-1", "item-2"), key, NOW)).toBe("the body is not the one that was signed");
    expect(await signatureProblem(jwt, `${BODY} `, key, NOW)).toBe("the body is not the one that was signed");
    expect(await signatureProblem(jwt, BODY, other.key, NOW)).toBe("the signature does not verify");
    expect(await signatureProblem(jwt, BODY, key, new Date(NOW.getTime() + 6 * 60_000))).toBe("the signature was issued 360 s ago, more than 300 s");
    expect(await signatureProblem(jwt, BODY, key, new Date(NOW.getTime() - 6 * 60_000))).toBe("the signature says it was issued 360 s from now");
    expect(await signatureProblem(jwt, BODY, { ...key, expiredAt: "2026-11-20T14:00:00.000Z" }, NOW)).toBe('the key "k1" expired at 2026-11-20T14:00:00.000Z');
    expect(await signatureProblem(jwt, BODY, null, NOW)).toBe('the aggregator knows no key "k1"');
    expect(await signatureProblem(null, BODY, key, NOW)).toBe("no Plaid-Verification header");
  });

  it("is refused when it is not an ES256 JWT naming its key, or its parts are tampered with", async () => {
    const { privateJwk, key } = await keyPair();
    const jwt = await signWebhook(privateJwk, "k1", BODY, NOW);
    const [header, payload, signature] = jwt.split(".") as [string, string, string];
    const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));
    for (const forged of [
      `${encode({ alg: "none", kid: "k1" })}.${payload}.`,
      `${encode({ alg: "HS256", kid: "k1" })}.${payload}.${signature}`,
      `${encode({ alg: "ES256" })}.${payload}.${signature}`,
      `${header}.${payload}`,
      "not a jwt",
    ]) {
      expect(await signatureProblem(forged, BODY, key, NOW), forged).toBe("the Plaid-Verification header is not an ES256 JWT naming its key");
    }
    // A payload that says another time or digest, under the same signature.
    const later = encode({ iat: Math.floor(NOW.getTime() / 1000), request_body_sha256: "0".repeat(64) });
    expect(await signatureProblem(`${header}.${later}.${signature}`, BODY, key, NOW)).toBe("the signature does not verify");
    expect(await signatureProblem(`${header}.${payload}.${signature.slice(0, -4)}AAAA`, BODY, key, NOW)).toBe("the signature does not verify");
    expect(await signatureProblem(`${header}.${payload}.***`, BODY, key, NOW)).toBe("the signature is not base64url");
  });
});
