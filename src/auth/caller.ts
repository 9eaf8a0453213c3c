/**
 * Who is calling: the credential on a request, resolved to a tenant and a role. The tenant
 * always comes from the credential, never from the request: a person's session names the
 * tenant they are working in now, and their role there comes from their live seat.
 */
/**
 * src/auth/ (entry: this file, the credential rules every face checks): who may call, and as
 * whom. Tenants and their passwords, sign-up, sign-in, sessions, personal access tokens,
 * auditor grants, people and their seats, the emailed links and password resets, sealed
 * secrets (sealing.ts) and shared crypto (crypto.ts). May import the index (index-db/, where credentials live), the limits, the
 * mail and text adapters (providers/), the ledger, env.ts, errors.ts and the ground
 * floor. Imported by the faces and the services that act for a tenant; never imports a
 * face or a job runner.
 */
import type { ErrorCode } from "../error-catalog";
import { ApiError } from "../errors";
import type { GrantRecord } from "./grants";
import type { Role } from "../index-db/schema";
import { findLiveSession, SESSION_COOKIE } from "./sessions";
import type { TenantRecord } from "./tenants";
import { verifyToken, type TokenScope } from "./tokens";
import { personActor } from "../ledger/books/people";

/** The person behind a person's session. */
export interface CallerPerson {
  id: string;
  name: string;
  email: string;
}

export interface Caller {
  tenant: TenantRecord;
  /**
   * What the caller may do in the tenant (CREDENTIAL_RULES' `roles`): a person's session
   * has its seat's role; the owner's session (the tenant's password) and a personal access
   * token (which only the owner mints) are the owner's; null for an auditor grant token,
   * which the rules' `grant` governs instead.
   */
  role: Role | null;
  /** The person a person's session signed in; null for every other credential. */
  person: CallerPerson | null;
  /** `auditor`: an auditor grant token, which reads the auditor view and the parity verdicts, nothing else. */
  kind: "session" | "token" | "auditor";
  scope: TokenScope;
  /** The token's key id; null for a session. */
  kid: string | null;
  /** The actor recorded for a write: `human:<tenant>` (the owner's session), `person:<id>` (a person's session) or `token:<tenant>:<kid>` (`auditor:<tenant>:<grant>` for a grant). */
  actor: string;
  /** The grant an auditor token's label names; null for every other credential. */
  grant: GrantRecord | null;
  /** What the credential rate limit counts by: `token:<kid>`, `grant:<grant id>` or `session:<hash of the cookie>`. */
  rateKey: string;
}

/** How an endpoint may be reached: one of CREDENTIAL_RULES. */
export type CredentialRule = "read" | "write" | "session" | "auditor" | "read_or_grant" | "public";

interface RuleText {
  who: string;
  /** The roles a session (or token) must hold in the tenant to pass; others get `role_refused`. */
  roles: readonly Role[];
  refused: readonly ErrorCode[];
  /** What an auditor grant token gets: refused (`auditor_scope`), let in as well as the tenant's own credentials, or the only one let in. */
  grant: "refused" | "also" | "only";
}

/**
 * The credential rules, written once: who may call an endpoint under each, and the 403s
 * the others get (`checkRule` applies them; the OpenAPI document, /api/v1 and the tool
 * face describe them from here). An auditor grant token reaches what `auditor` (the
 * auditor view) and `read_or_grant` (the parity verdicts) let it, and nothing else; a
 * session's state-changing request must come from this origin.
 */
export const CREDENTIAL_RULES: Record<CredentialRule, RuleText> = {
  read: {
    who: "any credential of the tenant's own: a session (the owner's, a bookkeeper's or a viewer's) or a personal access token, read-only or read-write",
    roles: ["owner", "bookkeeper", "viewer"],
    refused: ["auditor_scope"],
    grant: "refused",
  },
  write: {
    who: "the owner's or a bookkeeper's session (never a viewer's), or a read-write personal access token",
    roles: ["owner", "bookkeeper"],
    refused: ["read_only_token", "role_refused", "cross_origin", "auditor_scope"],
    grant: "refused",
  },
  session: {
    who: "the owner's browser session only: never a bearer token (so an auditor can never mint or renew its own grant), nor a bookkeeper's or a viewer's session",
    roles: ["owner"],
    refused: ["session_only", "role_refused", "cross_origin", "auditor_scope"],
    grant: "refused",
  },
  auditor: { who: "an auditor grant token, while its grant is live", roles: [], refused: ["auditor_only", "grant_revoked", "grant_expired"], grant: "only" },
  read_or_grant: {
    who: "any credential of the tenant's own (a session, the owner's, a bookkeeper's or a viewer's, or a personal access token, read-only or read-write), or an auditor grant token while its grant is live",
    roles: ["owner", "bookkeeper", "viewer"],
    refused: ["grant_revoked", "grant_expired"],
    grant: "also",
  },
  public: {
    who: "anyone, with no credential (one sent is not read), limited per client address; not a tool on the tool face, whose tools act for the tenant of their token",
    roles: [],
    refused: [],
    grant: "refused",
  },
};

