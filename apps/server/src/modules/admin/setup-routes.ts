import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AdminBankWireSchema,
  AdminCategorySchema,
  AdminDepositNetworkSchema,
  AdminOrderSchema,
  AdminSymbolSchema,
  AdminWithdrawCurrencySchema,
  BankWireSaveInput,
  CategorySaveInput,
  DepositNetworkSaveInput,
  FeeChangeInput,
  FeePreviewSchema,
  FeedHealthSchema,
  IdInput,
  pageOf,
  PositionListInput,
  SymbolSaveInput,
  WithdrawCurrencySaveInput,
} from '@tp/contract/schemas/admin';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';
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
  const risk = { auth: 'staff' as const, roles: ['risk'], tags: ['admin'] };

  defineRoute(app, ctx, { ...risk, method: 'GET', url: '/api/admin/fees', summary: 'The trade fee type and every symbol\'s fee rate, with what a 1-lot trade pays', response: FeePreviewSchema, handler: () => fees.current() });

  defineRoute(app, ctx, {
    ...risk,
    method: 'POST',
    url: '/api/admin/fees/preview',
    input: FeeChangeInput,
    summary: 'What a 1-lot trade on each symbol would pay before and after a change of the fee type or rates (nothing is saved)',
    response: FeePreviewSchema,
    handler: ({ input }) => fees.preview(ctx.db, input),
  });

  defineRoute(app, ctx, {
    ...risk,
    method: 'POST',
    url: '/api/admin/fees/save',
    input: FeeChangeInput,
    summary: 'Changes the fee type and rates when every rate is within its type\'s range; audited',
    response: FeePreviewSchema,
    handler: ({ input, staff }) => fees.save(staff, input),
  });

  defineRoute(app, ctx, { ...risk, method: 'GET', url: '/api/admin/symbols', summary: 'Every symbol with its trading terms', response: z.array(AdminSymbolSchema), handler: () => trading.symbols() });

  defineRoute(app, ctx, {
    ...risk,
    method: 'POST',
    url: '/api/admin/symbols/save',
    input: SymbolSaveInput,
    summary: "Changes a symbol's terms (fields left out keep their value); the trade page follows at once",
    response: AdminSymbolSchema,
    handler: ({ input, staff }) => trading.saveSymbol(staff, input),
  });

  defineRoute(app, ctx, {
    ...risk,
    method: 'GET',
    url: '/api/admin/feed-health',
    summary: "Each symbol's price feed: live, stale, no live tick since start or outside its sessions; last tick age and suspect ticks held",
    response: z.array(FeedHealthSchema),
    handler: () => ctx.services.market.feedHealth(),
  });

  defineRoute(app, ctx, { ...risk, method: 'GET', url: '/api/admin/categories', summary: 'Symbol categories', response: z.array(AdminCategorySchema), handler: () => trading.categories() });

  defineRoute(app, ctx, {
    ...risk,
    method: 'POST',
    url: '/api/admin/categories/save',
    input: CategorySaveInput,
    summary: 'Creates (no id) or updates a category (key names its translation)',
    response: AdminCategorySchema,
    handler: ({ input, staff }) => trading.saveCategory(staff, input),
  });

  defineRoute(app, ctx, {
    ...risk,
    method: 'GET',
    url: '/api/admin/positions',
    input: PositionListInput,
    summary: 'Open positions, newest first, optionally of one user or symbol',
    response: pageOf(AdminOrderSchema),
    handler: ({ input }) => users.orders({ userId: input.user_id, symbolId: input.symbol_id, statuses: [1] }, input.page, input.limit),
  });

  defineRoute(app, ctx, {
    ...risk,
    method: 'POST',
    url: '/api/admin/positions/close',
    input: IdInput,
    summary: "Closes a user's open position at the current price (closed_type 5), exactly once",
    response: AdminOrderSchema,
    handler: ({ input, staff }) => trading.closePosition(staff, input.id),
  });
}

const FUNDING: { path: string; table: FundingTable; input: z.ZodType; schema: z.ZodType; what: string }[] = [
  { path: 'deposit_networks', table: 'depositNetworks', input: DepositNetworkSaveInput, schema: AdminDepositNetworkSchema, what: 'deposit network (currency, protocol, address, usd_price)' },
  { path: 'bank_wires', table: 'bankWires', input: BankWireSaveInput, schema: AdminBankWireSchema, what: 'bank wire account' },
  { path: 'withdraw_currencies', table: 'withdrawCurrencies', input: WithdrawCurrencySaveInput, schema: AdminWithdrawCurrencySchema, what: 'withdraw currency (fee type, rate, usd_price, limits, address pattern)' },
];

export function registerFundingSetupRoutes(app: FastifyInstance, ctx: AppContext, funding: FundingSetupService) {
  const finance = { auth: 'staff' as const, roles: ['finance'], tags: ['admin'] };
  for (const f of FUNDING) {
    defineRoute(app, ctx, { ...finance, method: 'GET', url: `/api/admin/${f.path}`, summary: `Every ${f.what}`, response: z.array(f.schema), handler: () => funding.list(f.table) });
    defineRoute(app, ctx, {
      ...finance,
      method: 'POST',
      url: `/api/admin/${f.path}/save`,
      input: f.input,
      summary: `Creates (no id) or updates a ${f.what}`,
      response: f.schema,
      handler: ({ input, staff }) => funding.save(staff, f.table, input as Record<string, unknown>),
    });
    defineRoute(app, ctx, {
      ...finance,
      method: 'POST',
      url: `/api/admin/${f.path}/delete`,
      input: IdInput,
      summary: `Deletes a ${f.what} nothing refers to`,
      async handler({ input, staff }) {
        await funding.remove(staff, f.table, input.id);
        return null;
      },
    });
  }
}
