/** Tenants: sign-up and password sign-in. */
import { asc, eq, gt } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { ApiError } from "../errors";
import type { Tier } from "../tiers";
import { tenants } from "../index-db/schema";
import { constantTimeEqual, hashPassword, PASSWORD_ITERATIONS, randomSecret } from "./crypto";

export const TENANT_SLUG = /^[a-z0-9-]{3,40}$/;

export interface SignUp {
  tenant: string;
  tier: Tier;
  visibleFrom: string | null;
  phone: string;
  smsEnabled: boolean;
  password: string;
}

export type TenantRecord = typeof tenants.$inferSelect;

export async function signUp(d1: D1Database, input: SignUp, now: Date): Promise<void> {
  const db = drizzle(d1);
  const salt = randomSecret(16);
  const passwordHash = await hashPassword(input.password, salt);
  const inserted = await db
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
    })
    .onConflictDoNothing()
    .returning({ id: tenants.id });
  if (inserted.length === 0) throw new ApiError("tenant_taken", `The tenant name "${input.tenant}" is taken.`);
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
  return drizzle(d1).select().from(tenants).where(eq(tenants.id, tenantId)).get();
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
