/**
 * The sandbox's stand-in for the aggregator's link flow: link tokens, a hosted page under
 * `/sandbox/link/{link_token}` listing fake institutions and their accounts (src/sandbox),
 * public tokens exchanged for access tokens, items whose bank can ask for its login again,
 * and webhooks signed as the aggregator signs them, with a fixed key. Its state is in D1
 * (`sandbox_link_sessions`, `sandbox_items`); the feed of a linked item is the sandbox
 * bank's (changes queued with its `item_id`).
 */
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { randomSecret } from "../../auth/crypto";
import { sandboxItems, sandboxLinkSessions } from "../../index-db/schema";
import { LINK_URL_LIFETIME_SECONDS } from "./aggregator-link";
import { BankLinkError, type BankLink, type ExchangedItem, type LinkResult, type LinkToken, type LinkTokenRequest, type WebhookKey } from "./link";
import { signWebhook } from "./webhook-signature";

export interface SandboxInstitution {
  institution_id: string;
  name: string;
  accounts: { account_id: string; name: string; mask: string; type: string; subtype: string }[];
}

/** The fake institutions the stand-in page lists. An item's accounts are these, their ids prefixed by the item's. */
export const SANDBOX_INSTITUTIONS: readonly SandboxInstitution[] = [
  {
    institution_id: "ins_sandbox_harbor",
    name: "Harbor Community Bank",
    accounts: [
      { account_id: "checking", name: "Business Checking", mask: "1100", type: "depository", subtype: "checking" },
      { account_id: "savings", name: "Business Savings", mask: "1101", type: "depository", subtype: "savings" },
    ],
  },
  {
    institution_id: "ins_sandbox_prairie",
    name: "Prairie Credit Union",
    accounts: [{ account_id: "checking", name: "Share Draft", mask: "2200", type: "depository", subtype: "checking" }],
  },
  {
    institution_id: "ins_sandbox_summit",
    name: "Summit Card Services",
    accounts: [{ account_id: "card", name: "Business Rewards Card", mask: "3300", type: "credit", subtype: "credit card" }],
  },
];

export const SANDBOX_WEBHOOK_KEY_ID = "sandbox-webhook-key-1";
/** The stand-in's signing key. A sandbox key: the webhooks it signs reach only a sandbox deployment. */
const SANDBOX_WEBHOOK_JWK: JsonWebKey = {
  kty: "EC",
  crv: "P-256",
  x: "WlCVIFjIFDs3AmFC3A99QLWqNZg50j6BsasEezjcmyA",
  y: "sxwKxi2RIceLAjUN3bAL9ezPsHfAcrLiSPuPuKZPP24",
  d: "NJwXHlXX7TAEr5g611IIK8ghMJlz7BTbpb3K2wb4uzE",
};

const token = (prefix: string) => `${prefix}-sandbox-${randomSecret(18)}`;

export class SandboxLink implements BankLink {
  constructor(
    private readonly d1: D1Database,
    /** The deployment's own origin: the stand-in page is served there. */
    private readonly origin: string,
  ) {}

  private get db() {
    return drizzle(this.d1);
  }

  async createLinkToken(request: LinkTokenRequest): Promise<LinkToken> {
    let itemId: string | null = null;
    if (request.accessToken) {
      const item = await this.db
        .select()
        .from(sandboxItems)
        .where(and(eq(sandboxItems.accessToken, request.accessToken), isNull(sandboxItems.removedAt)))
        .get();
      if (!item) throw new BankLinkError("the aggregator refused the link token (INVALID_ACCESS_TOKEN: no item has this access token)", false, "INVALID_ACCESS_TOKEN");
      itemId = item.itemId;
    }
    const linkToken = token("link");
    const now = new Date();
    const expiration = new Date(now.getTime() + LINK_URL_LIFETIME_SECONDS * 1000).toISOString();
    await this.db.insert(sandboxLinkSessions).values({
      linkToken,
      tenantId: request.tenant,
      completionUri: request.completionUri,
      itemId,
      createdAt: now.toISOString(),
      expiresAt: expiration,
    });
    return { linkToken, expiration, url: `${this.origin}/sandbox/link/${linkToken}` };
  }

  async linkResult(linkToken: string): Promise<LinkResult> {
    const session = await sandboxLinkSession(this.d1, linkToken);
    if (!session) return { state: "expired" };
    if (session.outcome === "exit") return { state: "exited", reason: "the person left the bank's page (requires_credentials)" };
    if (session.outcome === "success") {
      if (session.itemId !== null && session.publicToken === null) return { state: "success", publicToken: null, institution: null };
      const item = await this.db.select().from(sandboxItems).where(eq(sandboxItems.publicToken, session.publicToken!)).get();
      return { state: "success", publicToken: session.publicToken, institution: institutionOf(item?.institutionId)?.name ?? null };
    }
    if (Date.parse(session.expiresAt) <= Date.now()) return { state: "expired" };
    return { state: "pending" };
  }

