/**
 * What each tier of a tenant gets. The tier is the tenant's (chosen at sign-up, kept in
 * the index); the ledger's face, the meter and the usage read apply it.
 */
export const TIERS = ["free", "paid"] as const;

export type Tier = (typeof TIERS)[number];

/** The free tier sees only the lines of its last 48 hours; a paid tier has no window. */
export const FREE_TIER_WINDOW_HOURS = 48;

/** Bank connections a tier may hold. */
export const CONNECTION_CAPS: Record<Tier, number> = { free: 1, paid: 5 };

/**
 * Monthly caps of the tail's spend by tier, in millicents ($1 = 100,000 millicents):
 * free $0.50, paid $10. A tier not in this table has no cap.
 */
export const TAIL_SPEND_CAPS: Record<Tier, number> = { free: 50_000, paid: 1_000_000 };
