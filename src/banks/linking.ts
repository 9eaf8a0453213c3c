/**
 * Connecting a bank in the aggregator's own flow, for a signed-in owner (/settings; the
 * tenant's owner or a co-owner, whose actor every step records, as judgements do):
 *
 * 1. `startLink`: the service asks the aggregator for a link token for its hosted page,
 *    naming where the browser comes back (`/settings/banks/linked?state=…`, a random
 *    state kept only as its hash, bound to the tenant) and where the item's webhooks go.
 *    With a connection, the link token carries its access token: update mode, where the
 *    owner signs in to that bank again.
 * 2. The owner picks the bank and signs in on the aggregator's page (in the sandbox: the
 *    stand-in page under /sandbox/link), which sends the browser back.
 * 3. `finishLink`: the service reads how the page's session ended (`/link/token/get`) and
 *    exchanges the public token for the item's access token, kept encrypted in the
 *    tenant's ledger as a new connection (within the tier's cap), its item filed in the
 *    index for the webhooks, and a first sync is asked for. In update mode the connection
 *    is marked connected again and synced. The aggregator's end-of-session webhook may
 *    finish the link first; either way a link is finished once.
 */
import { sha256Hex, randomSecret } from "../auth/crypto";
import type { TenantRecord } from "../auth/tenants";
import { ledgerOf, type Env } from "../env";
import { ApiError, settle } from "../errors";
import { bankItem, bankLinkByState, claimBankLink, disconnectBankItem, endBankLink, fileBankItem, fileBankLink, linkInProgress, type BankLinkRow } from "../index-db/bank-links";
import type { Connection } from "../ledger/feed/connections";
import { bankLinkFor, bankLinkOf } from "../providers/bank";
import { BankLinkError, type BankLink } from "../providers/bank/link";
import { CONNECTION_CAPS } from "../tiers";
import { bankTokenKeys, BankTokenError, decryptBankToken, encryptBankToken, type KeyRing } from "./bank-tokens";

export const LINK_RETURN_PATH = "/settings/banks/linked";
export const BANK_WEBHOOK_PATH = "/hooks/bank";

/** What became of a link the owner came back from. */
export type LinkOutcome =
  | { kind: "connected"; connection: Connection }
  | { kind: "repaired"; connection: Connection }
  /** Not finished on the aggregator's page yet (or being finished by the webhook right now). */
  | { kind: "pending" }
  | { kind: "left"; reason: string }
  | { kind: "expired" }
  /** The ledger would not take it (the tier's cap); the item was removed at the aggregator. */
  | { kind: "refused"; reason: string }
  /** Finished before: its outcome in words. */
  | { kind: "finished"; words: string };

function keysOf(env: Env): KeyRing {
  let keys: KeyRing | null;
  try {
    keys = bankTokenKeys(env);
  } catch (error) {
    if (error instanceof BankTokenError) throw new ApiError("bank_token_key_missing", `This deployment's BANK_TOKEN_KEY cannot be read (${error.message}); no bank can be linked.`);
    throw error;
  }
  if (!keys) throw new ApiError("bank_token_key_missing", "This deployment holds no BANK_TOKEN_KEY to encrypt bank access tokens with; no bank can be linked.");
  return keys;
}

function aggregatorProblem(error: unknown, what: string): ApiError {
  if (error instanceof BankLinkError) return new ApiError("aggregator_unavailable", `The aggregator could not ${what}: ${error.message}.`);
  return error as ApiError;
}

function unavailable(): ApiError {
  return new ApiError("aggregator_unavailable", "This deployment holds no aggregator credentials (AGGREGATOR_CLIENT_ID, AGGREGATOR_SECRET); no bank can be linked.");
}

/** A tenant may link a bank once its owner's email is verified (or it has none to verify: a sandbox sign-up's). */
export function mayLinkBanks(tenant: Pick<TenantRecord, "ownerEmail" | "emailVerifiedAt">): boolean {
  return tenant.ownerEmail === null || tenant.emailVerifiedAt !== null;
}

/**
 * Opens a link at the aggregator for `actor`: for a new bank (`connectionId` null, within
 * the tier's cap) or to repair a connection's login (update mode). The link keeps who
 * opened it, so finishing it (the browser's return or the aggregator's webhook) records
 * them. Answers the aggregator's page to send the browser to.
 */
