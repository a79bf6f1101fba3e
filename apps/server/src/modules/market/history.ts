import { PERIODS } from '@tp/contract/constants';
import type { Logger } from 'pino';
import type { Db } from '../../platform/db/client.ts';
import { isMarketOpen, type TradingHours } from './market-hours.ts';
import { barCounts, insertHistory, type MarketSymbol, type StoredBar } from './repository.ts';
import { RandomWalk } from './sources/random-walk.ts';

const HOUR_MS = 3_600_000;
/** Steps of the walk inside one bar: they shape its high and low. */
const STEPS_PER_BAR = 4;

/** Whether a market trades at some point of a bar (sampled hourly, or at the start and middle of shorter bars). */
export function tradesDuring(hours: TradingHours, time: number, periodMs: number): boolean {
  if (!hours.schedule.length && !hours.holidays.length) return true;
  const step = periodMs > HOUR_MS ? HOUR_MS : periodMs / 2;
  for (let at = time; at < time + periodMs; at += step) if (isMarketOpen(hours, at)) return true;
  return false;
}

/**
 * Generates `count` bars of one period going back in time from `endTime` (exclusive), ending at
 * `lastClose`: each bar's close is the next bar's open. Slots when the market is closed are skipped.
 */
export function generateBars(
  symbol: MarketSymbol,
  period: (typeof PERIODS)[number],
  opts: { count: number; endTime: number; lastClose: string; seed: number },
): StoredBar[] {
  const periodMs = period.seconds * 1000;
  const p = symbol.pricePrecision;
  const walk = new RandomWalk(
    {
      seed: opts.seed,
      code: `${symbol.code}:${period.period}`,
      volatility: symbol.volatility,
      basePrice: symbol.basePrice,
      pricePrecision: p,
    },
    opts.lastClose,
  );
  const perTickVolume = Math.max(1, Math.ceil(symbol.ticksPerSecond * period.seconds));
  const bars: StoredBar[] = [];
  let high = '';
  let low = '';
  let time = Math.floor(opts.endTime / periodMs) * periodMs - periodMs;
  let close = walk.priceText();
  for (let tries = 0; bars.length < opts.count && tries < opts.count * 50; tries++, time -= periodMs) {
    if (!tradesDuring(symbol.hours, time, periodMs)) continue;
    // The walk's log-gap rises and falls with the price, so its extremes mark the bar's high and low.
    const closeGap = walk.gap;
    let highGap = closeGap;
    let lowGap = closeGap;
    let highStep = -1;
    let lowStep = -1;
    for (let i = 0; i < STEPS_PER_BAR; i++) {
      const g = walk.move(period.seconds / STEPS_PER_BAR, -1);
      if (g > highGap) [highGap, highStep] = [g, i];
      if (g < lowGap) [lowGap, lowStep] = [g, i];
      if (i === highStep) high = walk.priceText();
      if (i === lowStep) low = walk.priceText();
    }
    const open = walk.priceText();
    const volume = String(Math.floor(perTickVolume * (5 + 10 * walk.random())));
    bars.push({
      symbolId: symbol.id,
      period: period.period,
      time,
      open,
      high: highStep < 0 ? close : high,
      low: lowStep < 0 ? close : low,
      close,
      volume,
    });
    close = open;
  }
  return bars.reverse();
}

/**
 * First start: every symbol and period without stored bars gets `count` generated bars ending at
 * the symbol's current price, so charts are never empty.
 */
export async function ensureHistory(
  db: Db,
  log: Logger,
  symbols: MarketSymbol[],
  opts: { count: number; seed: number; now: number; priceOf: (symbolId: number) => string },
): Promise<number> {
  if (opts.count <= 0) return 0;
  const started = Date.now();
  const counts = await barCounts(db);
  let total = 0;
  for (const symbol of symbols) {
    const bars: StoredBar[] = [];
    for (const period of PERIODS) {
      if (counts.get(`${symbol.id}|${period.period}`)) continue;
      bars.push(
        ...generateBars(symbol, period, { count: opts.count, endTime: opts.now, lastClose: opts.priceOf(symbol.id), seed: opts.seed }),
      );
    }
    if (!bars.length) continue;
    await insertHistory(db, bars);
    total += bars.length;
  }
  if (total) log.info({ bars: total, ms: Date.now() - started }, 'candle history generated');
  return total;
}
