/** The generated descriptions of the endpoint index: /api/v1 and the OpenAPI document's frame. */
import type { Endpoint } from "./define";

export const OPENAPI_INFO = {
  title: "Ledger Service API",
  version: "v1",
  description:
    "Books for small businesses, kept from the bank feed. Every line is categorised by rules, an append-only ledger of " +
    "human judgements, a model or a person; every decision can be explained; nothing is edited or deleted. Money is integer " +
    "cents (positive = money in); dates are ISO; errors are application/problem+json.",
};

export const SECURITY_SCHEMES = {
  bearerToken: {
    type: "http" as const,
    scheme: "bearer",
    description:
      "A personal access token minted at /settings (read-only or read-write, one year), or an auditor grant token (24 hours; it reads GET /api/v1/auditor/view and nothing else).",
  },
  sessionCookie: {
    type: "apiKey" as const,
    in: "cookie" as const,
    name: "svc_session",
    description: "The browser session set by /signin. State-changing requests need a same-origin Origin (or none).",
  },
};

const CREDENTIAL_WORDS = {
  read: "any tenant credential: a session or a personal access token",
  write: "a session or a read-write personal access token (a read-only token is 403)",
  session: "a browser session only (bearer tokens are 403)",
  auditor: "an auditor grant token only, while its grant is live (any other credential is 403)",
} as const;

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
      credential_rule: CREDENTIAL_WORDS[e.credential],
    })),
  };
}
