import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/funding';
import { dec } from '@tp/contract/decimal';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { drawRecord, staffWithdrawalRecord, withdrawCurrencyRecord } from './records.ts';
import type { WithdrawalRow } from './withdrawal-repository.ts';
import type { WithdrawalService } from './withdrawal-service.ts';

export function registerWithdrawalRoutes(app: FastifyInstance, ctx: AppContext, withdrawals: WithdrawalService) {
  route(app, ctx, api.withdrawCurrencies, async ({ input }) => (await withdrawals.currencies(input.type)).map(withdrawCurrencyRecord));

  route(app, ctx, api.draw, async ({ input, user, lang }) => {
    await ctx.services.twoFactor.require(user.id, input.totp, lang);
    const row = await withdrawals.request(user.id, {
      drawCurrencyId: input.draw_currency_id,
      number: input.number,
      memo: input.memo,
      drawMethodId: input.draw_method_id,
    });
    return {
      id: row.id,
      number: dec(row.number).toString(),
      fee: dec(row.fee).toString(),
      real_number: dec(row.realNumber).toString(),
      status: row.status,
    };
  });

  route(app, ctx, api.drawList, async ({ input, user, lang }) => {
    const type = input.type === 0 ? undefined : input.type;
    const { rows, total, currencies } = await withdrawals.list({ userId: user.id, type }, input);
    return { data: rows.map((w) => drawRecord(w, currencies.get(w.drawCurrencyId), lang)), total };
  });

  route(app, ctx, api.staffWithdrawals, async ({ input, lang }) => {
    const { items, total } = await withdrawals.reviewList({ status: input.status, userId: input.user_id }, input);
    return { data: items.map((i) => staffWithdrawalRecord(i.withdrawal, i.currency, lang, i.user, i.method)), total };
  });

  const reviewed = async (row: WithdrawalRow, lang: string) => {
    const item = await withdrawals.reviewItem(row);
    return staffWithdrawalRecord(item.withdrawal, item.currency, lang, item.user, item.method);
  };

  route(app, ctx, api.approveWithdrawal, async ({ input, staff, lang }) =>
    reviewed(await withdrawals.approve(staff, input.id, input.tx_ref), lang),
  );

  route(app, ctx, api.rejectWithdrawal, async ({ input, staff, lang }) =>
    reviewed(await withdrawals.reject(staff, input.id, input.remark), lang),
  );
}