/** What each role does, in words (the refusal of a role says so). */
export const ROLE_WORDS: Record<Role, string> = {
  owner: "the owner: everything, including tokens, grants, people, destinations, the phone and banks",
  bookkeeper: "a bookkeeper: reads the books, categorises, labels, adjudicates, writes rules and reports; no tokens, grants, people, destinations, phone or banks",
  viewer: "a viewer: reads the books and the reports, and changes nothing",
};

/** What an auditor grant token reaches, in words (its refusal elsewhere says so). */
export const GRANT_REACH = "the auditor view (GET /api/v1/auditor/view) and the parity verdicts (GET /api/v1/reports/parity-verdicts...)";

const refused = (detail: string) => new ApiError("credential_refused", detail);

export async function resolveCaller(request: Request, d1: D1Database, now: Date): Promise<Caller> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (!bearer) throw refused("The Authorization header must be `Bearer <token>`.");
    const token = await verifyToken(d1, bearer, now);
    if (!token) throw refused("The bearer token is unknown, expired or revoked.");
    const tenant = token.tenant;
    if (token.scope === "auditor") {
      const grant = token.grant;
      if (!grant || grant.tokenKid !== token.kid || grant.tenantId !== tenant.id) throw refused("The bearer token names no grant.");
      return { tenant, role: null, person: null, kind: "auditor", scope: "auditor", kid: token.kid, actor: `auditor:${tenant.id}:${grant.id}`, grant, rateKey: `grant:${grant.id}` };
    }
    return { tenant, role: "owner", person: null, kind: "token", scope: token.scope, kid: token.kid, actor: `token:${tenant.id}:${token.kid}`, grant: null, rateKey: `token:${token.kid}` };
  }
  const cookie = getCookieFrom(request);
  if (cookie !== undefined) {
    const session = await findLiveSession(d1, cookie, now);
    if (!session) throw refused("The session has ended or expired; sign in again at /signin.");
    const tenant = session.tenant;
    const common = { tenant, kind: "session", scope: "read_write", kid: null, grant: null, rateKey: `session:${session.idHash}` } as const;
    if (session.personId === null) return { ...common, role: "owner", person: null, actor: `human:${tenant.id}` };
    // A person's seat in the session's tenant was revoked: the session reaches nothing there.
    if (!session.seat || !session.person) throw refused(`Your seat at ${tenant.id} was revoked; choose another business at /app/practice or sign in again.`);
    const person = { id: session.person.id, name: session.person.name, email: session.person.email };
    return { ...common, role: session.seat.role, person, actor: personActor(person.id) };
  }
  throw new ApiError("credential_missing", "No credential: send `Authorization: Bearer <token>` or the svc_session cookie.");
}

/** Applies an endpoint's credential rule to a resolved caller: its refusal (ruleRefusal) is thrown, and a session's write must come from this origin. */
export function checkRule(caller: Caller, rule: CredentialRule, request: Request, now: Date = new Date()): void {
  const refusal = ruleRefusal(caller, rule, now);
  if (refusal) throw refusal;
  if (rule !== "read" && rule !== "read_or_grant" && caller.kind === "session") requireSameOrigin(request);
}

/**
 * Why a resolved caller does not pass a credential rule, or null when it does: the grant's
 * checks, then the credential's kind, the role, and a read-only token on a write. (The
 * request's origin is checkRule's.) The pages ask it too, to offer only the forms the
 * caller may send.
 */
export function ruleRefusal(caller: Caller, rule: CredentialRule, now: Date = new Date()): ApiError | null {
  const { grant } = CREDENTIAL_RULES[rule];
  if (caller.grant !== null) {
    if (grant === "refused") return new ApiError("auditor_scope", `An auditor grant token reads ${GRANT_REACH}, and nothing else.`);
    if (caller.grant.revokedAt !== null) return new ApiError("grant_revoked", `The owner revoked this grant on ${caller.grant.revokedAt}; a new look needs a new grant.`);
    if (Date.parse(caller.grant.expiresAt) <= now.getTime()) return new ApiError("grant_expired", `This grant's 24 hours ended at ${caller.grant.expiresAt}; a new look needs a new grant.`);
    return null;
  }
  if (grant === "only") {
    return new ApiError("auditor_only", "The auditor view reads only through an auditor grant token; a personal access token or a session is refused.");
  }
  if (rule === "session" && caller.kind !== "session") {
    return new ApiError("session_only", "This operation needs a browser session; bearer tokens are refused here.");
  }
  if (caller.role === null || !CREDENTIAL_RULES[rule].roles.includes(caller.role)) {
    return new ApiError("role_refused", `Your role here is ${ROLE_WORDS[caller.role ?? "viewer"]}; this needs ${CREDENTIAL_RULES[rule].who}.`);
  }
  if (rule === "read" || rule === "read_or_grant") return null;
  if (caller.kind === "token" && caller.scope === "read_only") {
    return new ApiError("read_only_token", "This token is read-only; mint a read-write token at /settings to write.");
  }
  return null;
}

/** A state-changing request made with a session must come from this origin (or say none). */
export function requireSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== new URL(request.url).origin) {
    throw new ApiError("cross_origin", "A request made with a session must come from this service's own origin.");
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

