/**
 * The aggregator's link endpoints over fetch (the common shape: client credentials in
 * the JSON body, errors as `{ error_type, error_code, error_message }`):
 * `/link/token/create` (with `hosted_link` for its hosted page, and `access_token` for
 * update mode), `/link/token/get` (how the page's sessions ended), `/item/public_token/exchange`,
 * `/item/remove` and `/webhook_verification_key/get`.
 */
import { z } from "@hono/zod-openapi";
import { endpoint, safeJson, withTimeout } from "../http";
import { BankLinkError, type BankLink, type ExchangedItem, type LinkResult, type LinkToken, type LinkTokenRequest, type WebhookKey } from "./link";

export interface AggregatorLinkConfig {
  baseUrl: string;
  clientId: string;
  secret: string;
  /** Injected so the adapter can be tested against a fake server. */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** How long the hosted page's address stays good: the person has this long to finish. */
export const LINK_URL_LIFETIME_SECONDS = 30 * 60;

const errorSchema = z.object({ error_code: z.string(), error_message: z.string().nullish() }).passthrough();

const linkTokenSchema = z.object({ link_token: z.string().min(1), expiration: z.string(), hosted_link_url: z.string().url() }).passthrough();

const institutionSchema = z.object({ name: z.string().nullish() }).passthrough().nullish();
const sessionSchema = z
  .object({
    finished_at: z.string().nullish(),
    results: z
      .object({ item_add_results: z.array(z.object({ public_token: z.string().min(1), institution: institutionSchema }).passthrough()).nullish() })
      .passthrough()
      .nullish(),
    on_success: z.object({ public_token: z.string().nullish(), metadata: z.object({ institution: institutionSchema }).passthrough().nullish() }).passthrough().nullish(),
    exit: z
      .object({
        error: z.object({ error_code: z.string().nullish(), error_message: z.string().nullish(), display_message: z.string().nullish() }).passthrough().nullish(),
        metadata: z.object({ status: z.string().nullish() }).passthrough().nullish(),
      })
      .passthrough()
      .nullish(),
  })
  .passthrough();
const linkGetSchema = z.object({ expiration: z.string().nullish(), link_sessions: z.array(sessionSchema).nullish() }).passthrough();

const exchangeSchema = z.object({ access_token: z.string().min(1), item_id: z.string().min(1) }).passthrough();

const keySchema = z
  .object({
    key: z
      .object({ kty: z.literal("EC"), crv: z.literal("P-256"), x: z.string(), y: z.string(), kid: z.string(), alg: z.string().nullish(), expired_at: z.number().nullish() })
      .passthrough(),
  })
  .passthrough();

/** Codes of the aggregator's that mean the link token is no good any more. */
const EXPIRED_LINK_CODES = new Set(["INVALID_LINK_TOKEN", "LINK_TOKEN_EXPIRED"]);
const UNKNOWN_KEY_CODES = new Set(["INVALID_WEBHOOK_VERIFICATION_KEY_ID"]);

export class AggregatorLink implements BankLink {
  constructor(private readonly config: AggregatorLinkConfig) {}

