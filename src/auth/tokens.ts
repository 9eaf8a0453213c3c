/**
 * Personal access tokens: `lat.<kid>.<secret>`. The kid is public (it names the token
 * in the actor); only a SHA-256 hash of the secret is stored. Lifetime one year.
 */
import { and, desc, eq, isNull, ne } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { accessTokens, auditorGrants } from "../index-db/schema";
import { constantTimeEqual, randomSecret, sha256Hex } from "./crypto";
import type { TenantRecord } from "./tenants";

export const TOKEN_LIFETIME_DAYS = 365;
/** A personal access token's scope; `auditor` is a grant token's (minted by a grant confirm). */
export type TokenScope = "read_only" | "read_write" | "auditor";

export interface MintedToken {
  kid: string;
  token: string;
  label: string;
  scope: TokenScope;
  expires_at: string;
}

export async function mintToken(
  d1: D1Database,
  tenantId: string,
  label: string,
  scope: TokenScope,
  now: Date,
  options: { kid?: string; expiresAt?: Date } = {},
): Promise<MintedToken> {
  const kid = options.kid ?? [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
  const secret = randomSecret(32);
  const expiresAt = (options.expiresAt ?? new Date(now.getTime() + TOKEN_LIFETIME_DAYS * 86_400_000)).toISOString();
  await drizzle(d1)
    .insert(accessTokens)
    .values({ kid, tenantId, label, scope, secretHash: await sha256Hex(secret), createdAt: now.toISOString(), expiresAt });
  return { kid, token: `lat.${kid}.${secret}`, label, scope, expires_at: expiresAt };
}

export async function listTokens(d1: D1Database, tenantId: string) {
  return drizzle(d1)
    .select({
      kid: accessTokens.kid,
      label: accessTokens.label,
      scope: accessTokens.scope,
      createdAt: accessTokens.createdAt,
      expiresAt: accessTokens.expiresAt,
      revokedAt: accessTokens.revokedAt,
    })
    .from(accessTokens)
    // Grant tokens are listed as grants, not here.
    .where(and(eq(accessTokens.tenantId, tenantId), ne(accessTokens.scope, "auditor")))
    .orderBy(desc(accessTokens.createdAt));
}

/** Revokes one of the tenant's own tokens; false when it has no such live token. */
export async function revokeToken(d1: D1Database, tenantId: string, kid: string, now: Date): Promise<boolean> {
  const revoked = await drizzle(d1)
    .update(accessTokens)
    .set({ revokedAt: now.toISOString() })
    .where(and(eq(accessTokens.kid, kid), eq(accessTokens.tenantId, tenantId), isNull(accessTokens.revokedAt), ne(accessTokens.scope, "auditor")))
    .returning({ kid: accessTokens.kid });
  return revoked.length > 0;
}

/** A token's columns, then its tenant's, in the order the per-request read lists them. */
const TOKEN_COLUMNS = ["kid", "tenant_id", "label", "scope", "secret_hash", "created_at", "expires_at", "revoked_at"] as const;
const TENANT_COLUMNS = [
  "id", "tier", "visible_from", "phone", "sms_enabled", "password_salt", "password_hash", "password_iterations", "created_at",
  "business_name", "owner_email", "email_verified_at", "terms_accepted_at", "signup_key_hash",
] as const;
/** How a grant token's label begins: the grant's id follows (grants.ts, `grantLabel`). */
export const GRANT_LABEL = "auditor-grant:";

/** A grant's columns, after them, for a grant token (null for any other). */
const GRANT_COLUMNS = ["id", "tenant_id", "request_id", "viewer_name", "viewer_channel", "token_kid", "created_at", "expires_at", "revoked_at", "last_read_at"] as const;
/**
 * The token, its tenant and, for a grant token, the grant its label names (`auditor-grant:<id>`),
 * in one read, as one raw statement: every authenticated request makes it, and building it
 * through drizzle cost more CPU than the read itself (about 2 ms a request under the CPU
 * profiler; docs/performance.md).
 */
const TOKEN_WITH_TENANT = `SELECT ${TOKEN_COLUMNS.map((c) => `t.${c}`).join(", ")}, ${TENANT_COLUMNS.map((c) => `n.${c}`).join(", ")},
    ${GRANT_COLUMNS.map((c) => `g.${c}`).join(", ")}
  FROM access_tokens t JOIN tenants n ON n.id = t.tenant_id
  LEFT JOIN auditor_grants g ON t.scope = 'auditor' AND g.id = CAST(substr(t.label, ${GRANT_LABEL.length + 1}) AS INTEGER) AND t.label = '${GRANT_LABEL}' || g.id
  WHERE t.kid = ?`;

type TokenRecord = typeof accessTokens.$inferSelect;
type GrantOfToken = typeof auditorGrants.$inferSelect;

function tokenWithTenant(values: unknown[]): TokenRecord & { tenant: TenantRecord; grant: GrantOfToken | null } {
  const [kid, tenantId, label, scope, secretHash, createdAt, expiresAt, revokedAt, ...rest] = values as [string, string, string, TokenScope, string, string, string, string | null, ...unknown[]];
  const tenant = rest.slice(0, TENANT_COLUMNS.length);
  const grant = rest.slice(TENANT_COLUMNS.length);
  const [id, tier, visibleFrom, phone, smsEnabled, passwordSalt, passwordHash, passwordIterations, tenantCreatedAt, businessName, ownerEmail, emailVerifiedAt, termsAcceptedAt, signupKeyHash] = tenant;
  const [grantId, grantTenantId, requestId, viewerName, viewerChannel, tokenKid, grantCreatedAt, grantExpiresAt, grantRevokedAt, lastReadAt] = grant;
  return {
    kid,
    tenantId,
    label,
    scope,
    secretHash,
    createdAt,
    expiresAt,
    revokedAt,
    tenant: {
      id: id as string,
      tier: tier as TenantRecord["tier"],
      visibleFrom: visibleFrom as string | null,
      phone: phone as string,
      smsEnabled: smsEnabled === 1,
      passwordSalt: passwordSalt as string,
      passwordHash: passwordHash as string,
      passwordIterations: passwordIterations as number,
      createdAt: tenantCreatedAt as string,
      businessName: businessName as string | null,
      ownerEmail: ownerEmail as string | null,
      emailVerifiedAt: emailVerifiedAt as string | null,
      termsAcceptedAt: termsAcceptedAt as string | null,
      signupKeyHash: signupKeyHash as string | null,
    },
    grant:
      grantId === null
        ? null
        : {
            id: grantId as number,
            tenantId: grantTenantId as string,
            requestId: requestId as number,
            viewerName: viewerName as string,
            viewerChannel: viewerChannel as string,
            tokenKid: tokenKid as string,
            createdAt: grantCreatedAt as string,
            expiresAt: grantExpiresAt as string,
            revokedAt: grantRevokedAt as string | null,
            lastReadAt: lastReadAt as string | null,
          },
  };
}

/**
 * The token a bearer value names, or undefined for anything this surface refuses. A
 * personal token must be live; a grant token is returned whatever its age, because its
 * grant decides, and names why (revoked, expired) with a 403 rather than a 401.
 */
export async function verifyToken(d1: D1Database, presented: string, now: Date) {
  const match = /^lat\.([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/.exec(presented);
  if (!match) return undefined;
  const [, kid, secret] = match as unknown as [string, string, string];
  const [values] = await d1.prepare(TOKEN_WITH_TENANT).bind(kid).raw();
  const presentedHash = await sha256Hex(secret);
  const token = values ? tokenWithTenant(values) : undefined;
  if (!token || !constantTimeEqual(presentedHash, token.secretHash)) return undefined;
  if (token.scope === "auditor") return token;
  if (token.revokedAt !== null || Date.parse(token.expiresAt) <= now.getTime()) return undefined;
  return token;
}
