/**
 * The sandbox carrier: what it is asked to send lands in D1 (`sandbox_outbox`), read back
 * at `GET /sandbox/tenants/{tenant}/outbox`. Its inbound side signs like the real carrier,
 * with a fixed auth token, so `POST /sandbox/tenants/{tenant}/inbound-sms` goes through the
 * webhook's own signature check.
 */
import { desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { randomSecret } from "../../auth/crypto";
import { sandboxOutbox } from "../../index-db/schema";
import type { SmsCarrier } from "./types";

/** The sandbox carrier's auth token: it signs the sandbox's inbound webhook calls. */
export const SANDBOX_CARRIER_AUTH_TOKEN = "sandbox-carrier-auth-token";

export class SandboxCarrier implements SmsCarrier {
  constructor(
    private readonly d1: D1Database,
    private readonly tenantId: string,
  ) {}

  async send(message: { to: string; body: string }): Promise<{ sid: string }> {
    const sid = `SM${randomSecret(16).replace(/[^A-Za-z0-9]/g, "").slice(0, 32)}`;
    await drizzle(this.d1).insert(sandboxOutbox).values({ tenantId: this.tenantId, to: message.to, body: message.body, sid, at: new Date().toISOString() });
    return { sid };
  }
}

export async function sandboxOutboxOf(d1: D1Database, tenantId: string) {
  const rows = await drizzle(d1).select().from(sandboxOutbox).where(eq(sandboxOutbox.tenantId, tenantId)).orderBy(desc(sandboxOutbox.id));
  return rows.map((r) => ({ to: r.to, body: r.body, sid: r.sid, at: r.at }));
}
