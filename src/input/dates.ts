/**
 * The dates the service takes as input. Every date is a calendar date, and one before
 * 1900 is refused: the books hold bank lines, and the date arithmetic of the windows
 * must never meet a year JavaScript misreads (`Date.UTC` reads years 0 to 99 as 1900 to
 * 1999; a window ending on 0000-01-01 would start on `-000001-12-26`, which no ISO date
 * reader takes). 9999-12-31 is the last day YYYY-MM-DD can write, and an open-ended `to`.
 */
export const DATE_RANGE = { earliest: "1900-01-01", latest: "9999-12-31" } as const;

/** Why a YYYY-MM-DD date is out of range, or null (also for text that is no date at all: its format is refused first). */
export function dateRangeProblem(date: string): string | null {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(date)) return null;
  if (date < DATE_RANGE.earliest || date > DATE_RANGE.latest) {
    return `${date} is outside the dates the service takes, ${DATE_RANGE.earliest} to ${DATE_RANGE.latest}`;
  }
  return null;
}
