import type { TenantLedger } from "./ledger/tenant-ledger";

declare global {
  namespace Cloudflare {
    /** Every binding, variable and secret the Worker reads (see README, "Configuration"). */
    interface Env {
      TENANT_LEDGER: DurableObjectNamespace<TenantLedger>;
      INDEX_DB: D1Database;
      /** Failed sign-ins and grant confirmations (and the sign-in's trusted browsers), one object per tenant or client address. */
      ATTEMPT_LIMITER: DurableObjectNamespace<import("./limits/attempt-limiter").AttemptLimiter>;
      /** The general rate limits (Workers Rate Limiting): requests per credential and per client address. */
      RATE_LIMIT_CREDENTIAL: RateLimit;
      RATE_LIMIT_ADDRESS: RateLimit;
      /** `off` lifts the general rate limits, honoured only where the sandbox is on (the benchmark and the soak). */
      RATE_LIMITS: string;
      /** `on` where Cloudflare's edge sets `CF-Connecting-IP` (the deployed Worker); elsewhere a client sets it at will. */
      TRUST_CF_CONNECTING_IP: string;
      /** The job queue: sync requests, export pushes and the daily run's parts (one queue, one consumer). */
      JOB_QUEUE: Queue<import("./jobs/job").Job>;
      /** The name of the job queue's dead-letter queue (its consumer's `dead_letter_queue`): batches from it are jobs given up (src/jobs/dead-letters.ts). */
      JOB_DEAD_LETTER_QUEUE: string;
      /** `on` serves /sandbox/* and lets sandbox tenants use the sandbox bank. */
      SANDBOX: string;
      SANDBOX_BANK_PAGE_SIZE: string;
      AGGREGATOR_BASE_URL: string;
      /** The spreadsheet API's base address (export pushes); empty = the public API (the sandbox's stand-in where the sandbox is on). */
      SPREADSHEET_API_BASE_URL: string;
      /** The OAuth token endpoint refresh tokens are spent at; empty = Google's (the sandbox's stand-in where the sandbox is on). */
      SPREADSHEET_OAUTH_TOKEN_URL: string;
      /** The deployment's OAuth client for the spreadsheet API (destinations' refresh tokens are minted for it); its secret is a secret. */
      SPREADSHEET_OAUTH_CLIENT_ID: string;
      SPREADSHEET_OAUTH_CLIENT_SECRET?: string;
      /** Secrets: the key spreadsheet destinations' tokens are sealed with (32 bytes, base64), and the one being rotated out. */
      SPREADSHEET_TOKEN_KEY?: string;
      SPREADSHEET_TOKEN_KEY_PREVIOUS?: string;
      /** Deployment switches, `on` by default; off, the read or verb answers 404. */
      TAXONOMY_READ: string;
      CATEGORY_VERBS: string;
      EXPLANATION_READ: string;
      /** The local model's confidence floor (0..1): at or above it the model decides a line. */
      DUH_BAND_FLOOR: string;
      /** The tail: a chat-completions API. Unset base URL, model or key = no tail calls. */
      MODEL_API_BASE_URL: string;
      MODEL_NAME: string;
      MODEL_PRICE_INPUT_MILLICENTS_PER_MTOK: string;
      MODEL_PRICE_OUTPUT_MILLICENTS_PER_MTOK: string;
      /** Secret: the tail's API key. */
      MODEL_API_KEY?: string;
      /** The SMS carrier's API base address (empty = the public API) and the number texts come from. */
      SMS_API_BASE_URL: string;
      SMS_FROM: string;
      /** Secrets: the SMS carrier's account and auth token (the token also checks inbound webhooks). */
      SMS_ACCOUNT_SID?: string;
      SMS_AUTH_TOKEN?: string;
      /** Secret: the key of the grant codes' digests (a sandbox deployment has a fixed one). */
      GRANT_CODE_KEY?: string;
      /** How long a grant request can be confirmed, in minutes (default 10). */
      GRANT_REQUEST_TTL_MINUTES: string;
      /** Secrets: the aggregator's client credentials. */
      AGGREGATOR_CLIENT_ID?: string;
      AGGREGATOR_SECRET?: string;
      /** The name the aggregator's link page shows the person connecting a bank. */
      AGGREGATOR_CLIENT_NAME: string;
      /**
       * Secret: the keys the aggregator's access tokens are encrypted under at rest,
       * `<key id>:<base64 of 32 bytes>`, several separated by commas; the first encrypts,
       * any decrypts a token that names its id (src/banks/bank-tokens.ts).
       */
      BANK_TOKEN_KEY?: string;
      /** The transactional mail API (empty = the public API) and the sender of the owner's mail. */
      EMAIL_API_BASE_URL: string;
      EMAIL_FROM: string;
      /** Secret: the mail API's server token. */
      EMAIL_API_TOKEN?: string;
    }
  }
}

/** The Worker's environment; declared on `Cloudflare.Env` so `cloudflare:workers` and tests see it too. */
export type Env = Cloudflare.Env;

/** A deployment switch: anything but `off` is on (they default to on). */
export function switchOn(value: string | undefined): boolean {
  return value !== "off";
}

/** The tenant's own Durable Object, which holds its ledger. */
export function ledgerOf(env: Env, tenant: string): DurableObjectStub<TenantLedger> {
  return env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(tenant));
}

export function sandboxOn(env: Pick<Env, "SANDBOX">): boolean {
  return env.SANDBOX === "on";
}
