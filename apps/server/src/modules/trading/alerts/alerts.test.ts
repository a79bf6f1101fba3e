import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACTIVE_ALERTS } from '@tp/contract/schemas/trading';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { outboxCount, registerByEmail } from '../../../../test/auth-helpers.ts';
import { priceAlerts } from '../../../platform/db/schema.ts';
import { AlertService } from './alert-service.ts';
import { api, demoTrader, pushesOf, symbolId, tick, tradingApp } from '../../../../test/trading/test-kit.ts';

/** Price alerts (issue 22): set on the server, watched on the leader, fired once, pushed and emailed. */
describe.each(dbTargets)('price alerts on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target);
    await t.ctx.services.trading.alerts.start();
  });
  afterAll(async () => {
    await t?.ctx.services.trading.alerts.stop();
    await t?.close();
  });

  const alertsIdle = () => t.ctx.services.trading.alerts.idle();

  // EURUSD 1.08 area; the bid crossing fires, the ask is the other side of the spread.
  it.each([
    {
      set: { price: '1.09000', side: 'bid' },
      ticks: [
        ['1.08950', '1.08970'],
        ['1.08990', '1.09010'],
        ['1.09000', '1.09020'],
      ],
      firesAt: '1.09000',
      direction: 1,
    },
    {
      set: { price: '1.07000', side: 'bid' },
      ticks: [
        ['1.07100', '1.07120'],
        ['1.06950', '1.06970'],
      ],
      firesAt: '1.06950',
      direction: -1,
    },
    {
      set: { price: '1.09000', side: 'ask' },
      ticks: [
        ['1.08970', '1.08990'],
        ['1.08980', '1.09000'],
      ],
      firesAt: '1.09000',
      direction: 1,
    },
  ])('$set.side crossing $set.price fires once at $firesAt', async ({ set, ticks, firesAt, direction }) => {
    const trader = await demoTrader(t);
    const eur = symbolId(t, 'EURUSD');
    await tick(t, 'EURUSD', '1.08000', '1.08020');
    const added = await api(t, trader, '/v1/api/forex/alert/add', { forex_id: eur, ...set });
    expect(added.code).toBe(1);
    expect(added.data).toMatchObject({ forex_id: eur, symbol: 'EUR/USD', side: set.side, direction, price: set.price, fired_at: 0 });
    const pushes = pushesOf(t, trader.userId);
    for (const [bid, ask] of ticks) {
      await tick(t, 'EURUSD', bid!, ask!);
      await alertsIdle();
    }
    // Further ticks beyond the level do not fire it again.
    await tick(t, 'EURUSD', ticks.at(-1)![0]!, ticks.at(-1)![1]!);
    await alertsIdle();
    pushes.stop();
    const fired = pushes.messages.filter((m) => m.type === 'ALERT');
    expect(fired).toEqual([expect.objectContaining({ type: 'ALERT', id: added.data.id, fired_price: firesAt })]);
    const list = await api(t, trader, '/v1/api/forex/alerts', { page: 1 });
    expect(list.data.data[0]).toMatchObject({ id: added.data.id, fired_price: firesAt });
    expect(list.data.data[0].fired_at).toBeGreaterThan(0);
  });

  it('refuses an alert at the current price, on an unknown symbol, by email without an address, and past the limit', async () => {
    const trader = await demoTrader(t);
    const eur = symbolId(t, 'EURUSD');
    await tick(t, 'EURUSD', '1.08000', '1.08020');
    expect((await api(t, trader, '/v1/api/forex/alert/add', { forex_id: eur, price: '1.08000' })).msg).toBe(
      'The price is already 1.08000: choose another level',
    );
    expect((await api(t, trader, '/v1/api/forex/alert/add', { forex_id: 99999, price: '1' })).code).not.toBe(1);
    expect((await api(t, trader, '/v1/api/forex/alert/add', { forex_id: eur, price: '1.2', email: 1 })).msg).toContain('no email address');
    const adds = await Promise.all(
      Array.from({ length: MAX_ACTIVE_ALERTS + 3 }, (_, i) =>
        api(t, trader, '/v1/api/forex/alert/add', { forex_id: eur, price: (1.1 + i / 1000).toFixed(5) }),
      ),
    );
    expect(adds.filter((r) => r.code === 1)).toHaveLength(MAX_ACTIVE_ALERTS);
    expect(adds.filter((r) => r.code !== 1)[0]!.msg).toBe(`You can have at most ${MAX_ACTIVE_ALERTS} price alerts waiting`);
  });

  it("removes only the owner's alert", async () => {
    const owner = await demoTrader(t);
    const other = await demoTrader(t);
    const eur = symbolId(t, 'EURUSD');
    const added = await api(t, owner, '/v1/api/forex/alert/add', { forex_id: eur, price: '1.5' });
    expect((await api(t, other, '/v1/api/forex/alert/delete', { id: added.data.id })).code).not.toBe(1);
    expect((await api(t, owner, '/v1/api/forex/alert/delete', { id: added.data.id })).code).toBe(1);
    expect((await api(t, owner, '/v1/api/forex/alerts', {})).data.total).toBe(0);
  });

  it('survives a restart of the watcher, and emails when asked', async () => {
    const account = await registerByEmail(t);
    const trader = { token: account.token, userId: account.user.id, demoId: '' };
    const eur = symbolId(t, 'EURUSD');
    await tick(t, 'EURUSD', '1.08000', '1.08020');
    const before = await outboxCount(t, account.email);
    const added = await api(t, trader, '/v1/api/forex/alert/add', { forex_id: eur, price: '1.08500', email: 1 });
    expect(added.data.email).toBe(1);
    await t.ctx.services.trading.alerts.stop();
    await t.ctx.services.trading.alerts.start();
    await tick(t, 'EURUSD', '1.08600', '1.08620');
    await alertsIdle();
    const [row] = await t.ctx.db.select().from(priceAlerts).where(eq(priceAlerts.id, added.data.id));
    expect(row!.firedPrice).not.toBeNull();
    expect(await outboxCount(t, account.email)).toBe(before + 1);
  });

  it('fires once when two watchers see the same tick (two servers during a failover)', async () => {
    const trader = await demoTrader(t);
    const eur = symbolId(t, 'EURUSD');
    await tick(t, 'EURUSD', '1.08000', '1.08020');
    const second = new AlertService(t.ctx);
    await second.start();
    const added = await api(t, trader, '/v1/api/forex/alert/add', { forex_id: eur, price: '1.08300' });
    await new Promise((r) => setTimeout(r, 50));
    const pushes = pushesOf(t, trader.userId);
    await tick(t, 'EURUSD', '1.08400', '1.08420');
    await Promise.all([alertsIdle(), second.idle()]);
    await second.stop();
    pushes.stop();
    expect(pushes.messages.filter((m) => m.type === 'ALERT' && m.id === added.data.id)).toHaveLength(1);
  });
});

describe('risk emails', () => {
  it("emails a margin call and a stop-out to the account's address, not the end of a margin call", async () => {
    const t = await tradingApp('pglite');
    try {
      const account = await registerByEmail(t);
      const before = await outboxCount(t, account.email);
      const risk = t.ctx.services.trading.engine.risk;
      risk.record(account.user.id, 'margin_call', '95.5');
      risk.record(account.user.id, 'margin_call_end', '120');
      risk.record(account.user.id, 'stop_out', '48.2');
      await risk.written();
      expect(await outboxCount(t, account.email)).toBe(before + 2);
    } finally {
      await t.close();
    }
  });
});
