import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerAccountRoutes } from './account/account-routes.ts';
import { registerOrderRoutes } from './routes.ts';
import { TradingService } from './trading-service.ts';
import { BusChannels } from '../../platform/bus-channels.ts';

/** Read model for other modules' screens. */
export {
  closedOrderFiguresSince,
  closedOrdersOfUser,
  tradeCurveFigures,
  type TradeCurveFigures,
  type ClosedOrderFigures,
  countRiskEventsSince,
  findOrder,
  listOrders,
  openLotsBySymbol,
  openPositionsOfUser,
  ordersWithIds,
  usersWithOpenPositions,
  type OrderRow,
} from './views/read-model.ts';
/** Staff reversal of a closed trade (the admin module's four-eyes change of kind 'reversal'). */
export { REVERSAL_ENTRY, reverseClosedOrder } from './settlement/reversal.ts';
/** Closed orders of referred clients (the partners module accrues commissions on them). */
export { closedLotsOf, closedOrdersOf, reversedOrdersOf } from './views/closed-orders.ts';

/** Open accounts' figures and the margin rule of figures (previews of staff changes to money rules). */
export type { OpenAccount } from './trading-service.ts';
export { requiredMargin } from './engine/figures.ts';
/** The account group's spread markup an order trades with (its close price is the quote's with it). */
export { markupOfRow } from './views/order-view.ts';

/** The dealer's desk (figures of the house's book), as `ctx.services.trading.deskBook` answers them. */
export type { DeskBook } from './views/desk-view.ts';

/** Account events (funding, identity, support) in the trader's notifications. */
export { accountNotice, type NoticeSource } from './events/account-notices.ts';

declare module '../../context.ts' {
  interface Services {
    trading: TradingService;
  }
}

export const tradingModule = {
  name: 'trading',
  async register(app: FastifyInstance, ctx: AppContext) {
    const trading = new TradingService(ctx);
    ctx.services.trading = trading;
    registerOrderRoutes(app, ctx);
    registerAccountRoutes(app, ctx);
    if (ctx.config.TRADING_TEST_CONTROLS && ctx.config.NODE_ENV !== 'production') {
      // Test-only calls live with the tests; a variable specifier keeps them out of the production bundle.
      const controls = new URL('../../../test/trading/test-controls.ts', import.meta.url).href;
      const { registerTestControls } = (await import(controls)) as typeof import('../../../test/trading/test-controls.ts');
      registerTestControls(app, ctx);
    }
    // Every server charges fees with the fee type in force, whichever server saved it.
    ctx.bus.subscribe(
      BusChannels.settingsChanged,
      () => void trading.settings.reload(ctx.db).catch((err: unknown) => ctx.log.error({ err }, 'trading settings reload failed')),
    );
    // On the elected leader only, after the price feed (registered earlier by the market module).
    ctx.background.push({
      name: 'trading-engine',
      leaderOnly: true,
      start: () => trading.engine.start(),
      stop: () => trading.engine.stop(),
    });
    // Swaps at the daily rollover: on the leader, once per position and rollover date whichever server runs it.
    // Price alerts are watched on the leader; any server sets them, and each fires once (guarded update).
    ctx.background.push({
      name: 'trailing-stops',
      leaderOnly: true,
      start: () => trading.trailing.start(),
      stop: () => trading.trailing.stop(),
    });
    ctx.background.push({
      name: 'pending-expiry',
      leaderOnly: true,
      start: () => trading.expiry.start(),
      stop: () => trading.expiry.stop(),
    });
    ctx.background.push({
      name: 'risk-warning',
      leaderOnly: true,
      start: () => trading.riskWarnings.start(),
      stop: () => trading.riskWarnings.stop(),
    });
    ctx.background.push({ name: 'price-alerts', leaderOnly: true, start: () => trading.alerts.start(), stop: () => trading.alerts.stop() });
    // Hybrid and A-book groups' hedges brought to target, on the leader (where the FIX sessions run).
    ctx.background.push({
      name: 'hedge-reconciler',
      leaderOnly: true,
      start: () => {
        trading.hedges.serve();
        trading.hedgeReconciler.start();
      },
      stop: () => {
        trading.hedgeReconciler.stop();
        trading.hedges.stopServing();
      },
    });
    ctx.background.push({ name: 'swap-rollover', leaderOnly: true, start: () => trading.swaps.start(), stop: () => trading.swaps.stop() });
  },
};
