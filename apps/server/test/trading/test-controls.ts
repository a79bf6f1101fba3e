import type { FastifyInstance } from 'fastify';
import { testIdle, testTick } from '@tp/contract/endpoints/platform';
import type { AppContext } from '../../src/context.ts';
import { fail } from '../../src/http/errors.ts';
import { route } from '../../src/http/route.ts';

/**
 * Test-only calls (TRADING_TEST_CONTROLS=1, never with NODE_ENV=production): a restart test drives
 * prices and waits for the engine through these, with no price feed running.
 */
export function registerTestControls(app: FastifyInstance, ctx: AppContext) {
  if (!ctx.config.TRADING_TEST_CONTROLS || ctx.config.NODE_ENV === 'production') return;
  route(app, ctx, testTick, ({ input }) => {
    const accepted = ctx.services.market.publishTick({ symbolId: input.symbol_id, bid: input.bid, ask: input.ask, time: Date.now() });
    if (!accepted) throw fail('trading.market_closed');
    return { accepted };
  });
  route(app, ctx, testIdle, async () => {
    const engine = ctx.services.trading.engine;
    await engine.idle();
    return { running: engine.running, ...engine.stats() };
  });
}