  /** POSTs `body` with the client credentials and answers the parsed 200, or throws the aggregator's refusal. */
  private async call<S extends z.ZodType>(path: string, body: Record<string, unknown>, schema: S, what: string): Promise<z.output<S>> {
    const doFetch = this.config.fetch ?? fetch;
    let response: Response;
    try {
      response = await withTimeout(this.config.timeoutMs ?? 15_000, (signal) =>
        doFetch(endpoint(this.config.baseUrl, path), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ client_id: this.config.clientId, secret: this.config.secret, ...body }),
          signal,
        }),
      );
    } catch (cause) {
      throw new BankLinkError(`the aggregator could not be reached: ${String(cause)}`, true);
    }
    const text = await response.text();
    if (!response.ok) {
      const parsed = errorSchema.safeParse(safeJson(text));
      const code = parsed.success ? parsed.data.error_code : undefined;
      const words = !parsed.success ? `HTTP ${response.status}` : parsed.data.error_message ? `${parsed.data.error_code}: ${parsed.data.error_message}` : parsed.data.error_code;
      throw new BankLinkError(`the aggregator refused ${what} (${words})`, response.status === 429 || response.status >= 500, code);
    }
    const parsed = schema.safeParse(safeJson(text));
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => i.path.join(".") || "(root)").join(", ");
      throw new BankLinkError(`the aggregator's answer to ${what} is not what it documents (${fields})`, false);
    }
    return parsed.data;
  }

  async createLinkToken(request: LinkTokenRequest): Promise<LinkToken> {
    const answer = await this.call(
      "link/token/create",
      {
        client_name: request.clientName,
        language: "en",
        country_codes: ["US"],
        user: { client_user_id: request.tenant },
        // Update mode names the item by its access token and asks for no product.
        ...(request.accessToken ? { access_token: request.accessToken } : { products: ["transactions"] }),
        webhook: request.webhookUrl,
        hosted_link: { completion_redirect_uri: request.completionUri, url_lifetime_seconds: LINK_URL_LIFETIME_SECONDS },
      },
      linkTokenSchema,
      "the link token",
    );
    return { linkToken: answer.link_token, expiration: answer.expiration, url: answer.hosted_link_url };
  }

  async linkResult(linkToken: string): Promise<LinkResult> {
    let answer: z.output<typeof linkGetSchema>;
    try {
      answer = await this.call("link/token/get", { link_token: linkToken }, linkGetSchema, "the link's sessions");
    } catch (error) {
      if (error instanceof BankLinkError && error.code !== undefined && EXPIRED_LINK_CODES.has(error.code)) return { state: "expired" };
      throw error;
    }
    const sessions = (answer.link_sessions ?? []).filter((s) => s.finished_at || s.results || s.on_success || s.exit);
    // The newest session that linked something decides; otherwise the newest that ended.
    for (const session of [...sessions].reverse()) {
      const added = session.results?.item_add_results?.[0];
      if (added) return { state: "success", publicToken: added.public_token, institution: added.institution?.name ?? null };
      if (session.on_success) {
        return { state: "success", publicToken: session.on_success.public_token ?? null, institution: session.on_success.metadata?.institution?.name ?? null };
      }
    }
    const exited = [...sessions].reverse().find((s) => s.exit);
    if (exited?.exit) {
      const error = exited.exit.error;
      const reason = error?.display_message ?? error?.error_message ?? error?.error_code ?? `the person left the bank's page (${exited.exit.metadata?.status ?? "no status"})`;
      return { state: "exited", reason };
    }
    if (answer.expiration && Date.parse(answer.expiration) <= Date.now()) return { state: "expired" };
    return { state: "pending" };
  }

  async exchangePublicToken(publicToken: string): Promise<ExchangedItem> {
    const answer = await this.call("item/public_token/exchange", { public_token: publicToken }, exchangeSchema, "the public token's exchange");
    return { accessToken: answer.access_token, itemId: answer.item_id };
  }

  async removeItem(accessToken: string): Promise<void> {
    await this.call("item/remove", { access_token: accessToken }, z.object({}).passthrough(), "the item's removal");
  }

  async webhookKey(keyId: string): Promise<WebhookKey | null> {
    try {
      const answer = await this.call("webhook_verification_key/get", { key_id: keyId }, keySchema, "the webhook verification key");
      const { kty, crv, x, y } = answer.key;
      return { jwk: { kty, crv, x, y }, expiredAt: answer.key.expired_at ? new Date(answer.key.expired_at * 1000).toISOString() : null };
    } catch (error) {
      if (error instanceof BankLinkError && error.code !== undefined && UNKNOWN_KEY_CODES.has(error.code)) return null;
      throw error;
    }
  }
}
