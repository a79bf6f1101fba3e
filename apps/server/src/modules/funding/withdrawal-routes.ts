import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ApproveWithdrawalInput,
  DrawInput,
  DrawListInput,
  DrawPageSchema,
  DrawResultSchema,
  RejectInput,
  StaffWithdrawalListInput,
  StaffWithdrawalPageSchema,
  StaffWithdrawalSchema,
  WithdrawCurrencyListInput,
  WithdrawCurrencySchema,
} from '@tp/contract/schemas/funding';
import { dec } from '@tp/contract/decimal';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../http/route.ts';
import { drawRecord, staffWithdrawalRecord, withdrawCurrencyRecord } from './records.ts';
import type { WithdrawalRow } from './withdrawal-repository.ts';
import type { WithdrawalService } from './withdrawal-service.ts';

const FINANCE = ['finance'];

export function registerWithdrawalRoutes(app: FastifyInstance, ctx: AppContext, withdrawals: WithdrawalService) {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/account/draw_symbol_list',
    auth: 'user',
    realOnly: true,
    input: WithdrawCurrencyListInput,
    summary: 'Withdrawal currencies (type 1 coin, 2 bank) with fee terms and limits in USD',
    tags: ['withdraw'],
    response: z.array(WithdrawCurrencySchema),
    handler: async ({ input }) => (await withdrawals.currencies(input.type)).map(withdrawCurrencyRecord),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/account/draw',
    auth: 'user',
    realOnly: true,
    input: DrawInput,
    summary: 'Requests a withdrawal: the amount leaves the free balance at once, pending staff review; with two-factor sign-in on, `totp` is required',
    tags: ['withdraw'],
    response: DrawResultSchema,
    async handler({ input, user }) {
      await ctx.services.twoFactor.require(user.id, input.totp);
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
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/account/draw_list',
    auth: 'user',
    realOnly: true,
    input: DrawListInput,
    summary: 'The user’s withdrawal records (type 1 coin, 2 bank; none for all), newest first',
    tags: ['withdraw'],
    response: DrawPageSchema,
    async handler({ input, user, lang }) {
      const type = input.type === 0 ? undefined : input.type;
      const { rows, total, currencies } = await withdrawals.list({ userId: user.id, type }, input);
      return { data: rows.map((w) => drawRecord(w, currencies.get(w.drawCurrencyId), lang)), total };
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/admin/withdrawals',
    auth: 'staff',
    roles: FINANCE,
    input: StaffWithdrawalListInput,
    summary: 'Withdrawals for review (status 0 pending, 1 paid, 2 rejected), with user and receiving account',
    tags: ['admin', 'withdraw'],
    response: StaffWithdrawalPageSchema,
    async handler({ input, lang }) {
      const { items, total } = await withdrawals.reviewList({ status: input.status, userId: input.user_id }, input);
      return { data: items.map((i) => staffWithdrawalRecord(i.withdrawal, i.currency, lang, i.user, i.method)), total };
    },
  });

  const reviewed = async (row: WithdrawalRow, lang: string) => {
    const item = await withdrawals.reviewItem(row);
    return staffWithdrawalRecord(item.withdrawal, item.currency, lang, item.user, item.method);
  };

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/withdrawals/approve',
    auth: 'staff',
    roles: FINANCE,
    input: ApproveWithdrawalInput,
    summary: 'Marks a withdrawal paid, recording the transaction reference, exactly once',
    tags: ['admin', 'withdraw'],
    response: StaffWithdrawalSchema,
    handler: async ({ input, staff, lang }) => reviewed(await withdrawals.approve(staff, input.id, input.tx_ref), lang),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/withdrawals/reject',
    auth: 'staff',
    roles: FINANCE,
    input: RejectInput,
    summary: 'Rejects a withdrawal with a remark; the amount returns to the user, exactly once',
    tags: ['admin', 'withdraw'],
    response: StaffWithdrawalSchema,
    handler: async ({ input, staff, lang }) => reviewed(await withdrawals.reject(staff, input.id, input.remark), lang),
  });
}
