import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { fail } from '../../http/errors.ts';
import { defineRoute } from '../../http/route.ts';

const TickInput = z.object({ symbol_id: z.coerce.number().int().positive(), bid: z.string().min(1), ask: z.string().min(1) });

/**
 * Test-only calls (TRADING_TEST_CONTROLS=1, never with NODE_ENV=production): a restart test drives
 * prices and waits for the engine through these, with no price feed running.
 */
export function registerTestControls(app: FastifyInstance, ctx: AppContext) {
  if (!ctx.config.TRADING_TEST_CONTROLS || ctx.config.NODE_ENV === 'production') return;
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/test/trading/tick',
    input: TickInput,
    summary: 'Test only: publishes a tick',
    tags: ['test'],
    handler({ input }) {
      const accepted = ctx.services.market.publishTick({ symbolId: input.symbol_id, bid: input.bid, ask: input.ask, time: Date.now() });
      if (!accepted) throw fail('trading.market_closed');
      return { accepted };
    },
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/test/trading/idle',
    summary: 'Test only: waits until every triggered job has committed',
    tags: ['test'],
    async handler() {
      const engine = ctx.services.trading.engine;
      await engine.idle();
      return { running: engine.running, ...engine.stats() };
    },
  });
}
