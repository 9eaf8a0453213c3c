/**
 * The message thread. Inbound texts are listed as they land. A drafted reply is never
 * listed until a person releases it: the release is appended (`sending`), the reply is
 * texted, and the outcome is appended (`sent` with the carrier's id, or `failed`). A notice,
 * what the service tells the owner itself, is listed as it is posted: on channel `notice`
 * (status `posted`) when it stays in the thread, or as a text on its way (`sending`, then
 * `sent` or `failed`) where the owner's SMS is configured.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { LedgerDb, LedgerHandle } from "./store/db";
import { ok, refused, type Outcome } from "./outcome";
import { messageEvents, messages } from "./store/schema";

const newestEvent = (column: string) =>
  sql.raw(`(SELECT e.${column} FROM message_events e WHERE e.message_id = messages.id ORDER BY e.id DESC LIMIT 1)`);

/** The actor of the notices the service texts: the service itself, never a person. */
export const NOTICE_ACTOR = "service";

export interface MessageRow {
  message_id: number;
  direction: "in" | "out";
  /** `notice`: a notice posted in the thread only, never texted. */
  channel: "sms" | "notice";
  /** `received` for an inbound text; `posted` for a notice in the thread only; for a text going out, its newest event: `sending`, `sent` or `failed`. */
  status: string;
  body: string;
  /** The carrier's id; empty until the carrier returns one. */
  provider_sid: string;
  created_at: string;
}

export function receiveText(db: LedgerDb, input: { body: string; providerSid: string; from: string }, at: string): number {
  return db
    .insert(messages)
    .values({ direction: "in", channel: "sms", body: input.body, providerSid: input.providerSid, actor: input.from, createdAt: at })
    .returning({ id: messages.id })
    .get().id;
}

/** A notice for the owner, as posted: `texted` when it waits for its text. */
export interface Notice {
  messageId: number;
  body: string;
  texted: boolean;
}

/** Posts a notice in the thread only, listed at once (inside the caller's transaction, with the fact it tells of). */
export function postNotice(db: LedgerHandle, body: string, actor: string, at: string): number {
  return db.insert(messages).values({ direction: "out", channel: "notice", body, providerSid: null, actor, createdAt: at }).returning({ id: messages.id }).get().id;
}

/** Posts a notice to be texted too: listed at once as `sending`, until the notice job files the text's outcome (src/messages/notices.ts). */
export function postTextedNotice(db: LedgerHandle, body: string, at: string): number {
  const messageId = db
    .insert(messages)
    .values({ direction: "out", channel: "sms", body, providerSid: null, actor: NOTICE_ACTOR, createdAt: at })
    .returning({ id: messages.id })
    .get().id;
  db.insert(messageEvents).values({ messageId, status: "sending", providerSid: null, error: null, actor: NOTICE_ACTOR, at }).run();
  return messageId;
}

/** A notice's text while it still waits to be sent; null once it was sent or failed (or for anything else). */
export function noticeToText(db: LedgerHandle, messageId: number): { body: string } | null {
  const row = db
    .select({ body: messages.body, status: sql<string | null>`${newestEvent("status")}` })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.actor, NOTICE_ACTOR), eq(messages.channel, "sms")))
    .get();
  return row?.status === "sending" ? { body: row.body } : null;
}

export function draftReply(db: LedgerDb, body: string, actor: string, at: string): number {
  return db.insert(messages).values({ direction: "out", channel: "sms", body, providerSid: null, actor, createdAt: at }).returning({ id: messages.id }).get().id;
}

/** Listed messages, newest first: every inbound text, every released reply and every notice, never a draft. */
export function listMessages(db: LedgerHandle, limit: number): MessageRow[] {
  const rows = db
    .select({
      id: messages.id,
      direction: messages.direction,
      channel: messages.channel,
      body: messages.body,
      inboundSid: messages.providerSid,
      createdAt: messages.createdAt,
      status: sql<string | null>`${newestEvent("status")}`,
      sentSid: sql<string | null>`${newestEvent("provider_sid")}`,
    })
    .from(messages)
    .where(sql`${messages.direction} = 'in' OR ${messages.channel} = 'notice' OR EXISTS (SELECT 1 FROM ${messageEvents} e WHERE e.message_id = ${messages.id})`)
    .orderBy(desc(messages.id))
    .limit(limit)
    .all();
  return rows.map((r) => ({
    message_id: r.id,
    direction: r.direction,
    channel: r.channel,
    status: r.direction === "in" ? "received" : r.channel === "notice" ? "posted" : r.status!,
    body: r.body,
    provider_sid: (r.direction === "in" ? r.inboundSid : r.sentSid) ?? "",
    created_at: r.createdAt,
  }));
}

/** Drafts waiting for release, oldest first (shown on /settings only). */
export function listDrafts(db: LedgerHandle): { message_id: number; body: string; actor: string; created_at: string }[] {
  return db
    .select({ message_id: messages.id, body: messages.body, actor: messages.actor, created_at: messages.createdAt })
    .from(messages)
    .where(and(eq(messages.direction, "out"), eq(messages.channel, "sms"), sql`NOT EXISTS (SELECT 1 FROM ${messageEvents} e WHERE e.message_id = ${messages.id})`))
    .orderBy(messages.id)
    .all();
}

/** Claims a draft for release (appends `sending`); a refusal when it is no draft of this thread. */
export function claimRelease(db: LedgerDb, messageId: number, actor: string, at: string): Outcome<{ body: string }> {
  return db.transaction((tx) => {
    const draft = listDrafts(tx).find((d) => d.message_id === messageId);
    if (!draft) return refused(`Message ${messageId} is no draft waiting for release.`);
    tx.insert(messageEvents).values({ messageId, status: "sending", providerSid: null, error: null, actor, at }).run();
    return ok({ body: draft.body });
  });
}

export function recordSendOutcome(db: LedgerHandle, messageId: number, outcome: { sid: string } | { error: string }, actor: string, at: string): void {
  db.insert(messageEvents)
    .values({
      messageId,
      status: "sid" in outcome ? "sent" : "failed",
      providerSid: "sid" in outcome ? outcome.sid : null,
      error: "error" in outcome ? outcome.error : null,
      actor,
      at,
    })
    .run();
}
