import { confirmGrant, listGrants, offerGrant, revokeGrant, stampUse } from "../../auth/grants";
import { ApiError, settle } from "../../errors";
import { carrierFor } from "../../providers/sms";
import type { z } from "@hono/zod-openapi";
import { defineEndpoint, JsonAnswer } from "../define";
import {
  ADD_BACKS_PER_PAGE_CAP,
  auditorViewQuery,
  auditorViewResponse,
  confirmBody,
  confirmResponse,
  grantParams,
  grantResponse,
  grantsResponse,
  offerBody,
  offerResponse,
  requestParams,
  revokeBody,
} from "./schema";

export const offerAuditorGrant = defineEndpoint({
  operationId: "offer_auditor_grant",
  method: "post",
  path: "/api/v1/auditor/grants",
  tag: "auditor",
  summary: "Offer a read-only auditor grant",
  description:
    "Files a grant request for a named viewer and texts a six-digit code to the customer's own enrolled phone (never to " +
    "the viewer). Returns only `request_id`; confirm it with the code. Session only: a bearer token, the tool face " +
    "included, is 403, so an auditor can never mint or renew its own grant. 503 when the deployment holds no outbound " +
    "SMS credential (nothing is filed). The request expires after 10 minutes unless configured otherwise.",
  credential: "session",
  body: offerBody,
  success: { status: 200, description: "The request is filed and the code texted.", schema: offerResponse },
  errors: {
    sms_unavailable: "No outbound SMS credential (checked before anything is filed).",
    grant_key_missing: "No key for grant codes (checked before anything is filed).",
    sms_send_failed: "The code could not be texted; offer the grant again.",
  },
  async handler({ env, caller, body, now }) {
    return offerGrant(env, caller.tenant, carrierFor(env, caller.tenant), body, now);
  },
});

export const confirmAuditorGrant = defineEndpoint({
  operationId: "confirm_auditor_grant",
  method: "post",
  path: "/api/v1/auditor/grants/{request_id}/confirm",
  tag: "auditor",
  summary: "Confirm a grant with its code",
  description:
    "Makes the grant live with the code texted to the customer, the same `viewer_name` and the same `viewer_channel` as " +
    "at the offer. Answers the live grant and its token: an auditor-scope credential valid 24 hours that reads " +
    "GET /api/v1/auditor/view and the parity verdicts (GET /api/v1/reports/parity-verdicts and /{as_of}) and nothing else, shown once. 403 names the reason: `code_wrong`, `name_mismatch`, " +
    "`too_many_attempts` (a request takes 5 codes; then offer the grant again for a new code), `request_expired`, " +
    "`request_used`. 404 for a request this tenant never filed. 429 `too_many_requests` with Retry-After once one client " +
    "has failed 20 confirmations in an hour (the waits then double from 1 s to 15 minutes). Session only.",
  credential: "session",
  params: requestParams,
  body: confirmBody,
  success: { status: 200, description: "The grant is live.", schema: confirmResponse },
  errors: {
    request_used: "The request was confirmed already.",
    request_expired: "The request is past its time to confirm.",
    too_many_attempts: "The request has spent its attempts at the code.",
    name_mismatch: "The viewer's name differs from the offer's.",
    code_wrong: "The code (or the viewer's channel) does not match.",
    not_found: "This tenant filed no such request.",
    too_many_requests: "Too many failed confirmations from this client lately.",
  },
  async handler({ env, caller, params, body, now, address }) {
    return confirmGrant(env, caller.tenant.id, params.request_id, body, now, address);
  },
});

export const revokeAuditorGrant = defineEndpoint({
  operationId: "revoke_auditor_grant",
  idempotent: true,
  method: "post",
  path: "/api/v1/auditor/grants/{grant_id}/revoke",
  tag: "auditor",
  summary: "Revoke an auditor grant",
  description:
    "Stamps `revoked_at`; the grant is never live again, and reads through its token are then 403 `grant_revoked`. A new " +
    "look needs a new grant. Revoking again answers the revoked grant unchanged. The body is optional and may repeat " +
    "`grant_id`. Session only.",
  credential: "session",
  params: grantParams,
  body: revokeBody,
  bodyRequired: false,
  success: { status: 200, description: "The revoked grant.", schema: grantResponse },
  errors: { not_found: "This tenant has no such grant." },
  async handler({ env, caller, params, body, now }) {
    if (body?.grant_id !== undefined && body.grant_id !== params.grant_id) {
      throw ApiError.pathBodyMismatch(["grant_id"]);
    }
    const grant = await revokeGrant(env.INDEX_DB, caller.tenant.id, params.grant_id, now);
    if (!grant) throw ApiError.notFound(`This tenant has no grant ${params.grant_id}.`);
    return { grant };
  },
});

export const listAuditorGrants = defineEndpoint({
  operationId: "list_auditor_grants",
  method: "get",
  path: "/api/v1/auditor/grants",
  tag: "auditor",
  summary: "List auditor grants",
  description: "Every grant the customer confirmed, newest first, with its status, revocation and last-read stamps. Session only.",
  credential: "session",
  success: { status: 200, description: "The grants.", schema: grantsResponse },
  async handler({ env, caller, now }) {
    return { grants: await listGrants(env.INDEX_DB, caller.tenant.id, now) };
  },
});

export const getAuditorView = defineEndpoint({
  operationId: "get_auditor_view",
  method: "get",
  path: "/api/v1/auditor/view",
  tag: "auditor",
  summary: "Read the auditor view",
  description:
    "For an auditor grant token only: calendar-month totals of the lines in books, the owner add-back list (booked " +
    "lines under `draw` categories) with its totals, and the provider's verbatim records of those lines. By default " +
    "(`form=full`) every add-back comes with its record at once, oldest first; with `form=paged` they come a page at a " +
    "time (`page`, `per_page`, at most 500). The grant is the one the token's label names, never one from the " +
    "request. Each read stamps the grant's last-read time (to the minute: a read within a minute of the stamp leaves it). Any other credential, a personal access token or a session " +
    "included, is 403; so is a revoked (`grant_revoked`) or expired (`grant_expired`) grant.",
  credential: "auditor",
  query: auditorViewQuery,
  success: { status: 200, description: "The auditor view.", schema: auditorViewResponse },
  async handler({ env, caller, ledger, face, query, now, defer }) {
    const grant = caller.grant!;
    const ask = { form: query.form, page: query.page, perPage: Math.min(query.per_page, ADD_BACKS_PER_PAGE_CAP) };
    stampUse(env.INDEX_DB, grant, now, defer);
    const view = settle(await ledger.auditorViewJson(face, grant.id, ask));
    return new JsonAnswer<z.input<typeof auditorViewResponse>>(view);
  },
});
