import type { Env } from "../../env";
import { AggregatorBank } from "./aggregator";
import { SandboxBank } from "./sandbox";
import { BankProviderError, type BankProvider } from "./types";

export interface ConnectionRef {
  provider: "sandbox" | "aggregator";
  accessToken: string;
}

/** The provider behind a tenant's connection, configured from the deployment. */
export function bankFor(env: Env, tenantId: string, connection: ConnectionRef): BankProvider {
  if (connection.provider === "sandbox") {
    return new SandboxBank(env.INDEX_DB, tenantId, Number(env.SANDBOX_BANK_PAGE_SIZE) || 100);
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
