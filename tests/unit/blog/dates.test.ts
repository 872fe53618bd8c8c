import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dateTime, formatPublishedDate, isoDate } from "~/blog/dates";

describe("dates", () => {
  it("prints US English long dates, the same day in every time zone", () => {
    expect(formatPublishedDate("2024-01-05")).toBe("January 5, 2024");
    expect(formatPublishedDate("2024-12-31")).toBe("December 31, 2024");
    expect(formatPublishedDate("2024-03-10T12:00:00Z")).toBe("March 10, 2024");
  });
  it("gives nothing rather than 'Invalid Date'", () => {
    expect(formatPublishedDate("someday")).toBeUndefined();
    expect(formatPublishedDate("")).toBeUndefined();
    expect(isoDate("nope")).toBeUndefined();
    expect(isoDate("2024-01-05")).toBe("2024-01-05T00:00:00.000Z");
  });

  /** Every time JavaScript has, written as ISO (years beyond 9999 or before 0 with a sign, as Date.parse reads them). */
  const anyTime = fc.integer({ min: -8.64e15, max: 8.64e15 });

  it("a date in years 1 to 9999 is printed with its own year; any other is none, neither printed nor given to machines", () => {
    fc.assert(
      fc.property(anyTime, fc.boolean(), (time, dateOnly) => {
        const iso = new Date(time).toISOString();
        const value = dateOnly ? iso.replace(/T.*$/, "") : iso;
        const year = new Date(Date.parse(value)).getUTCFullYear();
        const label = formatPublishedDate(value);
        if (year >= 1 && year <= 9999) {
          expect(label).toMatch(new RegExp(`\\b${year}$`));
          expect(isoDate(value)).toBe(new Date(Date.parse(value)).toISOString());
          expect(isoDate(value)).toMatch(/^\d{4}-\d\d-\d\dT/);
        } else {
          expect(label, value).toBeUndefined();
          expect(isoDate(value), value).toBeUndefined();
          expect(dateTime(value), value).toBeUndefined();
        }
      }),
      { numRuns: 1000 },
    );
  });

  it.each(["-271821-04-20", "+275760-09-13", "0000-01-01", "-000001-12-31", "+010000-01-01"])(
    "%s is no date",
    (value) => {
      expect(formatPublishedDate(value)).toBeUndefined();
      expect(isoDate(value)).toBeUndefined();
    },
  );

  it("the first and last years are dates", () => {
    expect(formatPublishedDate("0001-01-01")).toBe("January 1, 1");
    expect(formatPublishedDate("9999-12-31")).toBe("December 31, 9999");
  });
});
