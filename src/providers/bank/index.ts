import { sandboxOn, type Env } from "../../env";
import { AggregatorBank } from "./aggregator";
import { AggregatorLink } from "./aggregator-link";
import type { BankLink } from "./link";
import { SandboxBank } from "./sandbox";
import { SandboxLink } from "./sandbox-link";
import { BankProviderError, type BankProvider } from "./types";

export interface ConnectionRef {
  provider: "sandbox" | "aggregator";
  /** In the clear (the watcher decrypts it); empty for the sandbox bank of a sandbox sign-up. */
  accessToken: string;
  itemId: string | null;
}

/** The provider behind a tenant's connection, configured from the deployment. */
export function bankFor(env: Env, tenantId: string, connection: ConnectionRef): BankProvider {
  if (connection.provider === "sandbox") {
    const item = connection.itemId === null ? null : { itemId: connection.itemId, accessToken: connection.accessToken };
    return new SandboxBank(env.INDEX_DB, tenantId, Number(env.SANDBOX_BANK_PAGE_SIZE) || 100, item);
  }
  if (!env.AGGREGATOR_CLIENT_ID || !env.AGGREGATOR_SECRET) {
    throw new BankProviderError("the deployment holds no aggregator credentials (AGGREGATOR_CLIENT_ID, AGGREGATOR_SECRET)", false);
  }
  return new AggregatorBank({
    baseUrl: env.AGGREGATOR_BASE_URL,
    clientId: env.AGGREGATOR_CLIENT_ID,
    secret: env.AGGREGATOR_SECRET,
    accessToken: connection.accessToken,
  });
}

/**
 * Where a bank is linked: the sandbox's stand-in of the aggregator's link flow where the
 * sandbox is on (its page is served at `origin`), otherwise the aggregator, when its client
 * credentials are set. Neither: null, and linking says so.
 */
export function bankLinkFor(env: Env, origin: string): { link: BankLink; provider: "sandbox" | "aggregator" } | null {
  if (sandboxOn(env)) return { link: new SandboxLink(env.INDEX_DB, origin), provider: "sandbox" };
  if (!env.AGGREGATOR_CLIENT_ID || !env.AGGREGATOR_SECRET) return null;
  return {
    link: new AggregatorLink({ baseUrl: env.AGGREGATOR_BASE_URL, clientId: env.AGGREGATOR_CLIENT_ID, secret: env.AGGREGATOR_SECRET }),
    provider: "aggregator",
  };
}

/** The link flow that serves an existing connection (its removal, its update mode), whatever the deployment links new banks through. */
export function bankLinkOf(env: Env, origin: string, provider: "sandbox" | "aggregator"): BankLink | null {
  if (provider === "sandbox") return new SandboxLink(env.INDEX_DB, origin);
  if (!env.AGGREGATOR_CLIENT_ID || !env.AGGREGATOR_SECRET) return null;
  return new AggregatorLink({ baseUrl: env.AGGREGATOR_BASE_URL, clientId: env.AGGREGATOR_CLIENT_ID, secret: env.AGGREGATOR_SECRET });
}
