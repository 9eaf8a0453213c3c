/**
 * The shared merchant prior's day (src/ledger/model/shared-prior.ts): at the daily run's
 * start every opted-in tenant's contribution is pooled once (`poolSharedPrior`); then, in
 * each tenant's day, where it opted in, its contribution replaces yesterday's in the index
 * (pooled at the next day's start), and the day's pool of the words its lines name is
 * handed to its ledger, which its model reads from then on.
 */
import { settle } from "../errors";
import { ledgerOf, type Env } from "../env";
import { poolContributions, poolEntries, removeContribution, replaceContribution } from "../index-db/shared-prior";
import { SHARED_PRIOR_TENANTS } from "../ledger/model/shared-prior";

/** Pools the contributions as they stand, for the day's tenants to read; answers how many words the pool holds. */
export async function poolSharedPrior(env: Env, scheduledAt: Date): Promise<number> {
  return poolContributions(env.INDEX_DB, SHARED_PRIOR_TENANTS, scheduledAt);
}

/** What the day did: null where the tenant is not opted in. */
export interface SharedPriorDay {
  contributed: number;
  pooled: number;
}

/**
 * A tenant that is not opted in has its contribution removed as well: an opt-out landing
 * between this run's read of the contribution and its write to the index (the opt-out's own
 * removal then comes first) would otherwise leave the contribution there for good.
 */
export async function shareMerchantPrior(env: Env, tenant: string): Promise<SharedPriorDay | null> {
  const ledger = ledgerOf(env, tenant);
  const contribution = settle(await ledger.sharedPriorContribution());
  if (contribution !== null) {
    await replaceContribution(env.INDEX_DB, tenant, contribution);
    const pooled = await poolEntries(env.INDEX_DB, settle(await ledger.namedWords()));
    if (settle(await ledger.keepPooledPrior(pooled))) return { contributed: contribution.words.length, pooled: pooled.length };
  }
  await removeContribution(env.INDEX_DB, tenant);
  return null;
}
