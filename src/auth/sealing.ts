/**
 * Secrets kept at rest, sealed: AES-256-GCM under a key the deployment holds as a secret
 * (32 random bytes, base64), a fresh 96-bit IV per seal, and the secret's context (whose
 * it is) as additional data, so a sealed value copied to another tenant's row does not
 * open. Rotation: the new key seals, the previous one still opens (`previous`), and a value
 * opened with the previous key is sealed again with the new one by whoever holds it.
 *
 * Sealed form: `gcm1.<iv>.<ciphertext and tag>`, both base64url.
 */
import { base64url } from "./crypto";

const FORM = "gcm1";
const encoder = new TextEncoder();

export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SealError";
  }
}

export interface SealingKeys {
  /** The key that seals (and opens). */
  current: string;
  /** A key being rotated out: it still opens what it sealed. */
  previous: string | null;
}

function bytesOf(base64: string): Uint8Array {
  const standard = base64.trim().replaceAll("-", "+").replaceAll("_", "/");
  try {
    return Uint8Array.from(atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, "=")), (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array(0);
  }
}

async function importKey(secret: string, name: string): Promise<CryptoKey> {
  const raw = bytesOf(secret);
  if (raw.byteLength !== 32) throw new SealError(`${name} must be 32 random bytes in base64 (e.g. openssl rand -base64 32)`);
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

export async function seal(keys: SealingKeys, plaintext: string, context: string, keyName = "the sealing key"): Promise<string> {
  const key = await importKey(keys.current, keyName);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(context) }, key, encoder.encode(plaintext));
  return `${FORM}.${base64url(iv)}.${base64url(new Uint8Array(sealed))}`;
}

/** The plaintext, and whether it was sealed with the previous key (then seal it again). */
export async function open(keys: SealingKeys, sealed: string, context: string, keyName = "the sealing key"): Promise<{ plaintext: string; stale: boolean }> {
  const [form, iv, body] = sealed.split(".");
  if (form !== FORM || !iv || !body) throw new SealError("the value is not sealed in a form this service reads");
  const candidates = keys.previous ? [keys.current, keys.previous] : [keys.current];
  for (const [index, secret] of candidates.entries()) {
    const key = await importKey(secret, index === 0 ? keyName : `${keyName} (previous)`);
    try {
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytesOf(iv), additionalData: encoder.encode(context) }, key, bytesOf(body));
      return { plaintext: new TextDecoder().decode(plain), stale: index > 0 };
    } catch {
      // Not this key (or not this context): try the next.
    }
  }
  throw new SealError("the value does not open with the deployment's key (was it sealed under a key since retired?)");
}
