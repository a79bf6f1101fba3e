import { PERIODS, type PeriodName } from './constants.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** 1970-01-01 was a Thursday: the first Monday 00:00 UTC is four days later. */
const FIRST_MONDAY_MS = 4 * DAY_MS;

/**
 * Periods the chart offers beyond the stored ones, read by aggregating stored bars: 4H from 1H,
 * 1W and 1MN from 1D (the names existing clients of this API family send).
 */
export const DERIVED_PERIODS = [
  { label: '4H', period: '240min', base: '60min' },
  { label: '1W', period: '1week', base: '1day' },
  { label: '1MN', period: '1mon', base: '1day' },
] as const satisfies readonly { label: string; period: string; base: PeriodName }[];

export type DerivedPeriodName = (typeof DERIVED_PERIODS)[number]['period'];
export type ChartPeriodName = PeriodName | DerivedPeriodName;

/** Every period in the order the period bar shows them: 1M 5M 15M 30M 1H 4H 1D 1W 1MN. */
export const CHART_PERIODS: readonly { label: string; period: ChartPeriodName }[] = [
  ...PERIODS.slice(0, 5),
  DERIVED_PERIODS[0],
  PERIODS[5],
  DERIVED_PERIODS[1],
  DERIVED_PERIODS[2],
];
export const CHART_PERIOD_NAMES = CHART_PERIODS.map((p) => p.period);

export const derivedPeriod = (period: string) => DERIVED_PERIODS.find((p) => p.period === period);

/** How many base bars one derived bar holds at most (a month has up to 31 days). */
export const BASE_BARS_PER_BAR: Record<DerivedPeriodName, number> = { '240min': 4, '1week': 7, '1mon': 31 };

/** Open time (epoch ms) of the derived bar holding `ms`: 4H at UTC 00, 04, ...; weeks from Monday 00:00 UTC; months on the 1st. */
export function derivedBarStart(period: DerivedPeriodName, ms: number): number {
  if (period === '240min') return Math.floor(ms / (4 * HOUR_MS)) * 4 * HOUR_MS;
  if (period === '1week') return Math.floor((ms - FIRST_MONDAY_MS) / (7 * DAY_MS)) * 7 * DAY_MS + FIRST_MONDAY_MS;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}