export async function startLink(env: Env, tenant: TenantRecord, connectionId: number | null, actor: string, origin: string, now: Date): Promise<{ url: string }> {
  if (!mayLinkBanks(tenant)) {
    throw new ApiError("email_unverified", `Verify the owner's email (${tenant.ownerEmail}) first: follow the link mailed to it, or ask for another on /settings.`);
  }
  const ledger = ledgerOf(env, tenant.id);
  let link: BankLink;
  let accessToken: string | undefined;
  if (connectionId === null) {
    keysOf(env);
    const live = settle(await ledger.connections()).filter((c) => c.status !== "disconnected").length;
    const cap = CONNECTION_CAPS[tenant.tier];
    if (live >= cap) {
      throw ApiError.ledgerRefusal(`The ${tenant.tier} tier holds at most ${cap} bank connection${cap === 1 ? "" : "s"} and this tenant holds ${live}; disconnect one on /settings first.`);
    }
    const linker = bankLinkFor(env, origin);
    if (!linker) throw unavailable();
    link = linker.link;
  } else {
    const connection = settle(await ledger.connectionSecret(connectionId));
    if (connection.itemId === null) throw ApiError.ledgerRefusal(`Bank connection ${connectionId} is the sandbox bank of the sign-up; it has no login to repair.`);
    const service = bankLinkOf(env, origin, connection.provider);
    if (!service) throw unavailable();
    link = service;
    try {
      accessToken = await decryptBankToken(keysOf(env), connection.accessToken, { tenant: tenant.id, itemId: connection.itemId });
    } catch (error) {
      if (error instanceof BankTokenError) throw new ApiError("bank_token_key_missing", `This bank's access token cannot be read (${error.message}); link the bank again instead.`);
      throw error;
    }
  }
  const state = randomSecret(32);
  let token;
  try {
    token = await link.createLinkToken({
      tenant: tenant.id,
      clientName: env.AGGREGATOR_CLIENT_NAME || "Ledger",
      webhookUrl: `${origin}${BANK_WEBHOOK_PATH}`,
      completionUri: `${origin}${LINK_RETURN_PATH}?state=${state}`,
      ...(accessToken ? { accessToken } : {}),
    });
  } catch (error) {
    throw aggregatorProblem(error, "open a bank link");
  }
  await fileBankLink(env.INDEX_DB, {
    stateHash: await sha256Hex(state),
    tenantId: tenant.id,
    linkToken: token.linkToken,
    connectionId,
    mode: connectionId === null ? "new" : "repair",
    createdAt: now.toISOString(),
    expiresAt: token.expiration,
    openedBy: actor,
  });
  return { url: token.url };
}

/** The owner came back from the aggregator's page with `state`: the link's outcome (404 for a state that is no link of this tenant's). */
export async function finishLinkByState(env: Env, tenant: TenantRecord, state: string, origin: string, now: Date): Promise<LinkOutcome> {
  const link = /^[A-Za-z0-9_-]{43}$/.test(state) ? await bankLinkByState(env.INDEX_DB, tenant.id, await sha256Hex(state)) : undefined;
  if (!link) throw ApiError.notFound("This tenant opened no such bank link; start again from /settings.");
  return finishLink(env, tenant, link, origin, now);
}

/** Finishes a link once (the browser's return and the aggregator's end-of-session webhook both come here). */
export async function finishLink(env: Env, tenant: TenantRecord, link: BankLinkRow, origin: string, now: Date): Promise<LinkOutcome> {
  if (link.finishedAt !== null && !linkInProgress(link)) return { kind: "finished", words: link.outcome ?? "finished" };
  if (!(await claimBankLink(env.INDEX_DB, link.stateHash, now))) return { kind: "pending" };
  let outcome: LinkOutcome;
  try {
    outcome = await completeLink(env, tenant, link, origin, now);
  } catch (error) {
    await endBankLink(env.INDEX_DB, link.stateHash, null, null, now);
    throw error;
  }
  const connectionId = outcome.kind === "connected" || outcome.kind === "repaired" ? outcome.connection.id : null;
  await endBankLink(env.INDEX_DB, link.stateHash, outcome.kind === "pending" ? null : wordsOf(outcome), connectionId, now);
  return outcome;
}

export function wordsOf(outcome: LinkOutcome): string {
  switch (outcome.kind) {
    case "connected":
      return `${outcome.connection.institution ?? "The bank"} is connected (connection ${outcome.connection.id}); its first sync is under way.`;
    case "repaired":
      return `${outcome.connection.institution ?? "The bank"} is signed in again (connection ${outcome.connection.id}); its lines sync again.`;
    case "pending":
      return "The bank's page is not finished yet: finish it there, then come back.";
    case "left":
      return `Nothing was connected: ${outcome.reason}.`;
    case "expired":
      return "The bank link expired before it was finished; nothing was connected. Start again.";
    case "refused":
      return `Nothing was connected: ${outcome.reason}`;
    case "finished":
      return outcome.words;
  }
}

