import type { MarketSymbol } from '../repository.ts';
import type { SymbolInfo } from '../types.ts';
import type { PriceSource, SourceDeps } from './price-source.ts';
import { RandomWalk } from './random-walk.ts';

const TIMER_MS = 20;
/** After a stall (GC, suspended laptop), skip missed ticks beyond this many. */
const MAX_CATCH_UP = 3;

interface SimulatedSymbol {
  symbol: MarketSymbol;
  walk: RandomWalk;
  intervalMs: number;
  nextAt: number;
}

export interface SimulatedTick {
  /** The walk's price at the symbol's precision; the market adds the symbol's spread on top. */
  mid: string;
  volume: string;
}

/** One step of a symbol's walk: the source price and a simulated volume. */
export function simulatedTick(symbol: SymbolInfo, walk: RandomWalk, dtSeconds: number): SimulatedTick {
  const mid = walk.step(dtSeconds).toFixed(symbol.pricePrecision);
  return { mid, volume: String(1 + Math.floor(walk.random() * 20)) };
}

/**
 * The default source: a seeded random walk per symbol at its own tick rate (times the configured
 * multiplier). The series of prices depends only on the seed, not on timing.
 */
export class SimulatorSource implements PriceSource {
  readonly name = 'simulator';
  private timer: NodeJS.Timeout | null = null;
  private sims: SimulatedSymbol[] = [];

  constructor(private readonly deps: SourceDeps) {}

  private rateOf(symbol: MarketSymbol): number {
    const { PRICE_TICK_RATE, PRICE_TICK_MULTIPLIER } = this.deps.config;
    return PRICE_TICK_RATE ?? symbol.ticksPerSecond * PRICE_TICK_MULTIPLIER;
  }

  start(): void {
    const { market, config } = this.deps;
    const now = Date.now();
    this.sims = market.symbols().map((symbol) => {
      const walk = new RandomWalk(
        {
          seed: config.PRICE_SEED,
          code: symbol.code,
          volatility: symbol.volatility,
          basePrice: symbol.basePrice,
          pricePrecision: symbol.pricePrecision,
        },
        market.quote(symbol.id)?.mid,
      );
      const intervalMs = 1000 / this.rateOf(symbol);
      return { symbol, walk, intervalMs, nextAt: now + walk.random() * intervalMs };
    });
    this.timer = setInterval(() => this.run(Date.now()), TIMER_MS);
  }

  private run(now: number): void {
    const { market } = this.deps;
    for (const sim of this.sims) {
      if (sim.nextAt > now) continue;
      if (now - sim.nextAt > sim.intervalMs * MAX_CATCH_UP) sim.nextAt = now;
      while (sim.nextAt <= now) {
        sim.nextAt += sim.intervalMs;
        if (!market.inSession(sim.symbol.id, now)) continue;
        // The current terms (staff may have changed the precision since start).
        sim.symbol = (market.symbol(sim.symbol.id) as MarketSymbol | undefined) ?? sim.symbol;
        const tick = simulatedTick(sim.symbol, sim.walk, sim.intervalMs / 1000);
        market.publishTick({ symbolId: sim.symbol.id, bid: tick.mid, ask: tick.mid, volume: tick.volume, time: now });
      }
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
