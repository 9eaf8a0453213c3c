/**
 * A spreadsheet destination's OAuth access: its refresh token is sealed when it is
 * connected; a push opens it and buys an access token from the OAuth token endpoint when
 * the destination keeps none or the one kept has expired (or the API refused it), and
 * keeps the new one sealed with its expiry, so the next push reuses it.
 *
 * The deployment's part: its OAuth client (`SPREADSHEET_OAUTH_CLIENT_ID`, secret
 * `SPREADSHEET_OAUTH_CLIENT_SECRET`; the refresh tokens are minted for it), the key the
 * tokens are sealed with (secret `SPREADSHEET_TOKEN_KEY`, `SPREADSHEET_TOKEN_KEY_PREVIOUS`
 * while rotating), and the endpoints (`SPREADSHEET_OAUTH_TOKEN_URL`,
 * `SPREADSHEET_API_BASE_URL`; empty = Google's). A sandbox deployment has a fixed key and
 * client of its own, and, where an endpoint is left empty, the sandbox's stand-in of it.
 */
import { open, seal, SealError, type SealingKeys } from "../auth/sealing";
import { sandboxOn, type Env } from "../env";
import { keepTokens, type Destination } from "../index-db/destinations";
import { refreshAccessToken, type OAuthClientConfig } from "../providers/spreadsheet/oauth";
import { SANDBOX_OAUTH_CLIENT, sandboxSpreadsheetApi } from "../providers/spreadsheet/sandbox";
import { SpreadsheetError, type AccessTokenSource } from "../providers/spreadsheet/sheets";

/** A sandbox deployment's sealing key: what it seals protects nothing real. */
export const SANDBOX_TOKEN_KEY = btoa("sandbox-spreadsheet-tokens-key!!");
const KEY_NAME = "SPREADSHEET_TOKEN_KEY";
/** An access token this close to its expiry is not used: a push's calls take a while. */
const EXPIRY_MARGIN_MS = 60_000;

const contextOf = (tenantId: string) => `export-destination:${tenantId}`;

function sealingKeys(env: Env): SealingKeys | null {
  const current = env.SPREADSHEET_TOKEN_KEY || (sandboxOn(env) ? SANDBOX_TOKEN_KEY : "");
  return current ? { current, previous: env.SPREADSHEET_TOKEN_KEY_PREVIOUS || null } : null;
}

function oauthClient(env: Env): OAuthClientConfig | null {
  const sandbox = sandboxOn(env);
  const clientId = env.SPREADSHEET_OAUTH_CLIENT_ID || (sandbox ? SANDBOX_OAUTH_CLIENT.id : "");
  const clientSecret = env.SPREADSHEET_OAUTH_CLIENT_SECRET || (sandbox ? SANDBOX_OAUTH_CLIENT.secret : "");
  return clientId && clientSecret ? { tokenUrl: env.SPREADSHEET_OAUTH_TOKEN_URL, clientId, clientSecret } : null;
}

/** What the deployment lacks to connect a destination and push to it, in words; null when nothing. */
export function missingForDestinations(env: Env): string | null {
  const missing = [
    ...(sealingKeys(env) ? [] : ["no key to seal destinations' tokens (SPREADSHEET_TOKEN_KEY)"]),
    ...(oauthClient(env) ? [] : ["no OAuth client for the spreadsheet API (SPREADSHEET_OAUTH_CLIENT_ID, SPREADSHEET_OAUTH_CLIENT_SECRET)"]),
  ];
  return missing.length === 0 ? null : `This deployment holds ${missing.join(" and ")}.`;
}

/** Seals a refresh token for the tenant's destination row; throws when the deployment holds no key (check missingForDestinations first). */
export async function sealRefreshToken(env: Env, tenantId: string, refreshToken: string): Promise<string> {
  const keys = sealingKeys(env);
  if (!keys) throw new SealError(`the deployment holds no ${KEY_NAME}`);
  return seal(keys, refreshToken, contextOf(tenantId), KEY_NAME);
}

/** The fetches that reach the token endpoint and the spreadsheet API: the sandbox's stand-in where the sandbox is on and the address is left empty. */
export function spreadsheetFetches(env: Env, tenantId: string): { oauth?: typeof fetch; sheets?: typeof fetch } {
  if (!sandboxOn(env)) return {};
  const standIn = sandboxSpreadsheetApi(env.INDEX_DB, tenantId);
  return { oauth: env.SPREADSHEET_OAUTH_TOKEN_URL ? undefined : standIn, sheets: env.SPREADSHEET_API_BASE_URL ? undefined : standIn };
}

/** The access tokens of one destination during one push. Refusals are SpreadsheetErrors, retryable or not. */
export class DestinationAccess implements AccessTokenSource {
  private current: string | null = null;

  constructor(
    private readonly env: Env,
    private readonly destination: Destination,
    private readonly oauthFetch?: typeof fetch,
  ) {}

  async token(): Promise<string> {
    if (this.current !== null) return this.current;
    const { sealedAccessToken, accessTokenExpiresAt } = this.destination;
    if (sealedAccessToken && accessTokenExpiresAt && Date.parse(accessTokenExpiresAt) - EXPIRY_MARGIN_MS > Date.now()) {
      this.current = (await this.opened(sealedAccessToken)).plaintext;
      return this.current;
    }
    return this.refreshed();
  }

  async refreshed(): Promise<string> {
    const { sealedRefreshToken, tenantId, id } = this.destination;
    if (sealedRefreshToken === null) {
      throw new SpreadsheetError("this destination was connected with a pasted access token, which is no longer kept: connect the spreadsheet again on /settings", false);
    }
    const client = oauthClient(this.env);
    if (!client) throw new SpreadsheetError(missingForDestinations(this.env)!, false);
    const refresh = await this.opened(sealedRefreshToken);
    const fresh = await refreshAccessToken(client, refresh.plaintext, { fetch: this.oauthFetch });
    const keys = sealingKeys(this.env)!;
    const context = contextOf(tenantId);
    // A rotated refresh token replaces the old one; one opened with the previous key is sealed anew with the current.
    const rotated = fresh.refreshToken ?? (refresh.stale ? refresh.plaintext : null);
    await keepTokens(this.env.INDEX_DB, tenantId, id, {
      sealedAccessToken: await seal(keys, fresh.accessToken, context, KEY_NAME),
      accessTokenExpiresAt: fresh.expiresAt.toISOString(),
      ...(rotated === null ? {} : { sealedRefreshToken: await seal(keys, rotated, context, KEY_NAME) }),
    });
    this.current = fresh.accessToken;
    return fresh.accessToken;
  }

  private async opened(sealed: string): Promise<{ plaintext: string; stale: boolean }> {
    const keys = sealingKeys(this.env);
    if (!keys) throw new SpreadsheetError(missingForDestinations(this.env)!, false);
    try {
      return await open(keys, sealed, contextOf(this.destination.tenantId), KEY_NAME);
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      throw new SpreadsheetError(`the destination's tokens cannot be read: ${error.message}; connect the spreadsheet again on /settings`, false);
    }
  }
}