async function completeLink(env: Env, tenant: TenantRecord, link: BankLinkRow, origin: string, now: Date): Promise<LinkOutcome> {
  const ledger = ledgerOf(env, tenant.id);
  // Links opened before their opener was kept were the owner's.
  const actor = link.openedBy ?? `human:${tenant.id}`;
  if (Date.parse(link.expiresAt) <= now.getTime() - 60 * 60_000) return { kind: "expired" };
  const repair = link.mode === "repair" && link.connectionId !== null ? settle(await ledger.connection(link.connectionId)) : null;
  const service = repair ? bankLinkOf(env, origin, repair.provider) : bankLinkFor(env, origin)?.link;
  if (!service) throw unavailable();
  let result;
  try {
    result = await service.linkResult(link.linkToken);
  } catch (error) {
    throw aggregatorProblem(error, "say how the bank link ended");
  }
  if (result.state === "pending") return Date.parse(link.expiresAt) <= now.getTime() ? { kind: "expired" } : { kind: "pending" };
  if (result.state === "expired") return { kind: "expired" };
  if (result.state === "exited") return { kind: "left", reason: result.reason };

  if (repair) {
    const marked = settle(await ledger.repairConnection(repair.id, actor));
    await askForSync(env, tenant.id, actor);
    return { kind: "repaired", connection: marked.connection };
  }
  if (result.publicToken === null) return { kind: "left", reason: "the aggregator's page linked no new bank" };
  let item;
  try {
    item = await service.exchangePublicToken(result.publicToken);
  } catch (error) {
    throw aggregatorProblem(error, "exchange the bank's public token");
  }
  const provider = bankLinkFor(env, origin)!.provider;
  const sealed = await encryptBankToken(keysOf(env), item.accessToken, { tenant: tenant.id, itemId: item.itemId });
  const linked = await ledger.linkItem({ provider, itemId: item.itemId, institution: result.institution, accessToken: sealed }, tenant.tier, actor);
  if (!linked.ok) {
    // Over the cap: the item must not stay open (billed, sending webhooks) at the aggregator.
    await service.removeItem(item.accessToken).catch((error: unknown) => console.error(`item ${item.itemId} could not be removed at the aggregator:`, error));
    return { kind: "refused", reason: linked.refusal.words };
  }
  await fileBankItem(env.INDEX_DB, { itemId: item.itemId, tenantId: tenant.id, connectionId: linked.value.connection.id }, now);
  await askForSync(env, tenant.id, actor);
  return { kind: "connected", connection: linked.value.connection };
}

/** A sync of the tenant's banks, asked for on its behalf; one already pending serves. */
async function askForSync(env: Env, tenant: string, actor: string): Promise<void> {
  try {
    settle(await ledgerOf(env, tenant).requestSync(tenant, actor));
  } catch (error) {
    // The bank is linked all the same; the owner's sync-now, or the next webhook, asks again.
    console.error(`a sync could not be asked for ${tenant} after linking a bank:`, error);
  }
}

/**
 * Disconnects one of the tenant's connections (an owner, on /settings, recorded as
 * `actor`): the ledger marks it disconnected (its lines stay in the books), then the item
 * is removed at the aggregator and forgotten by the webhooks' index. 404 for a connection
 * the tenant does not hold.
 */
export async function disconnectBank(env: Env, tenant: TenantRecord, connectionId: number, actor: string, origin: string, now: Date): Promise<{ connection: Connection; removedAtAggregator: boolean }> {
  const ledger = ledgerOf(env, tenant.id);
  const secret = settle(await ledger.connectionSecret(connectionId));
  const connection = settle(await ledger.disconnectBank(connectionId, actor));
  if (secret.itemId === null) return { connection, removedAtAggregator: false };
  await disconnectBankItem(env.INDEX_DB, tenant.id, secret.itemId, now);
  let removed = false;
  try {
    const service = bankLinkOf(env, origin, secret.provider);
    const accessToken = await decryptBankToken(bankTokenKeys(env), secret.accessToken, { tenant: tenant.id, itemId: secret.itemId });
    if (service) {
      await service.removeItem(accessToken);
      removed = true;
    }
  } catch (error) {
    console.error(`item ${secret.itemId} of ${tenant.id} could not be removed at the aggregator:`, error);
  }
  return { connection, removedAtAggregator: removed };
}

/** The tenant and connection an aggregator item belongs to, while it is connected. */
export async function itemOwner(env: Env, itemId: string): Promise<{ tenantId: string; connectionId: number } | null> {
  const row = await bankItem(env.INDEX_DB, itemId);
  return row && row.disconnectedAt === null ? { tenantId: row.tenantId, connectionId: row.connectionId } : null;
}