  async exchangePublicToken(publicToken: string): Promise<ExchangedItem> {
    const accessToken = token("access");
    const exchanged = await this.db
      .update(sandboxItems)
      .set({ accessToken })
      .where(and(eq(sandboxItems.publicToken, publicToken), isNull(sandboxItems.accessToken)))
      .returning({ itemId: sandboxItems.itemId });
    if (exchanged.length === 0) {
      throw new BankLinkError("the aggregator refused the public token's exchange (INVALID_PUBLIC_TOKEN: unknown, or exchanged already)", false, "INVALID_PUBLIC_TOKEN");
    }
    return { accessToken, itemId: exchanged[0]!.itemId };
  }

  async removeItem(accessToken: string): Promise<void> {
    await this.db.update(sandboxItems).set({ removedAt: new Date().toISOString() }).where(and(eq(sandboxItems.accessToken, accessToken), isNull(sandboxItems.removedAt)));
  }

  async webhookKey(keyId: string): Promise<WebhookKey | null> {
    if (keyId !== SANDBOX_WEBHOOK_KEY_ID) return null;
    const { kty, crv, x, y } = SANDBOX_WEBHOOK_JWK;
    return { jwk: { kty, crv, x, y }, expiredAt: null };
  }
}

export function institutionOf(institutionId: string | undefined): SandboxInstitution | undefined {
  return SANDBOX_INSTITUTIONS.find((i) => i.institution_id === institutionId);
}

export async function sandboxLinkSession(d1: D1Database, linkToken: string) {
  return drizzle(d1).select().from(sandboxLinkSessions).where(eq(sandboxLinkSessions.linkToken, linkToken)).get();
}

/** The items a tenant linked through the stand-in page (exchanged), oldest first. */
export async function sandboxItemsOf(d1: D1Database, tenantId: string) {
  return drizzle(d1)
    .select()
    .from(sandboxItems)
    .where(and(eq(sandboxItems.tenantId, tenantId), isNotNull(sandboxItems.accessToken)))
    .orderBy(sandboxItems.createdAt);
}

export async function sandboxItem(d1: D1Database, itemId: string) {
  return drizzle(d1).select().from(sandboxItems).where(eq(sandboxItems.itemId, itemId)).get();
}

/**
 * The person finished on the stand-in page: a new item at the chosen institution (its
 * public token kept on the session), or, in update mode, the item's login repaired; or
 * they left (`institutionId` null). Answers where the browser goes next, or null when the
 * session is unknown, finished or expired.
 */
export async function finishSandboxLink(d1: D1Database, linkToken: string, choice: { institutionId: string } | { repair: true } | { leave: true }): Promise<string | null> {
  const db = drizzle(d1);
  const session = await sandboxLinkSession(d1, linkToken);
  const now = new Date().toISOString();
  if (!session || session.outcome !== null || session.expiresAt <= now) return null;
  let publicToken: string | null = null;
  let outcome: "success" | "exit" = "success";
  if ("leave" in choice) outcome = "exit";
  else if ("repair" in choice) {
    if (session.itemId === null) return null;
    await db.update(sandboxItems).set({ loginRequired: false }).where(eq(sandboxItems.itemId, session.itemId));
  } else {
    if (session.itemId !== null || !institutionOf(choice.institutionId)) return null;
    publicToken = token("public");
    await db.insert(sandboxItems).values({ itemId: `item-sandbox-${randomSecret(12)}`, tenantId: session.tenantId, institutionId: choice.institutionId, publicToken, createdAt: now });
  }
  await db
    .update(sandboxLinkSessions)
    .set({ outcome, publicToken, finishedAt: now })
    .where(and(eq(sandboxLinkSessions.linkToken, linkToken), isNull(sandboxLinkSessions.outcome)));
  return session.completionUri;
}

/** The stand-in's bank asks its customer to sign in again: syncs of the item are refused until update mode repairs it. */
export async function requireSandboxLogin(d1: D1Database, itemId: string): Promise<void> {
  await drizzle(d1).update(sandboxItems).set({ loginRequired: true }).where(eq(sandboxItems.itemId, itemId));
}

/** A webhook body signed as the aggregator signs it, with the stand-in's key. */
export function signSandboxWebhook(body: string, at: Date): Promise<string> {
  return signWebhook(SANDBOX_WEBHOOK_JWK, SANDBOX_WEBHOOK_KEY_ID, body, at);
}
