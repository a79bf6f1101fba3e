import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/admin';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import type { FeeService } from './fee-service.ts';
import type { FundingSetupService } from './funding-setup-service.ts';
import type { FundingTable } from './setup-repository.ts';
import type { TradingSetupService } from './trading-setup-service.ts';
import type { UserAdminService } from './user-admin-service.ts';

export function registerTradingSetupRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  services: { trading: TradingSetupService; users: UserAdminService; fees: FeeService },
) {
  const { trading, users, fees } = services;
  route(app, ctx, api.fees, () => fees.current());
  route(app, ctx, api.feesPreview, ({ input }) => fees.preview(ctx.db, input));
  route(app, ctx, api.feesSave, ({ input, staff }) => fees.save(staff, input));
  route(app, ctx, api.symbols, () => trading.symbols());
  route(app, ctx, api.symbolSave, ({ input, staff }) => trading.saveSymbol(staff, input));
  route(app, ctx, api.feedHealth, () => ctx.services.market.feedHealth());
  route(app, ctx, api.fixFeed, () => {
    const source = ctx.services.priceSource;
    return {
      mode: ctx.config.PRICE_SOURCE === 'fix' ? (ctx.config.fix?.mode ?? 'failover') : null,
      sessions: (source.sessions?.() ?? []).map(
        ({ name, primary, loggedOn, lastMessageAt, inSeqNum, outSeqNum, gaps, reconnects, quotes }) => ({
          name,
          primary,
          loggedOn,
          lastMessageAt,
          inSeqNum,
          outSeqNum,
          gaps,
          reconnects,
          quotes,
        }),
      ),
      symbols: source.routes?.() ?? [],
    };
  });
  route(app, ctx, api.categories, () => trading.categories());
  route(app, ctx, api.categorySave, ({ input, staff }) => trading.saveCategory(staff, input));
  route(app, ctx, api.positions, ({ input }) =>
    users.orders({ userId: input.user_id, symbolId: input.symbol_id, statuses: [1] }, input.page, input.limit),
  );
  route(app, ctx, api.positionClose, ({ input, staff }) => trading.closePosition(staff, input.id));
  route(app, ctx, api.positionReverse, ({ input, staff }) => trading.reversePosition(staff, input.id, input.reason));
}

/** Deposit networks, bank wire accounts and withdraw currencies: each table's list, save and delete. */
export function registerFundingSetupRoutes(app: FastifyInstance, ctx: AppContext, funding: FundingSetupService) {
  const tables: {
    table: FundingTable;
    list: typeof api.depositNetworks | typeof api.bankWires | typeof api.withdrawCurrencies;
    save: typeof api.depositNetworkSave | typeof api.bankWireSave | typeof api.withdrawCurrencySave;
    remove: typeof api.depositNetworkDelete | typeof api.bankWireDelete | typeof api.withdrawCurrencyDelete;
  }[] = [
    { table: 'depositNetworks', list: api.depositNetworks, save: api.depositNetworkSave, remove: api.depositNetworkDelete },
    { table: 'bankWires', list: api.bankWires, save: api.bankWireSave, remove: api.bankWireDelete },
    { table: 'withdrawCurrencies', list: api.withdrawCurrencies, save: api.withdrawCurrencySave, remove: api.withdrawCurrencyDelete },
  ];
  for (const t of tables) {
    // The service maps a table's columns to the API's names generically; the output schema types and checks each answer.
    route(app, ctx, t.list, () => funding.list(t.table) as never);
    route(app, ctx, t.save, ({ input, staff }) => funding.save(staff, t.table, input) as never);
    route(app, ctx, t.remove, async ({ input, staff }) => {
      await funding.remove(staff, t.table, input.id);
      return null;
    });
  }
}
