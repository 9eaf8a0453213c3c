/** The generated descriptions of the endpoint index: /api/v1 and the OpenAPI document's frame. */
import { CREDENTIAL_RULES } from "../auth/caller";
import { RATE_LIMITS } from "../limits/rate-limit";
import type { Endpoint } from "./define";

const { credential: perCredential, address: perAddress } = RATE_LIMITS;

export const OPENAPI_INFO = {
  title: "Ledger Service API",
  version: "v1",
  description:
    "Books for small businesses, kept from the bank feed. Every line is categorised by rules, an append-only ledger of " +
    "human judgements, a model or a person; every decision can be explained; nothing is edited or deleted. Money is integer " +
    "cents (positive = money in); dates are ISO; errors are application/problem+json.\n\n" +
    "Input is read strictly, and a refusal names each field in `errors`: a date is a calendar date YYYY-MM-DD from " +
    "1900-01-01 to 9999-12-31; an integer in a query or a path is decimal digits (`16`, never `0x10`, `1e1`, `16.0` " +
    "or `016`), at most 9007199254740991; text you write (names, labels, keys, patterns, searches) holds no control " +
    "character (a label's `reason` may hold tab and line breaks) and no lone surrogate; a query string is UTF-8. " +
    "Bank text is served as the bank sent it, control characters included (JSON escapes them).\n\n" +
    `Rate limits: each credential (personal access token, grant token or session) may make ${perCredential.limit} calls ` +
    `every ${perCredential.periodSeconds} seconds, and each client address ${perAddress.limit.toLocaleString("en-US")} ` +
    `every ${perAddress.periodSeconds} seconds, whatever the operation. A call over either is refused with 429 ` +
    "`rate_limited` and `Retry-After` (seconds) before anything is done; wait that long and send it again. A client " +
    "that syncs and categorises a year of history one call after another stays well inside them; one that sends many " +
    "calls at once should keep to about 50 a second. Through the MCP tool face a tool call over the credential's limit " +
    "is a tool error carrying the same problem.",
};

export const SECURITY_SCHEMES = {
  bearerToken: {
    type: "http" as const,
    scheme: "bearer",
    description:
      "A personal access token minted at /settings (read-only or read-write, one year), or an auditor grant token (24 hours; it reads the auditor view, GET /api/v1/auditor/view, and the parity verdicts, GET /api/v1/reports/parity-verdicts and /{as_of}, and nothing else).",
  },
  sessionCookie: {
    type: "apiKey" as const,
    in: "cookie" as const,
    name: "svc_session",
    description: "The browser session set by /signin. State-changing requests need a same-origin Origin (or none).",
  },
};

export function describeApi(index: readonly Endpoint[]) {
  return {
    version: "v1",
    openapi: "/openapi.json",
    endpoints: index.map((e) => ({
      operation_id: e.operationId,
      method: e.method.toUpperCase(),
      path: e.path,
      summary: e.summary,
      access: e.access,
      credential: e.credential,
      credential_rule: CREDENTIAL_RULES[e.credential].who,
    })),
  };
}
