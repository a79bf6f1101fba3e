import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import * as adminApi from '@tp/contract/endpoints/admin';
import { staffSession } from '../../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../../test/test-app.ts';
import {
  api,
  cashOf,
  demoTrader,
  expectAuditClean,
  submit,
  symbolId,
  tick,
  tradingApp,
  type Trader,
} from '../../../test/trading/test-kit.ts';
import { ledgerEntries, staffAuditLog } from '../../platform/db/schema.ts';

const BTC = 'BTCUSDT';

/**
 * Staff reversal of a closed trade (issue 34): a risk member takes back a closed trade's realised
 * profit or loss and its fee through the ledger, once, audited with the reason; the trader's history
 * shows it reversed. With four-eyes on, a second risk member approves it first.
 */
describe.each(dbTargets)('trade reversal on %s', (target) => {
  for (const fourEyes of ['off', 'on'] as const) {
    describe(`four-eyes ${fourEyes}`, () => {
      let t: TestApp;
      let risk1: string;
      let risk2: string;
      let support: string;
      let btc: number;
      beforeAll(async () => {
        t = await tradingApp(target, { FOUR_EYES: fourEyes });
        risk1 = await staffSession(t, ['risk']);
        risk2 = await staffSession(t, ['risk']);
        support = await staffSession(t, ['support']);
        btc = symbolId(t, BTC);
      });
      afterAll(async () => t?.close());

      const reverse = (token: string, params: Record<string, unknown>) =>
        call(t, 'POST', adminApi.positionReverse.path, params, { token, json: true, lang: 'en' });
      const decide = (token: string, id: number) => call(t, 'POST', '/api/admin/changes/approve', { id }, { token, lang: 'en' });
      const history = async (trader: Trader) =>
        (await api(t, trader, '/v1/api/forex/my_deal', { status: 3, limit: 50 })).data.data as any[];

      /** Opens 1 lot at 95010 and closes it at `bid`: answers the closed order's id. */
      async function closedTrade(trader: Trader, bid: string): Promise<number> {
        await tick(t, BTC, '94990', '95010');
        const opened = await submit(t, trader, { type: 1, cont: '1', forex_id: btc, multiple: 10 });
        expect(opened.code).toBe(1);
        await tick(t, BTC, bid, dec(bid).plus(20).toString());
        const closed = await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id });
        expect(closed.code).toBe(1);
        return closed.data.Id as number;
      }

      /** Reverses (with four-eyes: proposes, then a second member approves). */
      async function reversed(id: number, reason: string) {
        const res = await reverse(risk1, { id, reason });
        expect(res.code).toBe(1);
        if (fourEyes === 'off') return res.data;
        expect(res.data).toEqual({ pending_change_id: expect.any(Number) });
        // Nothing moves before the approval; the proposer cannot approve it.
        expect((await history((await tradersOf(id))!)).find((o) => o.Id === id).Reversed).toBe(0);
        expect((await decide(risk1, res.data.pending_change_id)).code).not.toBe(1);
        const approved = await decide(risk2, res.data.pending_change_id);
        expect(approved.code).toBe(1);
        expect(approved.data).toMatchObject({ kind: 'reversal', status: 'approved', target: String(id) });
        return approved.data;
      }
      const traders = new Map<number, Trader>();
      const tradersOf = async (orderId: number) => traders.get(orderId);

      const table = [
        { name: 'a winning trade (profit taken back, fee given back)', bid: '96000' },
        { name: 'a losing trade (loss given back, fee given back)', bid: '94500' },
      ];
      it.each(table)('$name: once, audited, shown reversed to the trader', async (row) => {
        const trader = await demoTrader(t);
        const before = dec((await cashOf(t, trader.userId)).balance);
        const id = await closedTrade(trader, row.bid);
        traders.set(id, trader);
        const closed = (await history(trader)).find((o) => o.Id === id);
        expect(closed.Reversed).toBe(0);
        // The trade moved the balance by its profit less its fee.
        expect(
          dec((await cashOf(t, trader.userId)).balance)
            .minus(before)
            .toString(),
        ).toBe(dec(closed.FactProfits).minus(closed.TradeFee).toString());
        // Only risk (or admin) staff; a reason is needed.
        expect((await reverse(support, { id, reason: 'off-market' })).code).toBe(1003);
        expect((await reverse(risk1, { id, reason: '' })).code).not.toBe(1);
        await reversed(id, 'filled on an off-market price');
        expect(dec((await cashOf(t, trader.userId)).balance).toString()).toBe(before.toString());
        expect((await history(trader)).find((o) => o.Id === id).Reversed).toBe(1);
        // Refused twice.
        const again = await reverse(risk1, { id, reason: 'again' });
        expect(again.code).not.toBe(1);
        expect(again.msg).toBe('This trade was already reversed.');
        expect(dec((await cashOf(t, trader.userId)).balance).toString()).toBe(before.toString());
        // The back office's order list shows it reversed with the reason.
        const orders = await call(t, 'GET', adminApi.userOrders.path, { user_id: trader.userId, status: 3 }, { token: risk2 });
        expect((orders.data.data as any[]).find((o) => o.id === id)).toMatchObject({
          reversed_at: expect.stringMatching(/^\d{4}-/),
          reversal_reason: 'filled on an off-market price',
        });
        // One ledger transaction, its entries summing to zero, and one audit row with the reason.
        const entries = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.type, 'trade_reversal'));
        const mine = entries.filter((e) => e.memo === `#${id}`);
        expect(new Set(mine.map((e) => e.txId)).size).toBe(1);
        expect(mine.reduce((a, e) => a.plus(dec(e.amount)), dec(0)).isZero()).toBe(true);
        const audited = await t.ctx.db
          .select()
          .from(staffAuditLog)
          .where(and(eq(staffAuditLog.action, 'order.reverse'), eq(staffAuditLog.targetId, String(id))));
        expect(audited).toHaveLength(1);
        expect(audited[0]!.after).toMatchObject({ reversed: true, reason: 'filled on an off-market price' });
        // The account log names it, in the trader's language.
        const log = await api(t, trader, '/v1/api/main/accountLog/forexChange', {});
        expect(JSON.stringify(log.data)).toContain(`Trade reversed by the broker #${id}`);
        await expectAuditClean(t);
      });

      it('refuses an open position, and two reversals at once reverse once', async () => {
        const trader = await demoTrader(t);
        await tick(t, BTC, '94990', '95010');
        const open = await submit(t, trader, { type: 1, cont: '1', forex_id: btc, multiple: 10 });
        expect((await reverse(risk1, { id: open.data.Id, reason: 'x' })).msg).toBe('Only a closed trade can be reversed.');
        await api(t, trader, '/v1/api/forex/close', { id: open.data.Id });
        const id = await closedTrade(trader, '95500');
        traders.set(id, trader);
        const before = dec((await cashOf(t, trader.userId)).balance);
        const closed = (await history(trader)).find((o) => o.Id === id);
        if (fourEyes === 'off') {
          const results = await Promise.all([reverse(risk1, { id, reason: 'a' }), reverse(risk2, { id, reason: 'b' })]);
          expect(results.filter((r) => r.code === 1)).toHaveLength(1);
        } else {
          const [a, b] = await Promise.all([reverse(risk1, { id, reason: 'a' }), reverse(risk1, { id, reason: 'b' })]);
          const results = await Promise.all([decide(risk2, a.data.pending_change_id), decide(risk2, b.data.pending_change_id)]);
          expect(results.filter((r) => r.code === 1)).toHaveLength(1);
        }
        expect(
          dec((await cashOf(t, trader.userId)).balance)
            .minus(before)
            .toString(),
        ).toBe(dec(closed.TradeFee).minus(closed.FactProfits).toString());
        await expectAuditClean(t);
      });
    });
  }
});
