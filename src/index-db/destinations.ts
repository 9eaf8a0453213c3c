/**
 * A tenant's spreadsheet destinations for export (D1). Connected and disconnected on
 * /settings; a disconnected destination is never live again (connect a new one). Its OAuth
 * tokens arrive here sealed (the caller seals them) and are never shown.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import { exportDestinations } from "./schema";

export type Destination = typeof exportDestinations.$inferSelect;

/** What a caller may be shown of a destination: never its tokens; whether it must be connected again (it holds no refresh token). */
export type DestinationView = Omit<Destination, "sealedRefreshToken" | "sealedAccessToken" | "accessTokenExpiresAt" | "tenantId"> & { needsReconnect: boolean };

export interface NewDestination {
  spreadsheetId: string;
  sheet: string;
  sealedRefreshToken: string;
}

export async function connectDestination(d1: D1Database, tenantId: string, input: NewDestination, at: Date): Promise<DestinationView> {
  const row = await drizzle(d1)
    .insert(exportDestinations)
    .values({ tenantId, ...input, sealedAccessToken: null, accessTokenExpiresAt: null, connectedAt: at.toISOString(), disconnectedAt: null })
    .returning()
    .get();
  return viewOf(row);
}

/** Stamps `disconnected_at` once; false when the tenant holds no such live destination. */
export async function disconnectDestination(d1: D1Database, tenantId: string, id: number, at: Date): Promise<boolean> {
  const result = await drizzle(d1)
    .update(exportDestinations)
    .set({ disconnectedAt: at.toISOString() })
    .where(and(eq(exportDestinations.id, id), eq(exportDestinations.tenantId, tenantId), isNull(exportDestinations.disconnectedAt)))
    .run();
  return result.meta.changes > 0;
}

/** The tenant's live destinations, newest first. Throws when D1 cannot be read. */
export async function liveDestinations(d1: D1Database, tenantId: string): Promise<DestinationView[]> {
  return (await liveDestinationsQuery(drizzle(d1), tenantId)).map(viewOf);
}

/** The tenant's live destinations' rows, newest first, to send in a D1 batch (`viewOf` each for a caller). */
export function liveDestinationsQuery(db: DrizzleD1Database, tenantId: string) {
  return db
    .select()
    .from(exportDestinations)
    .where(and(eq(exportDestinations.tenantId, tenantId), isNull(exportDestinations.disconnectedAt)))
    .orderBy(desc(exportDestinations.id));
}

/** Keeps the access token a push bought (sealed), and the refresh token when the server rotated it or it was sealed again. */
export async function keepTokens(
  d1: D1Database,
  tenantId: string,
  id: number,
  tokens: { sealedAccessToken: string; accessTokenExpiresAt: string; sealedRefreshToken?: string },
): Promise<void> {
  await drizzle(d1)
    .update(exportDestinations)
    .set(tokens)
    .where(and(eq(exportDestinations.id, id), eq(exportDestinations.tenantId, tenantId)));
}

/** One of the tenant's destinations with its tokens, live or not (the push job needs both). */
export async function destinationOf(d1: D1Database, tenantId: string, id: number): Promise<Destination | undefined> {
  return drizzle(d1)
    .select()
    .from(exportDestinations)
    .where(and(eq(exportDestinations.id, id), eq(exportDestinations.tenantId, tenantId)))
    .get();
}

export function viewOf({ sealedRefreshToken, sealedAccessToken: _access, accessTokenExpiresAt: _expiry, tenantId: _tenant, ...view }: Destination): DestinationView {
  return { ...view, needsReconnect: sealedRefreshToken === null };
}
