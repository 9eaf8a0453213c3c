import { defineEndpoint } from "../define";
import { chooseSharedPrior, sharedPriorStanding } from "./choice";
import { sharedPriorBody, sharedPriorResponse } from "./schema";

const WHAT_IT_IS =
  "The shared merchant prior is opt-in. A tenant that takes part contributes, for each word that names one merchant in " +
  "its books on five labelled lines or more, the share of those lines in their most frequent category and, where nearly " +
  "all of them are in one, that category's name (folded: case, spacing and '&' for 'and' aside); and the folded names of " +
  "its categories. Nothing else: no line, label or amount. Pooled, a word counts only where at least five tenants " +
  "contributed it, and a category name only where at least five file the word under it. A tenant that takes part has its " +
  "local model read the pool: a merchant that other businesses split across categories (a warehouse club, a hardware " +
  "store, a check) stays below the duh band while the tenant's own few labels of it agree; and for a line of a merchant " +
  "its own labels do not show, the workspace's review suggests the category most others file it under, where the tenant " +
  "keeps a category of that name, as sure as the share of the businesses keeping that name that file it there. That " +
  "suggestion never decides a line. The daily run sends the contribution and hands over the pool's entries of the words " +
  "the tenant's own lines name (a merchant first seen today is read from the next day's run); opting out removes the " +
  "contribution at once and the model stops reading the pool.";

export const getSharedPrior = defineEndpoint({
  operationId: "get_shared_merchant_prior",
  method: "get",
  path: "/api/v1/shared-merchant-prior",
  tag: "books",
  summary: "Whether the tenant takes part in the shared merchant prior",
  description: `Whether the tenant takes part in the shared merchant prior, and how many words it contributes. ${WHAT_IT_IS}`,
  credential: "read",
  success: { status: 200, description: "The tenant's choice.", schema: sharedPriorResponse },
  async handler({ ledger, env, caller }) {
    return sharedPriorStanding(env, ledger, caller.tenant.id);
  },
});

export const setSharedPrior = defineEndpoint({
  operationId: "set_shared_merchant_prior",
  idempotent: true,
  method: "post",
  path: "/api/v1/shared-merchant-prior",
  tag: "books",
  summary: "Opt in to the shared merchant prior, or out",
  description: `Opts the tenant in to the shared merchant prior, or out. ${WHAT_IT_IS} Making the choice that stands appends nothing.`,
  credential: "write",
  body: sharedPriorBody,
  success: { status: 200, description: "The tenant's choice as it now stands.", schema: sharedPriorResponse },
  async handler({ ledger, env, caller, body }) {
    return chooseSharedPrior(env, ledger, caller.tenant.id, body.opted_in, caller.actor);
  },
});
