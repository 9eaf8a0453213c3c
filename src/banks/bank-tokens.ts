/**
 * The aggregator's access tokens, encrypted at rest: AES-256-GCM (WebCrypto) under a key
 * from the `BANK_TOKEN_KEY` secret, a random 96-bit IV per token, and the tenant and item
 * bound in as additional data, so a token copied into another tenant's ledger, or onto
 * another item, does not decrypt. A stored token names its key's id:
 * `v1.<key id>.<iv>.<ciphertext>` (base64url), so keys can rotate: `BANK_TOKEN_KEY` lists
 * `<key id>:<base64 of 32 bytes>` entries separated by commas, the first encrypts and any
 * listed decrypts; the daily run re-encrypts every live token under the first
 * (`rewrapBankTokens`), after which an old key can be dropped (docs/deploy.md, "Rotating keys").
 */
import { ledgerOf, sandboxOn, type Env } from "../env";
import { valueOf } from "../ledger/outcome";
import { base64url } from "../auth/crypto";

const FORMAT = "v1";
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
/** A sandbox deployment's key: its tokens reach only the sandbox's own stand-in bank. */
const SANDBOX_KEY = "sandbox:c2FuZGJveC1iYW5rLXRva2VuLWtleS0zMi1ieXRlcyE=";

export class BankTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BankTokenError";
  }
}

export interface KeyRing {
  /** The key new tokens are encrypted under. */
  current: string;
  keys: Map<string, Uint8Array>;
}

/** Whose token it is: bound into the ciphertext. */
export interface TokenOwner {
  tenant: string;
  itemId: string;
}

function fromBase64(text: string): Uint8Array | null {
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The deployment's keys, or null when it holds none. A malformed secret is an error that names what is wrong, never a key of ours. */
export function bankTokenKeys(env: Pick<Env, "BANK_TOKEN_KEY" | "SANDBOX">): KeyRing | null {
  const secret = env.BANK_TOKEN_KEY?.trim() || (sandboxOn(env) ? SANDBOX_KEY : "");
  if (secret === "") return null;
  const keys = new Map<string, Uint8Array>();
  for (const entry of secret.split(",").map((e) => e.trim()).filter((e) => e !== "")) {
    const at = entry.indexOf(":");
    const id = entry.slice(0, at);
    const key = at > 0 ? fromBase64(entry.slice(at + 1)) : null;
    if (!KEY_ID.test(id) || !key || key.byteLength !== 32) {
      throw new BankTokenError("BANK_TOKEN_KEY must list `<key id>:<base64 of 32 bytes>` entries separated by commas (key ids: letters, digits, - and _)");
    }
    if (keys.has(id)) throw new BankTokenError(`BANK_TOKEN_KEY lists the key id "${id}" twice`);
    keys.set(id, key);
  }
  const current = keys.keys().next().value;
  if (current === undefined) return null;
  return { current, keys };
}

function aesKey(raw: Uint8Array, usage: "encrypt" | "decrypt"): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, [usage]);
}

const context = (owner: TokenOwner) => new TextEncoder().encode(`bank-token:${owner.tenant}:${owner.itemId}`);

export async function encryptBankToken(ring: KeyRing, token: string, owner: TokenOwner): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await aesKey(ring.keys.get(ring.current)!, "encrypt");
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: context(owner) }, key, new TextEncoder().encode(token));
  return [FORMAT, ring.current, base64url(iv), base64url(new Uint8Array(sealed))].join(".");
}

/** The key id a stored token was encrypted under (null for the sandbox sign-up's empty token). */
export function keyIdOf(stored: string): string | null {
  const parts = stored.split(".");
  return parts.length === 4 && parts[0] === FORMAT ? parts[1]! : null;
}

export async function decryptBankToken(ring: KeyRing | null, stored: string, owner: TokenOwner): Promise<string> {
  const parts = stored.split(".");
  if (parts.length !== 4 || parts[0] !== FORMAT) throw new BankTokenError("the stored access token is not one this service encrypted");
  const [, keyId, ivText, sealedText] = parts as [string, string, string, string];
  if (ring === null) throw new BankTokenError("the deployment holds no BANK_TOKEN_KEY to decrypt access tokens with");
  const raw = ring.keys.get(keyId);
  if (!raw) throw new BankTokenError(`the access token was encrypted under key "${keyId}", which BANK_TOKEN_KEY no longer lists`);
  const iv = fromBase64(ivText);
  const sealed = fromBase64(sealedText);
  if (!iv || !sealed) throw new BankTokenError("the stored access token is not one this service encrypted");
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData: context(owner) }, await aesKey(raw, "decrypt"), sealed);
    return new TextDecoder().decode(plain);
  } catch {
    throw new BankTokenError(`the access token does not decrypt under key "${keyId}" for this tenant and item`);
  }
}

/**
 * Re-encrypts under the newest key every live connection token the tenant's ledger holds
 * under an older one (the daily run, so a rotated-out key can be dropped a day after the
 * new one is put first). Answers how many were re-encrypted; a token that does not
 * decrypt is left as it is (it is named in the log, and its sync run will say so).
 */
export async function rewrapBankTokens(env: Env, tenant: string): Promise<number> {
  const ring = bankTokenKeys(env);
  if (!ring) return 0;
  const ledger = ledgerOf(env, tenant);
  let rewrapped = 0;
  for (const connection of valueOf(await ledger.liveConnectionSecrets())) {
    const keyId = keyIdOf(connection.accessToken);
    if (keyId === null || keyId === ring.current) continue;
    const owner = { tenant, itemId: connection.itemId ?? "" };
    try {
      const token = await decryptBankToken(ring, connection.accessToken, owner);
      valueOf(await ledger.replaceBankToken(connection.id, await encryptBankToken(ring, token, owner)));
      rewrapped++;
    } catch (error) {
      if (!(error instanceof BankTokenError)) throw error;
      console.error(`connection ${connection.id} of ${tenant}: ${error.message}`);
    }
  }
  return rewrapped;
}
