/** Access tokens encrypted at rest: AES-GCM under a listed key, bound to their tenant and item, keys rotating. */
import { describe, expect, it } from "vitest";
import { bankTokenKeys, BankTokenError, decryptBankToken, encryptBankToken, keyIdOf } from "./bank-tokens";

const KEY_A = "ka:" + btoa(String.fromCharCode(...new Uint8Array(32).fill(7)));
const KEY_B = "kb:" + btoa(String.fromCharCode(...new Uint8Array(32).fill(9)));
const OWNER = { tenant: "acme-bakery", itemId: "item-1" };
const ring = (secret: string) => bankTokenKeys({ BANK_TOKEN_KEY: secret, SANDBOX: "off" })!;

describe("bank access tokens at rest", () => {
  it("are sealed under the first key, naming it, and open again", async () => {
    const sealed = await encryptBankToken(ring(KEY_A), "access-production-1234", OWNER);
    expect(sealed).toMatch(/^v1\.ka\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain("access-production");
    expect(keyIdOf(sealed)).toBe("ka");
    expect(await decryptBankToken(ring(KEY_A), sealed, OWNER)).toBe("access-production-1234");
    // A fresh IV each time: the same token never seals the same way twice.
    expect(await encryptBankToken(ring(KEY_A), "access-production-1234", OWNER)).not.toBe(sealed);
  });

  it("open only for their own tenant and item", async () => {
    const sealed = await encryptBankToken(ring(KEY_A), "access-production-1234", OWNER);
    await expect(decryptBankToken(ring(KEY_A), sealed, { ...OWNER, tenant: "other-tenant" })).rejects.toThrow(BankTokenError);
    await expect(decryptBankToken(ring(KEY_A), sealed, { ...OWNER, itemId: "item-2" })).rejects.toThrow(/does not decrypt under key "ka"/);
    const tampered = sealed.slice(0, -2) + (sealed.endsWith("AA") ? "BB" : "AA");
    await expect(decryptBankToken(ring(KEY_A), tampered, OWNER)).rejects.toThrow(BankTokenError);
  });

  it("rotate: a new key first seals, the old one still opens what it sealed, and a key dropped is named", async () => {
    const old = await encryptBankToken(ring(KEY_A), "access-old", OWNER);
    const rotated = ring(`${KEY_B}, ${KEY_A}`);
    expect(rotated.current).toBe("kb");
    expect(await decryptBankToken(rotated, old, OWNER)).toBe("access-old");
    expect(keyIdOf(await encryptBankToken(rotated, "access-new", OWNER))).toBe("kb");
    await expect(decryptBankToken(ring(KEY_B), old, OWNER)).rejects.toThrow('the access token was encrypted under key "ka", which BANK_TOKEN_KEY no longer lists');
    await expect(decryptBankToken(null, old, OWNER)).rejects.toThrow("the deployment holds no BANK_TOKEN_KEY to decrypt access tokens with");
  });

  it("read the secret strictly: ids, 32-byte keys, no id twice", () => {
    expect(bankTokenKeys({ BANK_TOKEN_KEY: "", SANDBOX: "off" })).toBeNull();
    expect(bankTokenKeys({ BANK_TOKEN_KEY: undefined, SANDBOX: "off" })).toBeNull();
    for (const bad of ["no-colon", "k:" + btoa("short"), "bad id:" + KEY_A.slice(3), "k:!!!notbase64", `${KEY_A},${KEY_A}`]) {
      expect(() => bankTokenKeys({ BANK_TOKEN_KEY: bad, SANDBOX: "off" }), bad).toThrow(BankTokenError);
    }
    // A sandbox deployment without a key of its own has a fixed one (its tokens reach only the stand-in bank).
    expect(bankTokenKeys({ BANK_TOKEN_KEY: undefined, SANDBOX: "on" })!.current).toBe("sandbox");
  });

  it("refuse what this service never sealed", async () => {
    await expect(decryptBankToken(ring(KEY_A), "access-production-plain", OWNER)).rejects.toThrow("the stored access token is not one this service encrypted");
    expect(keyIdOf("")).toBeNull();
  });
});
