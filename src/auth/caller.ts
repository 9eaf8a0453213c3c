/**
 * Who is calling: the credential on a request, resolved to a tenant. The tenant always
 * comes from the credential, never from the request.
 */
import { ApiError } from "../errors";
import { grantOfToken, type GrantRecord } from "./grants";
import { findLiveSession, SESSION_COOKIE } from "./sessions";
import type { TenantRecord } from "./tenants";
import { verifyToken, type TokenScope } from "./tokens";

export interface Caller {
  tenant: TenantRecord;
  /** `auditor`: an auditor grant token, which reads the auditor view and nothing else. */
  kind: "session" | "token" | "auditor";
  scope: TokenScope;
  /** The token's key id; null for a session. */
  kid: string | null;
  /** The actor recorded for a write: `human:<tenant>` or `token:<tenant>:<kid>` (`auditor:<tenant>:<grant>` for a grant). */
  actor: string;
  /** The grant an auditor token's label names; null for every other credential. */
  grant: GrantRecord | null;
  /** What the credential rate limit counts by: `token:<kid>`, `grant:<grant id>` or `session:<hash of the cookie>`. */
  rateKey: string;
}

/**
 * How an endpoint may be reached:
 * - `read`: any tenant credential;
 * - `write`: a session or a read-write token (a read-only token is 403);
 * - `session`: a browser session only (any bearer token is 403);
 * - `auditor`: an auditor grant token only, while its grant is live (anything else is 403).
 * An auditor grant token is refused (403) by every rule but `auditor`.
 */
export type CredentialRule = "read" | "write" | "session" | "auditor";

const refused = (detail: string) => new ApiError(401, "credential_refused", detail);

export async function resolveCaller(request: Request, d1: D1Database, now: Date): Promise<Caller> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (!bearer) throw refused("The Authorization header must be `Bearer <token>`.");
    const token = await verifyToken(d1, bearer, now);
    if (!token) throw refused("The bearer token is unknown, expired or revoked.");
    const tenant = token.tenant;
    if (token.scope === "auditor") {
      const grant = await grantOfToken(d1, token.label);
      if (!grant || grant.tokenKid !== token.kid || grant.tenantId !== tenant.id) throw refused("The bearer token names no grant.");
      return { tenant, kind: "auditor", scope: "auditor", kid: token.kid, actor: `auditor:${tenant.id}:${grant.id}`, grant, rateKey: `grant:${grant.id}` };
    }
    return { tenant, kind: "token", scope: token.scope, kid: token.kid, actor: `token:${tenant.id}:${token.kid}`, grant: null, rateKey: `token:${token.kid}` };
  }
  const cookie = getCookieFrom(request);
  if (cookie !== undefined) {
    const session = await findLiveSession(d1, cookie, now);
    if (!session) throw refused("The session has ended or expired; sign in again at /signin.");
    const tenant = session.tenant;
    return { tenant, kind: "session", scope: "read_write", kid: null, actor: `human:${tenant.id}`, grant: null, rateKey: `session:${session.idHash}` };
  }
  throw new ApiError(401, "credential_missing", "No credential: send `Authorization: Bearer <token>` or the svc_session cookie.");
}

/** Applies an endpoint's credential rule to a resolved caller. */
export function checkRule(caller: Caller, rule: CredentialRule, request: Request, now: Date = new Date()): void {
  if (caller.grant !== null) {
    if (rule !== "auditor") {
      throw new ApiError(403, "auditor_scope", "An auditor grant token reads GET /api/v1/auditor/view and nothing else.");
    }
    if (caller.grant.revokedAt !== null) throw new ApiError(403, "grant_revoked", `The owner revoked this grant on ${caller.grant.revokedAt}; a new look needs a new grant.`);
    if (Date.parse(caller.grant.expiresAt) <= now.getTime()) throw new ApiError(403, "grant_expired", `This grant's 24 hours ended at ${caller.grant.expiresAt}; a new look needs a new grant.`);
    return;
  }
  if (rule === "auditor") {
    throw new ApiError(403, "auditor_only", "The auditor view reads only through an auditor grant token; a personal access token or a session is refused.");
  }
  if (rule === "session" && caller.kind !== "session") {
    throw new ApiError(403, "session_only", "This operation needs a browser session; bearer tokens are refused here.");
  }
  if (rule === "read") return;
  if (caller.kind === "token" && caller.scope === "read_only") {
    throw new ApiError(403, "read_only_token", "This token is read-only; mint a read-write token at /settings to write.");
  }
  if (caller.kind === "session") requireSameOrigin(request);
}

/** A state-changing request made with a session must come from this origin (or say none). */
export function requireSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== new URL(request.url).origin) {
    throw new ApiError(403, "cross_origin", "A request made with a session must come from this service's own origin.");
  }
}

function getCookieFrom(request: Request): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) return rest.join("=");
  }
  return undefined;
}

