/**
 * The face: what a tenant's credential is allowed to see of its vault.
 * The floor stored at sign-up never moves; the free tier also sees only a rolling
 * 48-hour window. The later of the two floors wins ("whichever subtracts more").
 * Every number the service serves is computed over the rows the face serves.
 */
import { addHours, booksDate } from "../clock";
import { FREE_TIER_WINDOW_HOURS, type Tier } from "../tiers";

export interface Face {
  tier: Tier;
  visibleFrom: string | null;
  windowHours: number | null;
  /** Rows whose `posted_on` is on or after this date are served; null = no floor. */
  effectiveFrom: string | null;
  /** Today in America/Chicago, the end of trailing windows. */
  today: string;
}

export function faceFor(tenant: { tier: Tier; visibleFrom: string | null }, now: Date = new Date()): Face {
  const windowHours = tenant.tier === "free" ? FREE_TIER_WINDOW_HOURS : null;
  // Lines carry dates, not times: the window starts on the Chicago date it opens on.
  const windowFloor = windowHours === null ? null : booksDate(addHours(now, -windowHours));
  const floors = [tenant.visibleFrom, windowFloor].filter((f): f is string => f !== null);
  const effectiveFrom = floors.length === 0 ? null : floors.sort().at(-1)!;
  return { tier: tenant.tier, visibleFrom: tenant.visibleFrom, windowHours, effectiveFrom, today: booksDate(now) };
}
