/**
 * The aggregator's webhook signature (the common shape): a JWT in the `Plaid-Verification`
 * header, signed ES256 with a key the aggregator names by `kid` in the JWT's header and
 * serves at `/webhook_verification_key/get`. Its payload says when it was issued (`iat`)
 * and the SHA-256 of the exact request body (`request_body_sha256`). A webhook is taken
 * only when the signature verifies under that key, the key has not expired, it was issued
 * in the last five minutes, and the body's digest matches.
 */
import { base64url, constantTimeEqual, sha256Hex } from "../../auth/crypto";
import type { WebhookKey } from "./link";

export const VERIFICATION_HEADER = "plaid-verification";
/** How old a webhook's signature may be. */
export const MAX_SIGNATURE_AGE_SECONDS = 5 * 60;

const ECDSA = { name: "ECDSA", namedCurve: "P-256" } as const;

function fromBase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

function jsonOf(part: string): Record<string, unknown> | null {
  const bytes = fromBase64url(part);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The key id a signature names, or null when the header is not a JWT of the expected kind. */
export function signatureKeyId(jwt: string | null): string | null {
  const header = jwt?.split(".").length === 3 ? jsonOf(jwt.split(".")[0]!) : null;
  if (!header || header.alg !== "ES256" || typeof header.kid !== "string" || header.kid === "") return null;
  return header.kid;
}

/** Why a webhook's signature is refused, or null when it holds. */
export async function signatureProblem(jwt: string | null, body: string, key: WebhookKey | null, now: Date): Promise<string | null> {
  if (!jwt) return "no Plaid-Verification header";
  const parts = jwt.split(".");
  const keyId = signatureKeyId(jwt);
  if (parts.length !== 3 || keyId === null) return "the Plaid-Verification header is not an ES256 JWT naming its key";
  if (!key) return `the aggregator knows no key "${keyId}"`;
  if (key.expiredAt !== null && Date.parse(key.expiredAt) <= now.getTime()) return `the key "${keyId}" expired at ${key.expiredAt}`;
  const [header, payload, signature] = parts as [string, string, string];
  const signatureBytes = fromBase64url(signature);
  if (!signatureBytes) return "the signature is not base64url";
  let verified = false;
  try {
    const publicKey = await crypto.subtle.importKey("jwk", { kty: key.jwk.kty, crv: key.jwk.crv, x: key.jwk.x, y: key.jwk.y }, ECDSA, false, ["verify"]);
    verified = await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, publicKey, signatureBytes, new TextEncoder().encode(`${header}.${payload}`));
  } catch {
    return `the key "${keyId}" is not a P-256 public key`;
  }
  if (!verified) return "the signature does not verify";
  const claims = jsonOf(payload);
  const issuedAt = claims?.iat;
  if (typeof issuedAt !== "number") return "the signature says not when it was issued";
  const age = now.getTime() / 1000 - issuedAt;
  if (age > MAX_SIGNATURE_AGE_SECONDS) return `the signature was issued ${Math.round(age)} s ago, more than ${MAX_SIGNATURE_AGE_SECONDS} s`;
  if (age < -MAX_SIGNATURE_AGE_SECONDS) return `the signature says it was issued ${Math.round(-age)} s from now`;
  const digest = claims?.request_body_sha256;
  if (typeof digest !== "string" || !constantTimeEqual(digest, await sha256Hex(body))) return "the body is not the one that was signed";
  return null;
}

/** A webhook's signature as the aggregator makes it: the sandbox's stand-in signs its own webhooks with it. */
export async function signWebhook(privateJwk: JsonWebKey, keyId: string, body: string, issuedAt: Date): Promise<string> {
  const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));
  const header = encode({ alg: "ES256", kid: keyId, typ: "JWT" });
  const payload = encode({ iat: Math.floor(issuedAt.getTime() / 1000), request_body_sha256: await sha256Hex(body) });
  const key = await crypto.subtle.importKey("jwk", privateJwk, ECDSA, false, ["sign"]);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, new TextEncoder().encode(`${header}.${payload}`)));
  return `${header}.${payload}.${base64url(signature)}`;
}
