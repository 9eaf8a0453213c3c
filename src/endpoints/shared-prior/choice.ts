/**
 * The tenant's choice on the shared merchant prior as the API and the workspace read and
 * make it: the ledger's choice beside how many words the index holds of it, and an
 * opt-out that takes the contribution out of the index at once.
 */
import type { Env } from "../../env";
import { settle } from "../../errors";
import { contributedWords, removeContribution } from "../../index-db/shared-prior";
import type { SharedPriorChoice } from "../../ledger/model/shared-prior-kept";
import type { TenantLedger } from "../../ledger/tenant-ledger";

export interface SharedPriorStanding extends SharedPriorChoice {
  contributed_words: number;
}

type Ledger = DurableObjectStub<TenantLedger>;

export async function sharedPriorStanding(env: Env, ledger: Ledger, tenant: string): Promise<SharedPriorStanding> {
  const choice = settle(await ledger.sharedPriorChoice());
  return { ...choice, contributed_words: choice.opted_in ? await contributedWords(env.INDEX_DB, tenant) : 0 };
}

export async function chooseSharedPrior(env: Env, ledger: Ledger, tenant: string, optedIn: boolean, actor: string): Promise<SharedPriorStanding> {
  const choice = settle(await ledger.chooseSharedPrior(optedIn, actor));
  if (!choice.opted_in) await removeContribution(env.INDEX_DB, tenant);
  return { ...choice, contributed_words: choice.opted_in ? await contributedWords(env.INDEX_DB, tenant) : 0 };
}
