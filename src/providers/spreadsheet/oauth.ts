/**
 * The spreadsheet API's OAuth 2.0 token endpoint (RFC 6749 section 6, as Google's
 * `https://oauth2.googleapis.com/token` serves it): a refresh token, with the deployment's
 * OAuth client, buys a fresh access token. `POST` a form (`grant_type=refresh_token`,
 * `refresh_token`, `client_id`, `client_secret`); the answer is `{ access_token,
 * expires_in, token_type, scope }`, and may carry a new `refresh_token`. A refusal is
 * `{ error, error_description }`: `invalid_grant` (the refresh token was revoked or has
 * expired: the person must connect again), `invalid_client` (the deployment's client).
 */
import { safeJson, withTimeout } from "../http";
import { SpreadsheetError } from "./sheets";

export const OAUTH_TOKEN_URL = "https://oauth2.googleapis.com/token";

export interface OAuthClientConfig {
  /** Empty: Google's token endpoint. */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface FreshToken {
  accessToken: string;
  /** When the access token stops working (the answer's `expires_in` from `now`). */
  expiresAt: Date;
  /** A new refresh token, when the server rotated it; null when the old one stays good. */
  refreshToken: string | null;
}

export async function refreshAccessToken(
  config: OAuthClientConfig,
  refreshToken: string,
  options: { fetch?: typeof fetch; now?: Date; timeoutMs?: number } = {},
): Promise<FreshToken> {
  const doFetch = options.fetch ?? fetch;
  const form = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: config.clientId, client_secret: config.clientSecret });
  let response: Response;
  try {
    response = await withTimeout(options.timeoutMs ?? 15_000, (signal) =>
      doFetch(config.tokenUrl || OAUTH_TOKEN_URL, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form,
        signal,
      }),
    );
  } catch (cause) {
    throw new SpreadsheetError(`the OAuth token endpoint could not be reached: ${String(cause)}`, true);
  }
  const answer = safeJson(await response.text()) as Record<string, unknown> | undefined;
  if (!response.ok) {
    const error = typeof answer?.error === "string" ? answer.error : `HTTP ${response.status}`;
    const words = typeof answer?.error_description === "string" ? `: ${answer.error_description.slice(0, 200)}` : "";
    const retryable = response.status === 429 || response.status >= 500;
    const hint = error === "invalid_grant" ? "; connect the spreadsheet again on /settings" : error === "invalid_client" ? "; the deployment's OAuth client is refused" : "";
    throw new SpreadsheetError(`the OAuth token endpoint refused the refresh (${error}${words})${hint}`, retryable);
  }
  const expiresIn = Number(answer?.expires_in);
  if (typeof answer?.access_token !== "string" || answer.access_token === "" || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new SpreadsheetError("the OAuth token endpoint's answer carried no access token and lifetime", true);
  }
  return {
    accessToken: answer.access_token,
    expiresAt: new Date((options.now ?? new Date()).getTime() + expiresIn * 1000),
    refreshToken: typeof answer.refresh_token === "string" && answer.refresh_token !== "" ? answer.refresh_token : null,
  };
}
