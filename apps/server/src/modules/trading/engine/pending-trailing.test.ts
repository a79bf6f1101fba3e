import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { nextRollover } from '../swaps/rollover.ts';
import {
  api,
  cashOf,
  demoTrader,
  expectAuditClean,
  pushesOf,
  submit,
  symbolId,
  tick,
  tradingApp,
} from '../../../../test/trading/test-kit.ts';
import { holdEngineJobs } from '../../../../test/trading/scenario-kit.ts';

const BTC = 'BTCUSDT';

/** Pending order types and expiry, and trailing stops (issue 22), as scenario tables. */
describe.each(dbTargets)('pending types, expiry and trailing stops on %s', (target) => {
  let t: TestApp;
  let btc: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, BTC);
    await t.ctx.services.trading.trailing.start();
  });
  afterAll(async () => {
    await t?.ctx.services.trading.trailing.stop();
    await t?.close();
  });

  // Quote 94990 / 95010: a buy compares its target with the ask, a sell with the bid.
  it.each([
    { type: 1, target: '94000', derived: 'buy_limit' },
    { type: 1, target: '96000', derived: 'buy_stop' },
    { type: 2, target: '96000', derived: 'sell_limit' },
    { type: 2, target: '94000', derived: 'sell_stop' },
  ])('a pending $derived is derived from the price, and a contradicting choice is refused', async ({ type, target: price, derived }) => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const placed = await submit(t, trader, {
      type,
      cont: '0.1',
      forex_id: btc,
      multiple: 10,
      status: 0,
      target_price: price,
      pending_type: derived,
    });
    expect(placed.code).toBe(1);
    expect(placed.data).toMatchObject({ Status: 0, PendingType: derived, ExpireTime: 0 });
    const wrong = derived.endsWith('limit') ? derived.replace('limit', 'stop') : derived.replace('stop', 'limit');
    const refused = await submit(t, trader, {
      type,
      cont: '0.1',
      forex_id: btc,
      multiple: 10,
      status: 0,
      target_price: price,
      pending_type: wrong,
    });
    expect(refused.code).toBe(1001);
    expect(refused.msg).toMatch(/95010\.00|94990\.00/);
  });

  it.each([
    { expire_type: 1, expire_time: undefined, ok: true },
    { expire_type: 2, expire_time: () => Math.floor(Date.now() / 1000) + 3600, ok: true },
    { expire_type: 2, expire_time: () => Math.floor(Date.now() / 1000) - 10, ok: false },
    { expire_type: 2, expire_time: undefined, ok: false },
  ])('expiry $expire_type: accepted $ok', async ({ expire_type, expire_time, ok }) => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const time = expire_time?.();
    const res = await submit(t, trader, {
      type: 1,
      cont: '0.1',
      forex_id: btc,
      multiple: 10,
      status: 0,
      target_price: '90000',
      expire_type,
      expire_time: time,
    });
    expect(res.code === 1).toBe(ok);
    if (ok) expect(res.data.ExpireTime).toBe(expire_type === 1 ? Math.floor(nextRollover(Date.now()) / 1000) : time);
  });

  it('cancels an expired pending order once: the reservation goes back and the trader is told', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const expiresAt = Math.floor(Date.now() / 1000) + 120;
    const keep = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10, status: 0, target_price: '90000' });
    const placed = await submit(t, trader, {
      type: 1,
      cont: '0.1',
      forex_id: btc,
      multiple: 10,
      status: 0,
      target_price: '90000',
      expire_type: 2,
      expire_time: expiresAt,
    });
    const locked = (await cashOf(t, trader.userId)).locked;
    const pushes = pushesOf(t, trader.userId);
    const expiry = t.ctx.services.trading.expiry;
    const later = new Date((expiresAt + 1) * 1000);
    const [a, b] = await Promise.all([expiry.sweep(later), expiry.sweep(later)]);
    await t.ctx.services.trading.engine.idle();
    pushes.stop();
    expect(a + b).toBeGreaterThanOrEqual(1);
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    expect(history.data.data.map((o: { Id: number; CancelReason: string }) => [o.Id, o.CancelReason])).toEqual([
      [placed.data.Id, 'expired'],
    ]);
    const pending = await api(t, trader, '/v1/api/forex/my_deal', { status: 0 });
    expect(pending.data.data.map((o: { Id: number }) => o.Id)).toEqual([keep.data.Id]);
    expect(Number((await cashOf(t, trader.userId)).locked)).toBeLessThan(Number(locked));
    expect(pushes.messages).toContainEqual(
      expect.objectContaining({ type: 'NOTICE', kind: 'pending_cancelled', order_id: placed.data.Id }),
    );
    await expectAuditClean(t);
  });

  it('moves a trailing stop only forward and only past the entry, keeps it across a restart, and closes on it', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    const opened = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, multiple: 10 });
    // 1000 points of BTC (2 decimals) = 10.00 USD behind the bid.
    const set = await api(t, trader, '/v1/api/forex/set_trailing', { id: opened.data.Id, points: 1000 });
    expect(set.data).toMatchObject({ TrailingPoints: 1000, TargetLossPrice: '0' });
    const trailing = t.ctx.services.trading.trailing;
    const steps: [string, string, string][] = [
      ['95005', '95025', '0'], // 94995 is below the entry: not yet
      ['95100', '95120', '95090.00'],
      ['95095', '95115', '95090.00'], // a step back: the stop stays
      ['95200', '95220', '95190.00'],
    ];
    for (const [bid, ask, stop] of steps) {
      await tick(t, BTC, bid, ask);
      await trailing.flush();
      const holding = await api(t, trader, '/v1/api/forex/my_deal', { status: 1 });
      expect(holding.data.data[0]).toMatchObject({ Id: opened.data.Id, TargetLossPrice: stop });
    }
    await trailing.stop();
    await trailing.start();
    const pushes = pushesOf(t, trader.userId);
    await tick(t, BTC, '95180', '95200');
    await trailing.flush();
    pushes.stop();
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    expect(history.data.data[0]).toMatchObject({ Id: opened.data.Id, ClosedType: 4, UpdatePrice: '95180.00' });
    expect(pushes.messages).toContainEqual(expect.objectContaining({ type: 'NOTICE', kind: 'trailing_stop', order_id: opened.data.Id }));
    await expectAuditClean(t);
  });

  it('a trailing stop crossed while a partial close commits pays the lots left, not the lots the tick saw', async () => {
    const trader = await demoTrader(t);
    await tick(t, BTC, '94990', '95010');
    // 1 lot at 95,010, 1:20 (margin 4,750.5, fee 3); the trailing stop follows 10.00 USD behind the bid.
    const opened = await submit(t, trader, { type: 1, cont: '1', forex_id: btc, multiple: 20 });
    expect(opened.msg).toBe('Success');
    await api(t, trader, '/v1/api/forex/set_trailing', { id: opened.data.Id, points: 1000 });
    const trailing = t.ctx.services.trading.trailing;
    await tick(t, BTC, '95200', '95220');
    await trailing.flush();
    const moved = await api(t, trader, '/v1/api/forex/my_deal', { status: 1 });
    expect(moved.data.data[0]).toMatchObject({ Id: opened.data.Id, TargetLossPrice: '95190.00' });
    // The trailed stop is crossed at 95,180; its job is queued there and runs after the trader's partial close.
    const release = holdEngineJobs(t);
    await tick(t, BTC, '95180', '95200', false);
    const part = await api(t, trader, '/v1/api/forex/close', { id: opened.data.Id, cont: '0.9' });
    expect(part.msg).toBe('Success');
    release();
    await t.ctx.services.trading.engine.idle();
    await trailing.flush();
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    const rows = history.data.data as { Id: number; ClosedType: number; UpdatePrice: string; FactProfits: string; Quantity: string }[];
    // The part the trader closed: 0.9 x 170 = 153; the stop closes the 0.1 left: 17, never the whole lot's 170.
    expect(rows.find((r) => r.Id === part.data.Id)).toMatchObject({ ClosedType: 1, UpdatePrice: '95180.00', FactProfits: '153.000000' });
    expect(rows.find((r) => r.Id === opened.data.Id)).toMatchObject({ ClosedType: 4, UpdatePrice: '95180.00', FactProfits: '17.000000' });
    // 100,000 - 3 + 153 + 17.
    expect(await cashOf(t, trader.userId)).toEqual({ balance: '100167', locked: '0' });
    await expectAuditClean(t);
  });
});
