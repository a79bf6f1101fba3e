import { SwapType } from '@tp/contract/constants';

/** The daily rollover: 17:00 New York, when the FX value date moves on. */
const ROLLOVER_ZONE = 'America/New_York';
const ROLLOVER_HOUR = 17;

export interface Rollover {
  /** The New York date of the rollover, YYYY-MM-DD: with the order id, the key that makes it post once. */
  date: string;
  /** The instant (epoch ms); a position opened before it and open at the run is charged. */
  at: number;
  /** Day of the week of `date`, Sunday 0. */
  weekday: number;
}

const zoned = new Intl.DateTimeFormat('en-US', {
  timeZone: ROLLOVER_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  timeZoneName: 'longOffset',
});

function partsAt(ms: number) {
  const p = Object.fromEntries(zoned.formatToParts(ms).map((x) => [x.type, x.value]));
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(p.timeZoneName ?? '');
  const offsetMin = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  return { y: Number(p.year), mo: Number(p.month), d: Number(p.day), hour: Number(p.hour), offsetMin };
}

/** 17:00 New York on a New York calendar date, as an instant (the offset is the one in force at that hour). */
function rolloverInstant(y: number, mo: number, d: number): number {
  const wall = Date.UTC(y, mo - 1, d, ROLLOVER_HOUR);
  const guess = wall - partsAt(wall).offsetMin * 60_000;
  return wall - partsAt(guess).offsetMin * 60_000;
}

/**
 * The latest rollover found, and the instant of the one after it: every close asks for the latest
 * rollover, and the answer changes once a day (formatting dates in New York time costs microseconds).
 */
let known: { latest: Rollover; until: number } | null = null;

/** The latest rollover at or before `now`. */
export function latestRollover(now: number): Rollover {
  if (known && now >= known.latest.at && now < known.until) return known.latest;
  const latest = Object.freeze(findLatestRollover(now));
  // The next rollover is 23 to 25 hours later (daylight saving): the one at or before latest + 25 h.
  const next = findLatestRollover(latest.at + 25 * 3_600_000);
  known = { latest, until: next.at > latest.at ? next.at : latest.at + 1 };
  return latest;
}

function findLatestRollover(now: number): Rollover {
  const p = partsAt(now);
  let day = Date.UTC(p.y, p.mo - 1, p.d);
  if (now < rolloverInstant(p.y, p.mo, p.d)) day -= 86_400_000;
  const date = new Date(day);
  const [y, mo, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
  return { date: date.toISOString().slice(0, 10), at: rolloverInstant(y, mo, d), weekday: date.getUTCDay() };
}

/** The first rollover after `now` (rollovers are 23 to 25 hours apart, with daylight saving). */
export function nextRollover(now: number): number {
  const latest = latestRollover(now);
  return latestRollover(latest.at + 25 * 3_600_000).at;
}

/**
 * How many days a rollover counts for a symbol: with a triple day (FX: Wednesday, for the weekend's
 * value dates) rollovers run Monday to Friday and the triple day counts 3; without one (crypto,
 * traded every day) every day counts 1. A symbol without swaps counts 0.
 */
export function rolloverDays(symbol: { swapType: number; swapTripleDay: number | null }, weekday: number): number {
  if (symbol.swapType === SwapType.NONE) return 0;
  if (symbol.swapTripleDay === null) return 1;
  if (weekday === 0 || weekday === 6) return 0;
  return weekday === symbol.swapTripleDay ? 3 : 1;
}

/** The rollover of a New York calendar date (YYYY-MM-DD). */
export function rolloverOn(date: string): Rollover {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  return { date, at: rolloverInstant(y, mo, d), weekday: new Date(Date.UTC(y, mo - 1, d)).getUTCDay() };
}

/** The rollover before `r` (a day earlier on the New York calendar). */
function previousRollover(r: Rollover): Rollover {
  return latestRollover(r.at - 1);
}

/**
 * Every rollover after `after` (exclusive) up to `upto` (inclusive), oldest first: the rollovers a
 * position held since `after` went through by `upto`, one per New York calendar day whatever the
 * clocks did (23 to 25 hours apart).
 */
export function rolloversBetween(after: number, upto: number): Rollover[] {
  const out: Rollover[] = [];
  for (let r = latestRollover(upto); r.at > after; r = previousRollover(r)) out.push(r);
  return out.reverse();
}

/**
 * The rollovers a position still owes at `now`: those after the last one charged (`swapDate`), or,
 * never charged, those after it opened; each with the days it counts for the symbol (triple day,
 * none at FX weekends), the ones that count nothing left out.
 */
export function rolloversDue(
  symbol: { swapType: number; swapTripleDay: number | null },
  position: { openedAt: Date | null; swapDate: string | null },
  now: number,
): { rollover: Rollover; days: number }[] {
  if (symbol.swapType === SwapType.NONE || !position.openedAt) return [];
  const opened = new Date(position.openedAt).getTime();
  const after = position.swapDate ? Math.max(rolloverOn(position.swapDate).at, opened) : opened;
  if (latestRollover(now).at <= after) return [];
  return rolloversBetween(after, now)
    .map((rollover) => ({ rollover, days: rolloverDays(symbol, rollover.weekday) }))
    .filter((r) => r.days > 0);
}

/**
 * The latest rollover at or before `now` that counts for the symbol (an FX symbol's last weekday
 * rollover at the weekend); null for a symbol without swaps.
 */
export function latestCountingRollover(symbol: { swapType: number; swapTripleDay: number | null }, now: number): Rollover | null {
  let r = latestRollover(now);
  for (let i = 0; i < 7; i++, r = previousRollover(r)) if (rolloverDays(symbol, r.weekday) > 0) return r;
  return null;
}
