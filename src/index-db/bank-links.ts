/**
 * The index's part of linking banks (D1): the links a tenant's owner has opened at the
 * aggregator, found again by the hash of the state the browser brings back (or by the
 * link token, for the aggregator's end-of-session webhook), each finished once; and the
 * aggregator's items, by which its webhooks find their tenant and connection.
 */
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { bankItems, bankLinks } from "./schema";

export type BankLinkRow = typeof bankLinks.$inferSelect;

/** How long a claim on a link may be held by a finish that died before it ended: after it, another may finish the link. */
const CLAIM_SECONDS = 60;
const WORKING = "working";

export async function fileBankLink(d1: D1Database, row: Omit<BankLinkRow, "finishedAt" | "outcome">): Promise<void> {
  await drizzle(d1).insert(bankLinks).values({ ...row, finishedAt: null, outcome: null });
}

export async function bankLinkByState(d1: D1Database, tenantId: string, stateHash: string): Promise<BankLinkRow | undefined> {
  return drizzle(d1).select().from(bankLinks).where(and(eq(bankLinks.stateHash, stateHash), eq(bankLinks.tenantId, tenantId))).get();
}

export async function bankLinkByToken(d1: D1Database, linkToken: string): Promise<BankLinkRow | undefined> {
  return drizzle(d1).select().from(bankLinks).where(eq(bankLinks.linkToken, linkToken)).get();
}

/** Claims a link for finishing: true for the one caller that may finish it now (the browser's return and the webhook may race). */
export async function claimBankLink(d1: D1Database, stateHash: string, now: Date): Promise<boolean> {
  const stale = new Date(now.getTime() - CLAIM_SECONDS * 1000).toISOString();
  const claimed = await drizzle(d1)
    .update(bankLinks)
    .set({ finishedAt: now.toISOString(), outcome: WORKING })
    .where(and(eq(bankLinks.stateHash, stateHash), or(isNull(bankLinks.finishedAt), and(eq(bankLinks.outcome, WORKING), lt(bankLinks.finishedAt, stale)))))
    .returning({ stateHash: bankLinks.stateHash });
  return claimed.length > 0;
}

/** Whether a link is being finished by another caller right now. */
export function linkInProgress(link: BankLinkRow): boolean {
  return link.outcome === WORKING;
}

/** Ends a claimed link with its outcome (the connection it made or repaired, if any); or lets it go unfinished (`outcome` null), for a later try. */
export async function endBankLink(d1: D1Database, stateHash: string, outcome: string | null, connectionId: number | null, now: Date): Promise<void> {
  await drizzle(d1)
    .update(bankLinks)
    .set(outcome === null ? { finishedAt: null, outcome: null } : { finishedAt: now.toISOString(), outcome, ...(connectionId === null ? {} : { connectionId }) })
    .where(eq(bankLinks.stateHash, stateHash));
}

export type BankItemRow = typeof bankItems.$inferSelect;

/** Files an item under its tenant and connection (again, if the same item comes back on a new connection). */
export async function fileBankItem(d1: D1Database, row: { itemId: string; tenantId: string; connectionId: number }, now: Date): Promise<void> {
  const values = { ...row, connectedAt: now.toISOString(), disconnectedAt: null };
  await drizzle(d1).insert(bankItems).values(values).onConflictDoUpdate({ target: bankItems.itemId, set: values });
}

export async function bankItem(d1: D1Database, itemId: string): Promise<BankItemRow | undefined> {
  return drizzle(d1).select().from(bankItems).where(eq(bankItems.itemId, itemId)).get();
}

export async function disconnectBankItem(d1: D1Database, tenantId: string, itemId: string, now: Date): Promise<void> {
  await drizzle(d1)
    .update(bankItems)
    .set({ disconnectedAt: now.toISOString() })
    .where(and(eq(bankItems.itemId, itemId), eq(bankItems.tenantId, tenantId), isNull(bankItems.disconnectedAt)));
}
