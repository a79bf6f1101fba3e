import type { PeriodName } from '@tp/contract/constants';
import { D, type Dec, dec, fixed } from '@tp/contract/decimal';
import type { AppContext } from '../../context.ts';
import { CandleAggregator } from './candle-aggregator.ts';
import { RollingDay } from './day-stats.ts';
import { isMarketOpen } from './market-hours.ts';
import { dayMarketMessage, klineMessage } from './presenters.ts';
import { barAtPrecision, barsSince, latestBars, loadSymbols, type MarketSymbol, type StoredBar } from './repository.ts';
import { BusChannels, type MarketService, type Quote, type Tick, type TickListener } from './types.ts';

const DAY_MS = 86_400_000;
const ZERO = dec(0);

/** Symbols, quotes, market hours and the single entry of every price. */
export class MarketServiceImpl implements MarketService {
  private list: MarketSymbol[] = [];
  private byId = new Map<number, MarketSymbol>();
  private byCode = new Map<string, MarketSymbol>();
  private readonly quotes = new Map<number, Quote>();
  private readonly days = new Map<number, RollingDay>();
  private readonly listeners = new Set<TickListener>();
  private readonly lastOpen = new Map<number, boolean>();
  /** Set while this server's own tick is on the bus, so that its local copy is not applied again. */
  private announcing = false;
  readonly candles = new CandleAggregator();

  constructor(private readonly ctx: AppContext) {}

  /** Loads symbols, continues the candles and seeds a quote for every symbol from its newest close. */
  async init(): Promise<void> {
    await this.reloadSymbols();
    const latest = await this.latestBars();
    this.candles.restore(latest);
    await this.seedDayFigures(latest);
  }

  /** (Re)starts the 24-hour figures from stored hourly bars and sets each quote to the newest close. */
  async seedDayFigures(latest?: StoredBar[]): Promise<void> {
    latest ??= await this.latestBars();
    const now = Date.now();
    for (const s of this.list) {
      const day = new RollingDay();
      const hourly = await barsSince(this.ctx.db, s.id, '60min', now - DAY_MS + 3_600_000);
      day.seed(hourly.map((b) => barAtPrecision(b, s.pricePrecision)));
      this.days.set(s.id, day);
      const newest = latest.filter((b) => b.symbolId === s.id).sort((a, b) => b.time - a.time)[0];
      this.setQuote(s, dec(newest?.close ?? s.basePrice), newest?.time ?? now, ZERO, false);
    }
  }

  /** The newest stored bar of every symbol and period, at each symbol's precision. */
  private async latestBars(): Promise<StoredBar[]> {
    const bars = await latestBars(this.ctx.db);
    return bars.filter((b) => this.byId.has(b.symbolId)).map((b) => barAtPrecision(b, this.byId.get(b.symbolId)!.pricePrecision));
  }

  symbol(id: number): MarketSymbol | undefined {
    return this.byId.get(id);
  }

  symbolByCode(code: string): MarketSymbol | undefined {
    return this.byCode.get(code.toUpperCase());
  }

  symbols(): MarketSymbol[] {
    return this.list;
  }

  quote(symbolId: number): Quote | undefined {
    return this.quotes.get(symbolId);
  }

  isOpen(symbolId: number, at: number = Date.now()): boolean {
    const s = this.byId.get(symbolId);
    if (!s) return false;
    return this.ctx.config.MARKET_ALWAYS_OPEN || isMarketOpen(s.hours, at);
  }

  quoteToUsd(symbolId: number): Dec {
    const s = this.byId.get(symbolId);
    if (!s) throw new Error(`unknown symbol ${symbolId}`);
    if (s.quoteCurrency === 'USD' || !s.usdConversionCode) return dec(1);
    const conv = this.byCode.get(s.usdConversionCode);
    const q = conv && this.quotes.get(conv.id);
    if (!q) throw new Error(`no quote to convert ${s.quoteCurrency} to USD`);
    return s.usdConversionInvert ? dec(1).div(q.mid) : dec(q.mid);
  }

