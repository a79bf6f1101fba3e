/** A weekly trading session in the symbol's own time zone: day 0-6 (Sunday 0), "HH:MM" to "HH:MM" ("24:00" allowed). */
export interface Session {
  day: number;
  open: string;
  close: string;
}

export interface TradingHours {
  timezone: string;
  /** Empty: always open. */
  schedule: Session[];
  /** Local dates (YYYY-MM-DD) with no trading. */
  holidays: string[];
}

export interface LocalTime {
  /** 0 Sunday to 6 Saturday. */
  day: number;
  /** Minutes since local midnight. */
  minutes: number;
  /** YYYY-MM-DD. */
  date: string;
}

const QUARTER_HOUR_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
// Offsets change at most once a day (DST), on a quarter-hour boundary: a day whose first and last
// quarter hours share an offset has it throughout; otherwise each quarter hour is looked up.
const offsetCache = new Map<string, Map<number, number>>();

function formatterOf(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timezone, f);
  }
  return f;
}

function probeOffset(timezone: string, probe: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(timezone).formatToParts(probe)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!) - probe;
}

function cachedOffset(timezone: string, probe: number): number {
  let zone = offsetCache.get(timezone);
  if (!zone || zone.size > 200_000) offsetCache.set(timezone, (zone = new Map()));
  let v = zone.get(probe);
  if (v === undefined) {
    v = probeOffset(timezone, probe);
    zone.set(probe, v);
  }
  return v;
}

/** Milliseconds to add to UTC to get the wall-clock time in a time zone. */
function offsetOf(timezone: string, at: number): number {
  if (timezone === 'UTC') return 0;
  const dayStart = Math.floor(at / DAY_MS) * DAY_MS;
  const first = cachedOffset(timezone, dayStart);
  if (first === cachedOffset(timezone, dayStart + DAY_MS - QUARTER_HOUR_MS)) return first;
  return cachedOffset(timezone, Math.floor(at / QUARTER_HOUR_MS) * QUARTER_HOUR_MS);
}

/** Local weekday, time of day and date of an instant in a time zone. */
export function localTimeOf(timezone: string, at: number): LocalTime {
  const local = new Date(at + offsetOf(timezone, at));
  const date = local.toISOString().slice(0, 10);
  return { day: local.getUTCDay(), minutes: local.getUTCHours() * 60 + local.getUTCMinutes(), date };
}

/** Days since 1970-01-01 of a local date "YYYY-MM-DD". */
const epochDayOf = (date: string): number => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
};

interface CompiledHours {
  sessions: { day: number; open: number; close: number }[];
  /** Holidays as local epoch days. */
  holidays: Set<number>;
}
const compiled = new WeakMap<TradingHours, CompiledHours>();

function compile(hours: TradingHours): CompiledHours {
  let c = compiled.get(hours);
  if (!c) {
    c = {
      sessions: hours.schedule.map((s) => ({ day: s.day, open: minutesOf(s.open), close: minutesOf(s.close) })),
      holidays: new Set(hours.holidays.map(epochDayOf)),
    };
    compiled.set(hours, c);
  }
  return c;
}

/** MarketStatus: open inside a weekly session and not on a holiday. */
export function isMarketOpen(hours: TradingHours, at: number): boolean {
  if (hours.schedule.length === 0 && hours.holidays.length === 0) return true;
  const { sessions, holidays } = compile(hours);
  const local = at + offsetOf(hours.timezone, at);
  const epochDay = Math.floor(local / DAY_MS);
  if (holidays.has(epochDay)) return false;
  if (sessions.length === 0) return true;
  // 1970-01-01 was a Thursday (day 4).
  const day = (epochDay + 4) % 7;
  const minutes = Math.floor((local - epochDay * DAY_MS) / 60_000);
  return sessions.some((s) => s.day === day && minutes >= s.open && minutes < s.close);
}
