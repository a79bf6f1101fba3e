import type { PeriodName } from '@tp/contract/constants';
import { D, type Dec, dec, fixed } from '@tp/contract/decimal';
import type { AppContext } from '../../context.ts';
import { CandleAggregator } from './candle-aggregator.ts';
import { RollingDay } from './day-stats.ts';
import { isMarketOpen } from './market-hours.ts';
import { DeviationFilter, markUp } from './quote-pipeline.ts';
import { dayMarketMessage, klineMessage } from './presenters.ts';
import { barAtPrecision, barsSince, latestBars, loadSymbols, type MarketSymbol, type StoredBar } from './repository.ts';
import { type FeedHealth, type MarketService, type Quote, type SourceTick, type Tick, type TickListener } from './types.ts';
import type { MarketStatusReason } from '@tp/contract/constants';
import { BusChannels, type FeedBeat } from '../../platform/bus-channels.ts';

const DAY_MS = 86_400_000;
const ZERO = dec(0);
/** A new subscriber's status refresh is skipped when the status was checked this recently (ms). */
const STATUS_REFRESH_MS = 50;

/** Symbols, quotes, market hours and the single entry of every price. */
export class MarketServiceImpl implements MarketService {
  private list: MarketSymbol[] = [];
  private byId = new Map<number, MarketSymbol>();
  private byCode = new Map<string, MarketSymbol>();
  private readonly quotes = new Map<number, Quote>();
  private readonly days = new Map<number, RollingDay>();
  private readonly listeners = new Set<TickListener>();
  /** Why each symbol was closed at the last status check (null: open). */
  private readonly lastReason = new Map<number, MarketStatusReason | null>();
  /** When the status was last checked (the timer's check or a new subscriber's). */
  private statusCheckedAt = 0;
  /** Time of each symbol's newest accepted live tick; none before the first one after start. */
  private readonly lastLive = new Map<number, number>();
  private readonly deviation = new DeviationFilter();
  /** Set while this server's own tick is on the bus, so that its local copy is not applied again. */
  private announcing = false;
  readonly candles = new CandleAggregator();
  /**
   * Several servers: true while this server runs the feed (it leads). A follower's view of the feed
   * is what it last heard from the leader (a tick or its heartbeat), and the jumps the leader holds.
   */
  private feeding: boolean;
  private lastHeard = 0;
  private heldByLeader = new Set<number>();
  /** Servers share one feed only over a bus between processes (Redis); without one, this server's feed is its own. */
  private readonly sharedFeed: boolean;

  constructor(private readonly ctx: AppContext) {
    this.sharedFeed = ctx.clustered && ctx.bus.state?.().kind === 'redis';
    this.feeding = !this.sharedFeed;
  }

  /** The leader runs the feed from now on (true) or no longer (false). */
  setFeeding(on: boolean): void {
    this.feeding = on || !this.sharedFeed;
  }

  /** Several servers, on the leader: tells the followers the feed is alive and which jumps it holds. */
  announceFeed(): void {
    if (this.ctx.clustered && this.feeding)
      this.ctx.bus.publish(BusChannels.feed, { held: this.deviation.pendingIds() } satisfies FeedBeat);
  }

  /** A follower heard the leader's heartbeat. */
  heardFeed(beat: FeedBeat): void {
    this.lastHeard = Date.now();
    this.heldByLeader = new Set(beat.held);
  }

  /** How long this server has not heard the feed: 0 where it runs it, else since the leader's last tick or heartbeat. */
  feedSilenceMs(at: number = Date.now()): number {
    return this.feeding ? 0 : Math.max(0, at - this.lastHeard);
  }

