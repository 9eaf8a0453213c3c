/**
 * The sandbox mail service: what it is asked to send lands in D1 (`sandbox_mail`), read
 * back at `GET /sandbox/tenants/{tenant}/mail` and on the outbox page `GET /sandbox/mail`.
 */
import { desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { randomSecret } from "../../auth/crypto";
import { sandboxMail } from "../../index-db/schema";
import type { Mail, MailService } from "./types";

export class SandboxMailService implements MailService {
  constructor(private readonly d1: D1Database) {}

  async send(mail: Mail): Promise<{ messageId: string }> {
    const messageId = `sandbox-${randomSecret(12)}`;
    await drizzle(this.d1).insert(sandboxMail).values({ to: mail.to, subject: mail.subject, textBody: mail.text, messageId, at: new Date().toISOString() });
    return { messageId };
  }
}

export interface SandboxMailRow {
  to: string;
  subject: string;
  text: string;
  message_id: string;
  at: string;
}

/** The sandbox outbox, newest first: all of it, or what went to one address. */
export async function sandboxMailTo(d1: D1Database, to: string | null, limit = 200): Promise<SandboxMailRow[]> {
  const rows = await drizzle(d1)
    .select()
    .from(sandboxMail)
    .where(to === null ? undefined : eq(sandboxMail.to, to))
    .orderBy(desc(sandboxMail.id))
    .limit(limit);
  return rows.map((r) => ({ to: r.to, subject: r.subject, text: r.textBody, message_id: r.messageId, at: r.at }));
}
