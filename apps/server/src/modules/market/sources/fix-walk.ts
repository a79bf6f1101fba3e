import type { Logger } from 'pino';
import type { FixSessionConfig } from '../../../fix-config.ts';
import { seedSymbols } from '../../../platform/db/seed-data.ts';
import { FixSimulator } from './fix-simulator.ts';
import { RandomWalk } from './random-walk.ts';

/** A running FIX simulator that quotes its session's symbols by the built-in simulator's random walk. */
export interface WalkingProvider {
  sim: FixSimulator;
  stop(): void;
}

/**
 * The local provider of `npm run fix:simulator` (and of the end-to-end test): a FIX simulator on
 * the session's port quoting each of its symbols (those of the seed data) with the built-in
 * simulator's random walk from the symbol's base price, at the symbol's own tick rate.
 */
export async function startWalkingProvider(session: FixSessionConfig, log: Logger, seed = 42): Promise<WalkingProvider> {
  const walks = Object.entries(session.symbols).flatMap(([code, theirs]) => {
    const s = seedSymbols.find((x) => x.code === code);
    if (!s) {
      log.warn({ code }, 'FIX simulator: not a symbol of the seed data, not quoted');
      return [];
    }
    const walk = new RandomWalk({
      seed,
      code,
      volatility: Number(s.volatility),
      basePrice: s.basePrice,
      pricePrecision: s.pricePrecision ?? 2,
    });
    return [{ theirs, walk, everyMs: 1000 / Number(s.ticksPerSecond ?? 1), nextAt: 0, lastAt: Date.now() }];
  });
  const now = Date.now();
  const sim = new FixSimulator(
    session,
    log,
    walks.map((w) => ({ symbol: w.theirs, bid: w.walk.priceText(), ask: w.walk.priceText(), time: now })),
  );
  await sim.start();
  const timer = setInterval(() => {
    const at = Date.now();
    for (const w of walks) {
      if (at < w.nextAt) continue;
      w.nextAt = at + w.everyMs;
      w.walk.step((at - w.lastAt) / 1000);
      w.lastAt = at;
      // The walk's price as bid and ask, as the built-in simulator hands it: the server adds the spread.
      sim.push({ symbol: w.theirs, bid: w.walk.priceText(), ask: w.walk.priceText(), time: at });
    }
  }, 20);
  return {
    sim,
    stop() {
      clearInterval(timer);
      sim.stop();
    },
  };
}
