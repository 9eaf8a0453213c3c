import type { z } from "@hono/zod-openapi";
import { stampUse } from "../../auth/grants";
import { settle } from "../../errors";
import { defineEndpoint, JsonAnswer } from "../define";
import { PER_PAGE_CAP } from "../shared";
import { filedVerdictResponse } from "../reports/schema";
import { verdictHistoryQuery, verdictHistoryResponse, verdictParams, verdictQuery } from "./schema";

const READERS =
  "The owner's credentials read it (a session, a read-only or read-write token), and so does an auditor grant token " +
  "while its grant is live (each read stamps the grant's last-read time, to the minute).";


export const listParityVerdicts = defineEndpoint({
  operationId: "list_parity_verdicts",
  method: "get",
  path: "/api/v1/reports/parity-verdicts",
  tag: "reports",
  summary: "List the parity verdicts",
  description:
    "The parity verdicts filed, newest day first: by the daily run from the tenant's oracle source, or by " +
    "record_pnl_parity. Each (`status` `filed`) says whether the books and the oracle matched (`match`: the coefficient " +
    "is 0), the twelve deltas, the deltas no transaction wholly explains (`unexplained`), how many localisations it holds " +
    "and where its oracle came from; read one verdict (get_parity_verdict) for its localisations and its oracle report. " +
    "A daily run that filed no verdict is listed beside them (`status` `failed`) with why (`error`: the oracle's answer, " +
    "or the job queue giving up on the day). `from` and `to` bound the day; `revisions=latest` lists each day's verdict " +
    "(or, for a day without one, its last failed run), `revisions=all` every revision and every failed run. Paged: " +
    `\`per_page\` defaults to 50, capped at 100. ${READERS}`,
  credential: "read_or_grant",
  query: verdictHistoryQuery,
  success: { status: 200, description: "A page of the verdict history: verdicts, and the daily runs that filed none.", schema: verdictHistoryResponse },
  async handler({ env, caller, ledger, query, now, defer }) {
    const perPage = Math.min(query.per_page, PER_PAGE_CAP);
    const filter = { from: query.from ?? null, to: query.to ?? null, revisions: query.revisions };
    stampUse(env.INDEX_DB, caller.grant, now, defer);
    const page = settle(await ledger.verdicts(filter, query.page, perPage));
    return { verdicts: page.verdicts, page: query.page, per_page: perPage, total: page.total };
  },
});

export const getParityVerdict = defineEndpoint({
  operationId: "get_parity_verdict",
  method: "get",
  path: "/api/v1/reports/parity-verdicts/{as_of}",
  tag: "reports",
  summary: "Read one parity verdict",
  description:
    "One day's verdict: the day's newest revision, or the `revision` named. Whether it matched, the coefficient, the " +
    "twelve deltas, every localisation (RECATEGORIZED, AMOUNT_DIFF, WINDOW_EDGE, MISSING_ON_LOCAL, MISSING_ON_ORACLE) " +
    "with how each side has the transaction, the deltas no transaction wholly explains with the amount left over " +
    "(`unexplained`), and the oracle: where it came from (`daily` with its source's address, or `manual`), who filed " +
    "it, and the report itself as received. Served as it was filed. 404 when no verdict (or no such revision) is " +
    `filed for the day; for a day whose daily run failed, the 404 says why. ${READERS}`,
  credential: "read_or_grant",
  params: verdictParams,
  query: verdictQuery,
  success: { status: 200, description: "The verdict with its oracle.", schema: filedVerdictResponse },
  errors: { not_found: "No verdict is filed for the day (the detail names the day's failed oracle run, if any), or no such revision of it." },
  async handler({ env, caller, ledger, params, query, now, defer }) {
    stampUse(env.INDEX_DB, caller.grant, now, defer);
    const json = settle(await ledger.verdictJson(params.as_of, query.revision ?? null));
    return new JsonAnswer<z.input<typeof filedVerdictResponse>>(json);
  },
});
