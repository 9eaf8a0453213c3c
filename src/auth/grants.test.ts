import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LAST_READ_RESOLUTION_MS, stampUse, type GrantRecord } from "./grants";

const NOW = new Date("2026-11-27T12:00:00Z");

function grantLastRead(lastReadAt: string | null): GrantRecord {
  return {
    id: 999_999,
    tenantId: "no-such-tenant",
    requestId: 1,
    viewerName: "An Auditor",
    viewerChannel: "+15555550100",
    tokenKid: "kid",
    createdAt: "2026-11-27T08:00:00.000Z",
    expiresAt: "2026-11-28T08:00:00.000Z",
    revokedAt: null,
    lastReadAt,
  };
}

/** Whether a read at NOW through a grant last read at `lastReadAt` writes the stamp. */
async function stamps(lastReadAt: string | null): Promise<boolean> {
  const deferred: Promise<unknown>[] = [];
  stampUse(env.INDEX_DB, grantLastRead(lastReadAt), NOW, (work) => deferred.push(work));
  await Promise.all(deferred);
  return deferred.length > 0;
}

describe("a grant's last-read stamp", () => {
  it("is written at the first read, and again once the stamp is a minute old", async () => {
    expect(await stamps(null)).toBe(true);
    expect(await stamps(new Date(NOW.getTime() - LAST_READ_RESOLUTION_MS).toISOString())).toBe(true);
    expect(await stamps("2026-11-26T12:00:00.000Z")).toBe(true);
  });

  it("is left as it is by a read within a minute of it", async () => {
    expect(await stamps(new Date(NOW.getTime() - LAST_READ_RESOLUTION_MS + 1).toISOString())).toBe(false);
    expect(await stamps(NOW.toISOString())).toBe(false);
  });

  it("is never written for a credential without a grant", () => {
    const deferred: Promise<unknown>[] = [];
    stampUse(env.INDEX_DB, null, NOW, (work) => deferred.push(work));
    expect(deferred).toEqual([]);
  });
});
