/** Sealed secrets: AES-GCM under the deployment's key, bound to whose secret it is, opened by the previous key while it rotates. */
import { describe, expect, it } from "vitest";
import { open, seal, SealError } from "./sealing";

const key = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));

describe("sealing", () => {
  it("opens what it sealed, and never seals the same way twice", async () => {
    const keys = { current: key(), previous: null };
    const [a, b] = [await seal(keys, "1//refresh-token", "export-destination:acme"), await seal(keys, "1//refresh-token", "export-destination:acme")];
    expect(a).toMatch(/^gcm1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("refresh");
    expect(await open(keys, a, "export-destination:acme")).toEqual({ plaintext: "1//refresh-token", stale: false });
  });

  it("does not open for another context, another key, or a changed byte", async () => {
    const keys = { current: key(), previous: null };
    const sealed = await seal(keys, "secret", "export-destination:acme");
    await expect(open(keys, sealed, "export-destination:other")).rejects.toThrow(SealError);
    await expect(open({ current: key(), previous: null }, sealed, "export-destination:acme")).rejects.toThrow(SealError);
    const [form, iv, body] = sealed.split(".");
    // The body's first character: all six of its bits are the ciphertext's (a last character's may be padding, which decodes the same).
    const flipped = `${form}.${iv}.${body!.startsWith("A") ? "B" : "A"}${body!.slice(1)}`;
    await expect(open(keys, flipped, "export-destination:acme")).rejects.toThrow(SealError);
    await expect(open(keys, "plain text", "export-destination:acme")).rejects.toThrow("not sealed in a form this service reads");
  });

  it("opens with the previous key while the key rotates, and says so", async () => {
    const [old, next] = [key(), key()];
    const sealed = await seal({ current: old, previous: null }, "secret", "c");
    expect(await open({ current: next, previous: old }, sealed, "c")).toEqual({ plaintext: "secret", stale: true });
  });

  it("refuses a key that is not 32 bytes, naming it", async () => {
    await expect(seal({ current: btoa("short"), previous: null }, "x", "c", "SPREADSHEET_TOKEN_KEY")).rejects.toThrow(
      "SPREADSHEET_TOKEN_KEY must be 32 random bytes in base64 (e.g. openssl rand -base64 32)",
    );
  });
});
