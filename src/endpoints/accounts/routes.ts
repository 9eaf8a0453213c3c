import { settle } from "../../errors";
import { defineEndpoint } from "../define";
import { accountsResponse } from "./schema";

export const listAccounts = defineEndpoint({
  operationId: "list_accounts",
  method: "get",
  path: "/api/v1/accounts",
  tag: "books",
  summary: "List sub-accounts",
  description:
    "The bank sub-accounts the feed has delivered lines for, with counts over the rows this face serves. The pending count " +
    "comes from the books: a line that has since posted is not counted.",
  credential: "read",
  success: { status: 200, description: "The sub-accounts.", schema: accountsResponse },
  async handler({ ledger, face }) {
    return { accounts: settle(await ledger.accounts(face)) };
  },
});
