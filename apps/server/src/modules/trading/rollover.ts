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

/** The latest rollover at or before `now`. */
export function latestRollover(now: number): Rollover {
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
