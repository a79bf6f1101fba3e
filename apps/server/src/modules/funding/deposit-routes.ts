import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/funding';
import type { AppContext } from '../../context.ts';
import { t } from '../../http/i18n.ts';
import { route } from '../../http/route.ts';
import type { DepositService } from './deposit-service.ts';
import { currencyRecords, depositRecord, networkRecord, staffDepositRecord, wireRecord } from './records.ts';

export function registerDepositRoutes(app: FastifyInstance, ctx: AppContext, deposits: DepositService) {
  route(app, ctx, api.depositNetworks, async () => (await deposits.networks()).map(networkRecord));

  route(app, ctx, api.depositCurrencies, async () => currencyRecords(await deposits.networks()));

  route(app, ctx, api.wireInfo, async ({ lang }) => {
    const wires = await deposits.wires();
    return { bank_coin: wires.map(wireRecord), notice: wires.length ? '' : t(lang, 'funding.fiat_no_channel') };
  });

  route(app, ctx, api.submitCoinDeposit, async ({ input, user, lang }) => {
    const row = await deposits.submitCoin(user.id, {
      number: input.number,
      proofImg: input.proofImg,
      chargeId: input.charge_id,
      address: input.address,
    });
    return depositRecord(row, lang);
  });

  route(app, ctx, api.submitWireDeposit, async ({ input, user, lang }) => {
    const row = await deposits.submitWire(user.id, { number: input.number, proofImg: input.proofImg, wireId: input.wire_id });
    return depositRecord(row, lang);
  });

  for (const list of [api.depositList, api.depositListAlias]) {
    route(app, ctx, list, async ({ input, user, lang }) => {
      const { rows, total } = await deposits.list({ userId: user.id, type: input.type }, input);
      return { data: rows.map((d) => depositRecord(d, lang)), total };
    });
  }

  route(app, ctx, api.staffDeposits, async ({ input, lang }) => {
    const { items, total } = await deposits.reviewList({ status: input.status, userId: input.user_id }, input);
    return { data: items.map((i) => staffDepositRecord(i, lang)), total };
  });

  route(app, ctx, api.approveDeposit, async ({ input, staff, lang }) => {
    const row = await deposits.approve(staff, input.id, input.amount);
    return staffDepositRecord(await deposits.reviewItem(row), lang);
  });

  route(app, ctx, api.rejectDeposit, async ({ input, staff, lang }) => {
    const row = await deposits.reject(staff, input.id, input.remark);
    return staffDepositRecord(await deposits.reviewItem(row), lang);
  });

  route(app, ctx, api.invalidateDeposit, async ({ input, staff, lang }) => {
    const row = await deposits.markInvalid(staff, input.id);
    return staffDepositRecord(await deposits.reviewItem(row), lang);
  });
}
