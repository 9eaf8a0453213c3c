/** Tenants: their rows in the index, and the password check of sign-in. */
import { asc, eq, gt } from "drizzle-orm";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import type { Tier } from "../tiers";
import { tenants } from "../index-db/schema";
import { constantTimeEqual, hashPassword, PASSWORD_ITERATIONS, randomSecret } from "./crypto";

export const TENANT_SLUG = /^[a-z0-9-]{3,40}$/;

/** A tenant's row as sign-up writes it (src/auth/signup.ts makes the whole sign-up). */
export interface NewTenantRow {
  tenant: string;
  tier: Tier;
  visibleFrom: string | null;
  /** E.164, or "" when none was given (codes and replies then cannot be texted). */
  phone: string;
  smsEnabled: boolean;
  password: string;
  businessName: string;
  ownerEmail: string | null;
  emailVerifiedAt: string | null;
  termsAcceptedAt: string | null;
  signupKeyHash: string | null;
}

export type TenantRecord = typeof tenants.$inferSelect;

/**
 * The tenant's row, its password hashed (PBKDF2, a random salt), as a statement for a D1
 * batch (wrapped: a bare statement answered from an async function would run): it fails
 * when the handle is taken.
 */
export async function insertTenantStatement(d1: D1Database, input: NewTenantRow, now: Date) {
  const salt = randomSecret(16);
  const passwordHash = await hashPassword(input.password, salt);
  const statement = drizzle(d1)
    .insert(tenants)
    .values({
      id: input.tenant,
      tier: input.tier,
      visibleFrom: input.visibleFrom,
      phone: input.phone,
      smsEnabled: input.smsEnabled,
      passwordSalt: salt,
      passwordHash,
      passwordIterations: PASSWORD_ITERATIONS,
      createdAt: now.toISOString(),
      businessName: input.businessName,
      ownerEmail: input.ownerEmail,
      emailVerifiedAt: input.emailVerifiedAt,
      termsAcceptedAt: input.termsAcceptedAt,
      signupKeyHash: input.signupKeyHash,
    });
  return { statement };
}

/** The next `limit` tenant ids after `after` (from the first when null), in id order: a page of the daily fan-out. */
export async function tenantIdsAfter(d1: D1Database, after: string | null, limit: number): Promise<string[]> {
  const rows = await drizzle(d1)
    .select({ id: tenants.id })
    .from(tenants)
    .where(after === null ? undefined : gt(tenants.id, after))
    .orderBy(asc(tenants.id))
    .limit(limit);
  return rows.map((t) => t.id);
}

export async function findTenant(d1: D1Database, tenantId: string): Promise<TenantRecord | undefined> {
  return (await tenantQuery(drizzle(d1), tenantId))[0];
}

/** The tenant's row, a list of none or one: to await, or to send in a D1 batch. */
export function tenantQuery(db: DrizzleD1Database, tenantId: string) {
  return db.select().from(tenants).where(eq(tenants.id, tenantId));
}

/** The tenant (looked up already, or undefined when there is none) when the password is right; the same work either way. */
export async function passwordMatches(tenant: TenantRecord | undefined, password: string): Promise<TenantRecord | undefined> {
  const salt = tenant?.passwordSalt ?? "no-such-tenant";
  const hash = await hashPassword(password, salt, tenant?.passwordIterations ?? PASSWORD_ITERATIONS);
  const ok = constantTimeEqual(hash, tenant?.passwordHash ?? "");
  return ok && tenant ? tenant : undefined;
}

/** Changes the customer's enrolled phone (E.164, checked by the caller). */
export async function setPhone(d1: D1Database, tenantId: string, phone: string): Promise<void> {
  await drizzle(d1).update(tenants).set({ phone }).where(eq(tenants.id, tenantId));
}
