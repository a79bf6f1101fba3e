/** One weekly session as the server stores it: day 0-6 (Sunday 0), "HH:MM" to "HH:MM" in the symbol's time zone. */
export interface Session {
  day: number;
  open: string;
  close: string;
}

/** One open–close range of a day as staff edit it. */
export interface TimeRange {
  open: string;
  close: string;
}

/** Seven days, Sunday first (the stored day numbers), each with its ranges. */
export type Week = TimeRange[][];

export type RangeError = 'time' | 'order' | 'overlap';

export interface WeekErrors {
  /** Per day, per range: what is wrong with it, if anything. */
  ranges: (RangeError | null)[][];
  /** A weekly schedule with no hours at all would be stored as none, which means open around the clock. */
  empty: boolean;
}

export const DAYS = [0, 1, 2, 3, 4, 5, 6] as const;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

export const isTime = (v: string) => TIME.test(v);
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The stored sessions as a week of ranges, each day's in opening order. */
export function toWeek(schedule: readonly Session[]): Week {
  const week: Week = DAYS.map(() => []);
  for (const s of schedule) week[s.day]?.push({ open: s.open, close: s.close });
  for (const day of week) day.sort((a, b) => a.open.localeCompare(b.open));
  return week;
}

/** The week back in the stored format: day by day, each day's ranges in opening order. */
export function fromWeek(week: Week): Session[] {
  return week.flatMap((ranges, day) =>
    [...ranges].sort((a, b) => a.open.localeCompare(b.open)).map((r) => ({ day, open: r.open.trim(), close: r.close.trim() })),
  );
}

/**
 * What keeps the week from being saved: a time that is not HH:MM from 00:00 to 24:00, a close not after
 * its open, a range overlapping another of the same day (one may close when the next opens), or no hours
 * at all (stored as no schedule, which the server reads as open around the clock).
 */
export function validateWeek(week: Week): WeekErrors {
  const ranges = week.map((day) =>
    day.map((r): RangeError | null => {
      if (!isTime(r.open.trim()) || !isTime(r.close.trim())) return 'time';
      return minutesOf(r.close.trim()) > minutesOf(r.open.trim()) ? null : 'order';
    }),
  );
  // Overlaps are looked for among ranges whose times are themselves right.
  const wellFormed = ranges.map((day) => day.map((e) => e === null));
  week.forEach((day, d) =>
    day.forEach((r, i) => {
      if (!wellFormed[d]![i]) return;
      const overlaps = day.some(
        (other, j) =>
          j !== i &&
          wellFormed[d]![j] &&
          minutesOf(r.open.trim()) < minutesOf(other.close.trim()) &&
          minutesOf(other.open.trim()) < minutesOf(r.close.trim()),
      );
      if (overlaps) ranges[d]![i] = 'overlap';
    }),
  );
  return { ranges, empty: week.every((day) => day.length === 0) };
}

export const weekIsValid = (errors: WeekErrors) => !errors.empty && errors.ranges.every((day) => day.every((e) => e === null));
