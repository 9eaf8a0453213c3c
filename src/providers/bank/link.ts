/**
 * Linking a bank in the aggregator's own flow (its hosted link page): the service asks
 * for a link token, the person picks their bank and signs in on the aggregator's page,
 * which sends the browser back; the service reads how the session ended and exchanges the
 * public token it yielded for the item's access token. A link token made with an item's
 * access token opens the page in update mode, where the person signs in to that bank again.
 */

export interface LinkTokenRequest {
  /** The tenant: the aggregator's `client_user_id`. */
  tenant: string;
  /** The name the aggregator's page shows. */
  clientName: string;
  /** Where the aggregator sends the item's webhooks. */
  webhookUrl: string;
  /** Where the aggregator's page sends the browser when the person is done. */
  completionUri: string;
  /** Update mode: the item's access token (in the clear, here only). */
  accessToken?: string;
}

export interface LinkToken {
  linkToken: string;
  /** ISO time after which the link token is refused. */
  expiration: string;
  /** The aggregator's page the person's browser goes to. */
  url: string;
}

export type LinkResult =
  /** The person has not finished on the page. */
  | { state: "pending" }
  /** The person left the page, or it failed them: nothing was linked. */
  | { state: "exited"; reason: string }
  /** The link token is past its expiration (or unknown to the aggregator). */
  | { state: "expired" }
  /** Linked: a new item's public token, or null in update mode (the item's login is repaired). */
  | { state: "success"; publicToken: string | null; institution: string | null };

export interface ExchangedItem {
  accessToken: string;
  itemId: string;
}

/** A public key the aggregator signs its webhooks with (JWK, ES256), and when it stopped being used, if it has. */
export interface WebhookKey {
  jwk: JsonWebKey;
  expiredAt: string | null;
}

export interface BankLink {
  createLinkToken(request: LinkTokenRequest): Promise<LinkToken>;
  linkResult(linkToken: string): Promise<LinkResult>;
  exchangePublicToken(publicToken: string): Promise<ExchangedItem>;
  /** Ends the item at the aggregator (it stops billing and sending webhooks for it). */
  removeItem(accessToken: string): Promise<void>;
  /** The key a webhook's signature names, or null when the aggregator knows no such key. */
  webhookKey(keyId: string): Promise<WebhookKey | null>;
}

/** The aggregator could not do what was asked: `code` is its error code when it gave one; `retryable` when a later try may work. */
export class BankLinkError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly code?: string,
  ) {
    super(message);
    this.name = "BankLinkError";
  }
}