  onTick(listener: TickListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async reloadSymbols(): Promise<void> {
    const list = await loadSymbols(this.ctx.db);
    this.list = list;
    this.byId = new Map(list.map((s) => [s.id, s]));
    this.byCode = new Map(list.map((s) => [s.code.toUpperCase(), s]));
    const now = Date.now();
    for (const s of list) {
      if (!this.days.has(s.id)) this.days.set(s.id, new RollingDay());
      if (!this.quotes.has(s.id)) this.setQuote(s, dec(s.basePrice), now, ZERO, false);
    }
  }

  publishTick(input: Omit<Tick, 'code' | 'mid'> & { mid?: string }): boolean {
    return this.applyTick(input, true);
  }

  /** A tick another server published (several servers): quotes, candles and tick listeners follow it; its pushes went out there. */
  applyRemoteTick(tick: Tick): void {
    if (!this.announcing) this.applyTick(tick, false);
  }

  private applyTick(input: Omit<Tick, 'code' | 'mid'> & { mid?: string }, announce: boolean): boolean {
    const s = this.byId.get(input.symbolId);
    if (!s || !this.isOpen(s.id, input.time)) return false;
    const p = s.pricePrecision;
    let bidD: Dec;
    let askD: Dec;
    let midD: Dec;
    try {
      bidD = dec(input.bid).toDecimalPlaces(p, D.ROUND_HALF_EVEN);
      askD = dec(input.ask).toDecimalPlaces(p, D.ROUND_HALF_EVEN);
      midD = (input.mid !== undefined ? dec(input.mid) : bidD.plus(askD).div(2)).toDecimalPlaces(p, D.ROUND_HALF_EVEN);
    } catch {
      return false;
    }
    if (!bidD.isFinite() || !askD.isFinite() || bidD.lte(0) || askD.lt(bidD)) return false;
    const volume = input.volume !== undefined ? dec(input.volume) : ZERO;
    const quote = this.setQuote(s, midD, input.time, volume, true, { bid: bidD.toFixed(p), ask: askD.toFixed(p) });
    const bars = this.candles.update(s.id, quote.mid, input.time, volume);
    const tick: Tick = {
      symbolId: s.id,
      code: s.code,
      bid: quote.bid,
      ask: quote.ask,
      mid: quote.mid,
      time: input.time,
      volume: input.volume,
    };
    for (const listener of this.listeners) {
      try {
        listener(tick);
      } catch (err) {
        this.ctx.log.error({ err, symbol: s.code }, 'tick listener failed');
      }
    }
    if (!announce) return true;
    this.ctx.bus.publish(BusChannels.dayMarket, dayMarketMessage(s, quote, true));
    for (const { period, bar } of bars) this.ctx.bus.publish(BusChannels.kline, klineMessage(s, period, bar, input.time));
    if (this.ctx.clustered) {
      this.announcing = true;
      try {
        this.ctx.bus.publish(BusChannels.tick, tick);
      } finally {
        this.announcing = false;
      }
    }
    return true;
  }

  /** The forming bar of a period (for the kline call and fresh subscribers). */
  formingBar(symbolId: number, period: PeriodName) {
    return this.candles.forming(symbolId, period);
  }

  /** Announces symbols whose market opened or closed since the last check (timer-driven). */
  checkMarketStatus(now: number = Date.now()): void {
    for (const s of this.list) {
      const open = this.isOpen(s.id, now);
      const before = this.lastOpen.get(s.id);
      this.lastOpen.set(s.id, open);
      if (before === undefined || before === open) continue;
      this.ctx.bus.publish(BusChannels.marketStatus, { symbolId: s.id, code: s.code, open });
      const q = this.quotes.get(s.id);
      if (q) this.ctx.bus.publish(BusChannels.dayMarket, dayMarketMessage(s, q, open));
    }
  }

  private setQuote(s: MarketSymbol, midD: Dec, time: number, volume: Dec, live: boolean, sides?: { bid: string; ask: string }): Quote {
    const p = s.pricePrecision;
    const mid = midD.toFixed(p);
    const half = s.spread.div(2);
    const bid = sides?.bid ?? fixed(midD.minus(half), p);
    const ask = sides?.ask ?? fixed(midD.plus(half), p);
    const day = this.days.get(s.id) ?? new RollingDay();
    this.days.set(s.id, day);
    const f = live ? day.add(mid, midD, volume, time, this.quotes.get(s.id)?.mid) : day.current(midD, mid);
    const openD = dec(f.open);
    const change = openD.isZero() ? '0.00' : fixed(midD.minus(openD).div(openD).times(100), 2);
    const quote: Quote = {
      symbolId: s.id,
      code: s.code,
      bid,
      ask,
      mid,
      time,
      volume: volume.toString(),
      open24h: f.open,
      high24h: (f.high.gt(midD) ? f.high : midD).toFixed(p),
      low24h: (f.low.lt(midD) ? f.low : midD).toFixed(p),
      change,
      volume24h: f.volume.toString(),
    };
    this.quotes.set(s.id, quote);
    return quote;
  }
}
