/** Time in one place: timestamps are ISO 8601 UTC; "today" is a date in America/Chicago. */

export const BOOKS_TIME_ZONE = "America/Chicago";

export function isoNow(now: Date = new Date()): string {
  return now.toISOString();
}

const chicagoDate = new Intl.DateTimeFormat("en-CA", {
  timeZone: BOOKS_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The calendar date (YYYY-MM-DD) in America/Chicago at the given instant. */
export function booksDate(at: Date = new Date()): string {
  return chicagoDate.format(at);
}

/** Adds whole days to an ISO date, in the calendar (no time zone involved). */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** `YYYY-MM` shifted by whole months, in the calendar (no time zone involved). */
export function addMonths(month: string, by: number): string {
  const [year, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, m - 1 + by, 1)).toISOString().slice(0, 7);
}

export function addHours(at: Date, hours: number): Date {
  return new Date(at.getTime() + hours * 3_600_000);
}
