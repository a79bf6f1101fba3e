import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ApproveDepositInput,
  CoinDepositInput,
  DepositCurrencySchema,
  DepositListInput,
  DepositNetworkSchema,
  DepositPageSchema,
  DepositRecordSchema,
  IdInput,
  RejectInput,
  StaffDepositListInput,
  StaffDepositPageSchema,
  StaffDepositSchema,
  WireDepositInput,
  WireInfoSchema,
} from '@tp/contract/schemas/funding';
import type { AppContext } from '../../context.ts';
import { t } from '../../http/i18n.ts';
import { defineRoute } from '../../http/route.ts';
import type { DepositService } from './deposit-service.ts';
import { currencyRecords, depositRecord, networkRecord, staffDepositRecord, wireRecord } from './records.ts';

const FINANCE = ['finance'];

export function registerDepositRoutes(app: FastifyInstance, ctx: AppContext, deposits: DepositService) {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/quickCharge/info',
    auth: 'user',
    realOnly: true,
    summary: 'Deposit networks: currency, protocol and the address to send to',
    tags: ['deposit'],
    response: z.array(DepositNetworkSchema),
    handler: async () => (await deposits.networks()).map(networkRecord),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/quickCharge/symbols',
    auth: 'user',
    realOnly: true,
    summary: 'The currencies that can be deposited, with their protocols',
    tags: ['deposit'],
    response: z.array(DepositCurrencySchema),
    handler: async () => currencyRecords(await deposits.networks()),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/quickCharge/wire_info',
    auth: 'user',
    realOnly: true,
    summary: 'Bank wire accounts to deposit to (bank_coin); notice says so when there is none',
    tags: ['deposit'],
    response: WireInfoSchema,
    async handler({ lang }) {
      const wires = await deposits.wires();
      return { bank_coin: wires.map(wireRecord), notice: wires.length ? '' : t(lang, 'funding.fiat_no_channel') };
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/quickCharge/submit',
    auth: 'user',
    realOnly: true,
    input: CoinDepositInput,
    summary: 'Declares a coin deposit with its proof image; credited once staff approve it',
    tags: ['deposit'],
    response: DepositRecordSchema,
    async handler({ input, user, lang }) {
      const row = await deposits.submitCoin(user.id, {
        number: input.number,
        proofImg: input.proofImg,
        chargeId: input.charge_id,
        address: input.address,
      });
      return depositRecord(row, lang);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/quickCharge/wire_submit',
    auth: 'user',
    realOnly: true,
    input: WireDepositInput,
    summary: 'Declares a bank wire deposit with its proof image; credited once staff approve it',
    tags: ['deposit'],
    response: DepositRecordSchema,
    async handler({ input, user, lang }) {
      const row = await deposits.submitWire(user.id, { number: input.number, proofImg: input.proofImg, wireId: input.wire_id });
      return depositRecord(row, lang);
    },
  });

  for (const url of ['/api/quickCharge/quick_ist', '/api/quickCharge/quick_list']) {
    defineRoute(app, ctx, {
      method: 'GET',
      url,
      auth: 'user',
      realOnly: true,
      input: DepositListInput,
      summary: 'The user’s deposit records (type 0 coin, 1 bank), newest first',
      tags: ['deposit'],
      response: DepositPageSchema,
      async handler({ input, user, lang }) {
        const { rows, total } = await deposits.list({ userId: user.id, type: input.type }, input);
        return { data: rows.map((d) => depositRecord(d, lang)), total };
      },
    });
  }

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/admin/deposits',
    auth: 'staff',
    roles: FINANCE,
    input: StaffDepositListInput,
    summary: 'Deposits for review (status 0 unchecked, 1 finished, 2 rejected, 3 invalid), with user and proof',
    tags: ['admin', 'deposit'],
    response: StaffDepositPageSchema,
    async handler({ input, lang }) {
      const { items, total } = await deposits.reviewList({ status: input.status, userId: input.user_id }, input);
      return { data: items.map((i) => staffDepositRecord(i, lang)), total };
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/deposits/approve',
    auth: 'staff',
    roles: FINANCE,
    input: ApproveDepositInput,
    summary: 'Approves a deposit: credits the confirmed amount, converted to USD, exactly once',
    tags: ['admin', 'deposit'],
    response: StaffDepositSchema,
    async handler({ input, staff, lang }) {
      const row = await deposits.approve(staff, input.id, input.amount);
      return staffDepositRecord(await deposits.reviewItem(row), lang);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/deposits/reject',
    auth: 'staff',
    roles: FINANCE,
    input: RejectInput,
    summary: 'Rejects a deposit with a remark the user sees',
    tags: ['admin', 'deposit'],
    response: StaffDepositSchema,
    async handler({ input, staff, lang }) {
      const row = await deposits.reject(staff, input.id, input.remark);
      return staffDepositRecord(await deposits.reviewItem(row), lang);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/admin/deposits/invalid',
    auth: 'staff',
    roles: FINANCE,
    input: IdInput,
    summary: 'Marks a deposit invalid',
    tags: ['admin', 'deposit'],
    response: StaffDepositSchema,
    async handler({ input, staff, lang }) {
      const row = await deposits.markInvalid(staff, input.id);
      return staffDepositRecord(await deposits.reviewItem(row), lang);
    },
  });
}
