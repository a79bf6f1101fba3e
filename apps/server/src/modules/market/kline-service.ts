import { BASE_BARS_PER_BAR, derivedPeriod } from '@tp/contract/chart-periods';
import type { Db } from '../../platform/db/client.ts';
import { aggregateBars, baseWindow } from './derived-bars.ts';
import type { MarketServiceImpl } from './market-service.ts';
import { barAtPrecision, barsBefore, type Bar } from './repository.ts';

const RECENT_BARS = 48;
const RECENT_CACHE_MS = 5_000;

export interface BarQuery {
  symbolId: number;
  period: string;
  limit: number;
  /** Bars strictly older than this time (epoch ms). */
  before?: number;
  /** Bars at or before this time (epoch ms). */
  end?: number;
}

/** Reads bars: stored ones, overlaid by the bars in memory that are newer than the last flush. */
export class KlineService {
  private readonly recentCache = new Map<string, { until: number; bars: Bar[] }>();

  constructor(
    private readonly db: Db,
    private readonly market: MarketServiceImpl,
  ) {}

  /** Bars of a stored period, or of 240min, 1week and 1mon aggregated from 1H and 1D bars. */
  async bars(q: BarQuery): Promise<Bar[]> {
    const derived = derivedPeriod(q.period);
    if (!derived) return this.storedBars(q);
    const per = BASE_BARS_PER_BAR[derived.period];
    const limit = (q.limit + 1) * per;
    const base = await this.storedBars({ symbolId: q.symbolId, period: derived.base, limit, ...baseWindow(derived.period, q) });
    const bars = aggregateBars(derived.period, base);
    // When the base page was full its oldest group may be cut short: leave it to the next page.
    if (base.length === limit) bars.shift();
    return bars.slice(-q.limit);
  }

  private async storedBars(q: BarQuery): Promise<Bar[]> {
    const precision = this.market.symbol(q.symbolId)?.pricePrecision ?? 10;
    const stored = await barsBefore(this.db, q);
    const byTime = new Map<number, Bar>(stored.map((b) => [b.time, barAtPrecision(b, precision)]));
    const inMemory = this.market.candles.unwritten(q.symbolId, q.period);
    const forming = this.market.candles.forming(q.symbolId, q.period);
    if (forming) inMemory.push(forming);
    for (const b of inMemory) {
      if (q.before !== undefined && b.time >= q.before) continue;
      if (q.end !== undefined && b.time > q.end) continue;
      byTime.set(b.time, b);
    }
    return [...byTime.values()].sort((a, b) => a.time - b.time).slice(-q.limit);
  }

  /** The last bars of a period, cached for a few seconds (the market list asks for every symbol). */
  async recent(symbolId: number, period: string): Promise<Bar[]> {
    const key = `${symbolId}|${period}`;
    const hit = this.recentCache.get(key);
    const now = Date.now();
    if (hit && hit.until > now) return hit.bars;
    const bars = await this.bars({ symbolId, period, limit: RECENT_BARS });
    this.recentCache.set(key, { until: now + RECENT_CACHE_MS, bars });
    return bars;
  }
}
