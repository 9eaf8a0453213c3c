/**
 * The bank feed as the common aggregators deliver it: an incremental transactions
 * sync (added / modified / removed since a cursor, paged with `has_more`).
 * Amounts use the aggregator's sign: positive = money out.
 */
import { z } from "@hono/zod-openapi";

const isoDate = z.iso.date();

export const providerTransactionSchema = z
  .object({
    transaction_id: z.string().min(1).max(200).openapi({ example: "txn_8f2k" }),
    account_id: z.string().min(1).max(200).openapi({ example: "acc_checking" }),
    amount: z
      .number()
      .finite()
      .refine((n) => Math.abs(n) < 1e13, "an amount below 10^13")
      .openapi({ description: "Aggregator sign: positive = money out.", example: 12.5 }),
    date: isoDate.openapi({ description: "The posting date (or the pending date).", example: "2026-11-20" }),
    authorized_date: isoDate.nullish(),
    // Generous: a bank's long description must never make a page unreadable.
    name: z.string().max(20_000).openapi({ description: "The description as the bank prints it.", example: "SQ *BLUE BOTTLE 1234" }),
    merchant_name: z.string().max(20_000).nullish(),
    pending: z.boolean().optional(),
    pending_transaction_id: z.string().max(200).nullish(),
    iso_currency_code: z.string().max(10).nullish(),
  })
  .passthrough();
export type ProviderTransaction = z.infer<typeof providerTransactionSchema>;

export const providerAccountSchema = z
  .object({
    account_id: z.string().min(1).max(200).openapi({ example: "acc_checking" }),
    name: z.string().max(500).openapi({ example: "Business Checking" }),
    mask: z.string().max(20).nullish(),
    type: z.string().max(100).nullish(),
    subtype: z.string().max(100).nullish(),
  })
  .passthrough();
export type ProviderAccount = z.infer<typeof providerAccountSchema>;

export const removedTransactionSchema = z.object({ transaction_id: z.string().min(1).max(200) }).passthrough();

/** One page of the incremental sync, as the provider answered it. */
export interface FeedPage {
  cursorBefore: string;
  nextCursor: string;
  hasMore: boolean;
  accounts: ProviderAccount[];
  added: ProviderTransaction[];
  modified: ProviderTransaction[];
  removed: { transaction_id: string }[];
}

export interface BankProvider {
  /** The page of changes after `cursor` ("" = from the beginning). */
  syncPage(cursor: string): Promise<FeedPage>;
}

/** A provider that could not answer; the watcher records it and the queue retries. `code` is the provider's error code when it gave one. */
export class BankProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly code?: string,
  ) {
    super(message);
    this.name = "BankProviderError";
  }
}

/** The provider's codes for an item whose bank wants its customer to sign in again (update mode repairs it). */
export const LOGIN_REQUIRED_CODES: ReadonlySet<string> = new Set(["ITEM_LOGIN_REQUIRED", "PENDING_EXPIRATION", "ITEM_LOCKED"]);
/** The provider's codes for an item it no longer serves as it stands (gone, consent withdrawn, nothing to read): the owner links it again. */
export const ITEM_ERROR_CODES: ReadonlySet<string> = new Set(["INVALID_ACCESS_TOKEN", "ITEM_NOT_FOUND", "ACCESS_NOT_GRANTED", "NO_ACCOUNTS", "USER_PERMISSION_REVOKED", "ITEM_NOT_SUPPORTED"]);