  /** A held jump, here or (on a follower) on the leader: the accepted price may be wrong. */
  private held(symbolId: number): boolean {
    return this.deviation.pending(symbolId) || (!this.feeding && this.heldByLeader.has(symbolId));
  }

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
    return this.closedReason(symbolId, at) === null;
  }

  inSession(symbolId: number, at: number = Date.now()): boolean {
    const s = this.byId.get(symbolId);
    if (!s) return false;
    return this.ctx.config.MARKET_ALWAYS_OPEN || isMarketOpen(s.hours, at);
  }

  closedReason(symbolId: number, at: number = Date.now()): MarketStatusReason | null {
    const s = this.byId.get(symbolId);
    if (!s || !this.inSession(symbolId, at)) return 'closed';
    const own = this.quoteAge(s, at);
    if (own !== null) return own;
    // A follower that has not heard the leader's feed for FEED_SILENCE_MS (a hung bus, a paused
    // leader, this server frozen) trades on no price, however young the symbol's own quote looks.
    if (this.feedSilenceMs(at) > this.ctx.config.FEED_SILENCE_MS) return 'stale';
    // The accepted price may be wrong while the filter holds a jump: paused until it has decided.
    if (this.held(s.id)) return 'stale';
    // Profit in another currency is converted at that pair's mid: only as live as that quote.
    const conv = this.conversionOf(s);
    if (conv && (this.quoteAge(conv, at) !== null || this.held(conv.id))) return 'stale';
    return null;
  }

  /** 'no_quote' or 'stale' when the symbol's newest live tick is missing or too old, else null. */
  private quoteAge(s: MarketSymbol, at: number): 'no_quote' | 'stale' | null {
    const last = this.lastLive.get(s.id);
    if (last === undefined) return 'no_quote';
    return at - last > s.maxQuoteAgeMs ? 'stale' : null;
  }

  /** The other symbol whose mid converts this one's quote currency to USD (null: USD, or it converts through itself). */
  private conversionOf(s: MarketSymbol): MarketSymbol | null {
    if (s.quoteCurrency === 'USD' || !s.usdConversionCode) return null;
    const conv = this.byCode.get(s.usdConversionCode);
    return conv && conv.id !== s.id ? conv : null;
  }

  feedHealth(now: number = Date.now()): FeedHealth[] {
    return this.list.map((s) => {
      const last = this.lastLive.get(s.id);
      const reason = this.closedReason(s.id, now);
      return {
        symbolId: s.id,
        code: s.code,
        state: reason === null ? 'live' : reason === 'no_quote' ? 'no_tick' : reason,
        lastTickAgeMs: last === undefined ? null : Math.max(0, now - last),
        suspectTicks: this.deviation.suspectTicks(s.id),
      };
    });
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

  publishTick(input: SourceTick): boolean {
    return this.applyTick(input, 'source');
  }

  /** A tick another server published (several servers): already marked up and filtered there; quotes, candles and tick listeners follow it; its pushes went out there. */
  applyRemoteTick(tick: Tick): void {
    if (this.announcing) return;
    this.lastHeard = Date.now();
    this.applyTick(tick, 'remote');
  }

  /** The quote pipeline (PRICE-INTEGRITY.md): validate, mark up, filter deviations, then quote, candles, listeners and pushes. */
  private applyTick(input: SourceTick, from: 'source' | 'remote'): boolean {
    const s = this.byId.get(input.symbolId);
    if (!s || !this.inSession(s.id, input.time)) return false;
    const sides = this.sidesOf(s, input, from);
    if (!sides) return false;
    const midD = sides.bid.plus(sides.ask).div(2).toDecimalPlaces(s.pricePrecision, D.ROUND_HALF_EVEN);
    const accepted = this.quotes.get(s.id)?.mid;
    const wasOpen = this.isOpen(s.id, input.time);
    const heldBefore = this.deviation.pending(s.id);
    if (
      from === 'source' &&
      !this.deviation.admit(s.id, s.deviationPct, accepted === undefined ? undefined : dec(accepted), midD, input.time)
    ) {
      // Followers stop trading the symbol at once, not at the next heartbeat.
      if (!heldBefore) this.announceFeed();
      return false;
    }
    // A price below half the spread cannot be quoted.
    if (sides.bid.lte(0)) return false;
    // A price is as old as the source says (never newer than its arrival): a lagging upstream goes stale.
    const pricedAt = input.sourceTime === undefined ? input.time : Math.min(input.sourceTime, input.time);
    this.lastLive.set(s.id, Math.max(pricedAt, this.lastLive.get(s.id) ?? 0));
    const volume = input.volume !== undefined ? dec(input.volume) : ZERO;
    const quote = this.setQuote(s, midD, input.time, volume, true, sides);
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
    if (input.sourceTime !== undefined) tick.sourceTime = input.sourceTime;
    // A price already too old when it arrives (or whose conversion pair is not live) is shown, never traded on.
    const reason = this.closedReason(s.id, input.time);
    if (reason === null) {
      for (const listener of this.listeners) {
        try {
          listener(tick);
        } catch (err) {
          this.ctx.log.error({ err, symbol: s.code }, 'tick listener failed');
        }
      }
    }
    if (from === 'remote') return true;
    this.lastReason.set(s.id, reason);
    if (!wasOpen && reason === null) this.ctx.bus.publish(BusChannels.marketStatus, { symbolId: s.id, code: s.code, open: true });
    this.ctx.bus.publish(BusChannels.dayMarket, dayMarketMessage(s, quote, reason));
    for (const { period, bar } of bars) this.ctx.bus.publish(BusChannels.kline, klineMessage(s, period, bar, input.time));
    if (this.ctx.clustered) {
      this.announcing = true;
      try {
        this.ctx.bus.publish(BusChannels.tick, tick);
      } finally {
        this.announcing = false;
      }
      // A jump decided: the followers trade again once they have its price (sent just before).
      if (heldBefore) this.announceFeed();
    }
    return true;
  }

  /** Bid and ask at the symbol's precision (a source's with the markup added), or null for an invalid tick. */
  private sidesOf(s: MarketSymbol, input: SourceTick, from: 'source' | 'remote'): { bid: Dec; ask: Dec } | null {
    let bid: Dec;
    let ask: Dec;
    try {
      bid = dec(input.bid);
      ask = dec(input.ask);
    } catch {
      return null;
    }
    if (!bid.isFinite() || !ask.isFinite() || bid.lte(0) || ask.lt(bid)) return null;
    return from === 'source' ? markUp(s, bid, ask) : { bid, ask };
  }

  /** The forming bar of a period (for the kline call and fresh subscribers). */
  formingBar(symbolId: number, period: PeriodName) {
    return this.candles.forming(symbolId, period);
  }

  /** Announces symbols whose market opened or closed (schedule or quote age) since the last check (timer-driven). */
  checkMarketStatus(now: number = Date.now()): void {
    this.statusCheckedAt = now;
    for (const s of this.list) {
      const reason = this.closedReason(s.id, now);
      const before = this.lastReason.get(s.id);
      this.lastReason.set(s.id, reason);
      if (before === undefined || before === reason) continue;
      if (reason === 'stale')
        this.ctx.log.warn({ symbol: s.code, ageMs: now - (this.lastLive.get(s.id) ?? now) }, 'quote is stale: trading paused');
      if ((before === null) !== (reason === null))
        this.ctx.bus.publish(BusChannels.marketStatus, { symbolId: s.id, code: s.code, open: reason === null });
      const q = this.quotes.get(s.id);
      if (q) this.ctx.bus.publish(BusChannels.dayMarket, dayMarketMessage(s, q, reason));
    }
  }

  /**
   * Before a new subscriber's first quotes: announces what the timer has not yet (a quote that went
   * stale since its last check), so the snapshot does not show a paused symbol as open. Only the
   * server that runs the feed announces; at most every STATUS_REFRESH_MS, however many subscribe.
   */
  refreshStatus(now: number = Date.now()): void {
    if (this.feeding && now - this.statusCheckedAt >= STATUS_REFRESH_MS) this.checkMarketStatus(now);
  }

  private setQuote(s: MarketSymbol, midD: Dec, time: number, volume: Dec, live: boolean, sides?: { bid: Dec; ask: Dec }): Quote {
    const p = s.pricePrecision;
    const mid = midD.toFixed(p);
    const marked = sides ?? markUp(s, midD, midD);
    const bid = marked.bid.toFixed(p);
    const ask = marked.ask.toFixed(p);
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
