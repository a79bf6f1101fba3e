import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerAccountRoutes } from './account-routes.ts';
import { registerOrderRoutes } from './routes.ts';
import { registerTestControls } from './test-controls.ts';
import { TradingService } from './trading-service.ts';
import { BusChannels } from '../../platform/bus-channels.ts';

/** Read model for other modules' screens. */
export {
  closedOrderFiguresSince,
  type ClosedOrderFigures,
  countRiskEventsSince,
  findOrder,
  listOrders,
  openLotsBySymbol,
  type OrderRow,
} from './read-model.ts';

declare module '../../context.ts' {
  interface Services {
    trading: TradingService;
  }
}

export const tradingModule = {
  name: 'trading',
  register(app: FastifyInstance, ctx: AppContext) {
    const trading = new TradingService(ctx);
    ctx.services.trading = trading;
    registerOrderRoutes(app, ctx);
    registerAccountRoutes(app, ctx);
    registerTestControls(app, ctx);
    // Every server charges fees with the fee type in force, whichever server saved it.
    ctx.bus.subscribe(BusChannels.settingsChanged, () => void trading.settings.reload(ctx.db).catch((err: unknown) => ctx.log.error({ err }, 'trading settings reload failed')));
    // On the elected leader only, after the price feed (registered earlier by the market module).
    ctx.background.push({
      name: 'trading-engine',
      leaderOnly: true,
      start: () => trading.engine.start(),
      stop: () => trading.engine.stop(),
    });
    // Swaps at the daily rollover: on the leader, once per position and rollover date whichever server runs it.
    ctx.background.push({ name: 'swap-rollover', leaderOnly: true, start: () => trading.swaps.start(), stop: () => trading.swaps.stop() });
  },
};
