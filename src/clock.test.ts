import { describe, expect, it } from "vitest";
import { addDays, addMonths, booksDate } from "./clock";

describe("the books' dates", () => {
  it("are America/Chicago dates, across the UTC midnight and daylight saving", () => {
    expect(booksDate(new Date("2026-11-21T03:00:00Z"))).toBe("2026-11-20"); // 21:00 CST the day before
    expect(booksDate(new Date("2026-11-21T06:00:00Z"))).toBe("2026-11-21");
    expect(booksDate(new Date("2026-07-01T04:59:00Z"))).toBe("2026-06-30"); // 23:59 CDT
    expect(booksDate(new Date("2026-07-01T05:00:00Z"))).toBe("2026-07-01");
  });

  it("add days in the calendar, across months and leap days", () => {
    expect(addDays("2026-11-20", -29)).toBe("2026-10-22");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("add months in the calendar, across years both ways", () => {
    expect(addMonths("2026-11", 1)).toBe("2026-12");
    expect(addMonths("2026-12", 1)).toBe("2027-01");
    expect(addMonths("2026-01", -1)).toBe("2025-12");
    expect(addMonths("2027-01", -119)).toBe("2017-02");
  });
});
