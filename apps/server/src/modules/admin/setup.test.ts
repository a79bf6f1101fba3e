import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffSession } from '../../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { staffAuditLog } from '../../platform/db/schema.ts';
import { newUser } from '../funding/test-helpers.ts';
import { expectAuditClean, submit, symbolId, tick, tradingApp } from '../../../test/trading/test-kit.ts';

const BTC = 'BTCUSDT';

describe.each(dbTargets)('back office trading and funding setup on %s', (target) => {
  let t: TestApp;
  let risk: string;
  let finance: string;
  let btc: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    risk = await staffSession(t, ['risk']);
    finance = await staffSession(t, ['finance']);
    btc = symbolId(t, BTC);
  });
  afterAll(async () => t?.close());

  it('edits a symbol: stored, audited, and the market follows at once', async () => {
    const before = (await call(t, 'GET', '/api/admin/symbols', {}, { token: risk })).data.find((s: { id: number }) => s.id === btc);
    const saved = await call(
      t,
      'POST',
      '/api/admin/symbols/save',
      { id: btc, spread: '12.5', leverages: '5,50,10', holidays: '["2030-12-25"]', fee_rate: '4' },
      { token: risk },
    );
    expect(saved.code).toBe(1);
    expect(saved.data).toMatchObject({
      spread: '12.5000000000',
      leverages: [5, 10, 50],
      holidays: ['2030-12-25'],
      min_lots: before.min_lots,
    });
    const sym = t.ctx.services.market.symbol(btc)!;
    expect(sym.spread.toString()).toBe('12.5');
    expect(sym.leverages.map((l) => l.value)).toEqual([5, 10, 50]);
    const list = await call(t, 'GET', '/v1/api/forex/trade_list', {});
    const row = list.data.find((s: { Id: number }) => s.Id === btc);
    expect(row.HasForexMultiple.map((m: { Value: number }) => m.Value)).toEqual([5, 10, 50]);

    const bad = await call(t, 'POST', '/api/admin/symbols/save', { id: btc, min_lots: '1000000' }, { token: risk, lang: 'en' });
    expect(bad).toMatchObject({ code: 1001, msg: 'The minimum lots cannot be more than the maximum lots' });
    expect((await call(t, 'POST', '/api/admin/symbols/save', { id: btc, margin_mode: 2, fixed_margin: '' }, { token: risk })).code).toBe(
      1001,
    );
    // Sessions: each closes after it opens, and two of one day do not overlap (touching is fine); the week is stored as sent.
    const week = [
      { day: 1, open: '00:00', close: '12:00' },
      { day: 1, open: '12:00', close: '24:00' },
      { day: 2, open: '09:30', close: '17:00' },
    ];
    const scheduled = await call(t, 'POST', '/api/admin/symbols/save', { id: btc, schedule: JSON.stringify(week) }, { token: risk });
    expect(scheduled.data.schedule).toEqual(week);
    const overlap = [...week, { day: 2, open: '16:59', close: '18:00' }];
    expect(
      await call(t, 'POST', '/api/admin/symbols/save', { id: btc, schedule: JSON.stringify(overlap) }, { token: risk, lang: 'en' }),
    ).toMatchObject({
      code: 1001,
      msg: 'Two trading sessions of the same day overlap',
    });
    expect(
      (await call(t, 'GET', '/api/admin/symbols', {}, { token: risk })).data.find((s: { id: number }) => s.id === btc).schedule,
    ).toEqual(week);
    expect((await call(t, 'POST', '/api/admin/symbols/save', { id: btc, schedule: '[]' }, { token: risk })).data.schedule).toEqual([]);

    const [audit] = await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'symbol.save'));
    expect(audit).toMatchObject({ targetId: String(btc), before: { spread: before.spread }, after: { spread: '12.5000000000' } });
  });

  it('edits price integrity terms (risk staff only, validated, audited) and shows each feed', async () => {
    const eth = symbolId(t, 'ETHUSDT');
    const content = await staffSession(t, ['content']);
    expect((await call(t, 'POST', '/api/admin/symbols/save', { id: eth, deviation_pct: '3' }, { token: content })).code).not.toBe(1);
    const saved = await call(
      t,
      'POST',
      '/api/admin/symbols/save',
      { id: eth, spread: '2', deviation_pct: '3.5', max_quote_age_sec: '45' },
      { token: risk },
    );
    expect(saved.data).toMatchObject({ spread: '2.0000000000', deviation_pct: '3.5000', max_quote_age_sec: 45 });
    expect(t.ctx.services.market.symbol(eth)!.spread.toString()).toBe('2');
    for (const bad of [{ deviation_pct: '0' }, { deviation_pct: '101' }, { max_quote_age_sec: '0' }, { max_quote_age_sec: 'x' }]) {
      expect(
        (await call(t, 'POST', '/api/admin/symbols/save', { id: eth, ...bad }, { token: risk, lang: 'en' })).code,
        JSON.stringify(bad),
      ).toBe(1001);
    }
    const audits = await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'symbol.save'));
    expect(audits.at(-1)).toMatchObject({
      targetId: String(eth),
      before: { deviation_pct: '10.0000', max_quote_age_sec: 3600 },
      after: { deviation_pct: '3.5000', max_quote_age_sec: 45 },
    });

    await tick(t, 'ETHUSDT', '3000', '3002');
    const health = await call(t, 'GET', '/api/admin/feed-health', {}, { token: risk });
    expect(health.data.find((h: { code: string }) => h.code === 'ETHUSDT')).toMatchObject({
      symbolId: eth,
      state: 'live',
      lastTickAgeMs: expect.any(Number),
      suspectTicks: expect.any(Number),
    });
    expect((await call(t, 'GET', '/api/admin/feed-health', {}, { token: content })).code).not.toBe(1);
  });

  it('saves categories with a unique key', async () => {
    const made = await call(t, 'POST', '/api/admin/categories/save', { key: 'metals', sort: 9 }, { token: risk });
    expect(made.data).toMatchObject({ key: 'metals', sort: 9 });
    expect((await call(t, 'POST', '/api/admin/categories/save', { key: 'metals' }, { token: risk })).code).toBe(0);
    expect((await call(t, 'GET', '/api/admin/categories', {}, { token: risk })).data.map((c: { key: string }) => c.key)).toContain(
      'metals',
    );
  });

  it("closes a user's position once (closed_type 5), shows it in the dashboard exposure before", async () => {
    const trader = await newUser(t, { balance: '100000' });
    await tick(t, BTC, '94990', '95010');
    const opened = await submit(
      t,
      { token: trader.token, userId: trader.id, demoId: '' },
      { type: 1, cont: '0.5', forex_id: btc, status: 1, multiple: 10 },
    );
    expect(opened.code).toBe(1);
    const dash = await call(t, 'GET', '/api/admin/dashboard', {}, { token: finance });
    expect(dash.data).toMatchObject({ open_positions: 1, users: { real: expect.any(Number) } });
    expect(dash.data.exposure[0]).toMatchObject({
      symbol_id: btc,
      buy_lots: '0.500000',
      sell_lots: '0.000000',
      net_lots: '0.500000',
      notional: '47500.000000',
    });

    const positions = await call(t, 'GET', '/api/admin/positions', { user_id: trader.id }, { token: risk });
    expect(positions.data.data.map((o: { id: number }) => o.id)).toEqual([opened.data.Id]);
    const closes = await Promise.all(
      [1, 2, 3].map(() => call(t, 'POST', '/api/admin/positions/close', { id: opened.data.Id }, { token: risk })),
    );
    expect(closes.filter((c) => c.code === 1)).toHaveLength(1);
    expect(closes.find((c) => c.code === 1)!.data).toMatchObject({ status: 3, closed_type: 5 });
    const orders = await call(t, 'GET', '/api/admin/users/orders', { user_id: trader.id }, { token: risk });
    expect(orders.data.data[0]).toMatchObject({ id: opened.data.Id, status: 3, closed_type: 5 });
    const audit = await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'order.close'));
    expect(audit).toHaveLength(1);
    expect((await call(t, 'GET', '/api/admin/dashboard', {}, { token: finance })).data.open_positions).toBe(0);
    await expectAuditClean(t);
  });

  it('creates, updates and deletes deposit networks, bank wires and withdraw currencies', async () => {
    const net = await call(
      t,
      'POST',
      '/api/admin/deposit_networks/save',
      { currency_code: 'USDC', protocol_code: 'ERC20', address: '0xabc', usd_per_unit: '1' },
      { token: finance },
    );
    expect(net.data).toMatchObject({ currency_code: 'USDC', protocol_code: 'ERC20', enabled: true });
    const off = await call(t, 'POST', '/api/admin/deposit_networks/save', { ...net.data, enabled: 0 }, { token: finance });
    expect(off.data).toMatchObject({ id: net.data.id, enabled: false });
    const symbols = await call(t, 'GET', '/api/quickCharge/symbols', {});
    expect(JSON.stringify(symbols.data)).not.toContain('USDC');
    expect((await call(t, 'POST', '/api/admin/deposit_networks/delete', { id: net.data.id }, { token: finance })).code).toBe(1);
    expect(
      (await call(t, 'GET', '/api/admin/deposit_networks', {}, { token: finance })).data.some((n: { id: number }) => n.id === net.data.id),
    ).toBe(false);

    const wire = await call(
      t,
      'POST',
      '/api/admin/bank_wires/save',
      { bank_name: 'Bank', payee_name: 'Broker Ltd', payee_account: '123', currency: 'EUR', usd_per_unit: '1.08' },
      { token: finance },
    );
    expect(wire.data).toMatchObject({ bank_name: 'Bank', currency: 'EUR', usd_per_unit: '1.0800000000' });

    const cur = {
      code: 'USDT',
      protocol: 'TRC20',
      type: 1,
      draw_rate: '1',
      fee_type: 1,
      units_per_usd: '1',
      decimals: 6,
      min_amount: '10',
      max_amount: '5',
      address_pattern: '^T',
    };
    expect((await call(t, 'POST', '/api/admin/withdraw_currencies/save', cur, { token: finance, lang: 'en' })).msg).toBe(
      'The minimum amount cannot be more than the maximum amount',
    );
    expect(
      (await call(t, 'POST', '/api/admin/withdraw_currencies/save', { ...cur, max_amount: '50', address_pattern: '(' }, { token: finance }))
        .code,
    ).toBe(1001);
    const saved = await call(t, 'POST', '/api/admin/withdraw_currencies/save', { ...cur, max_amount: '50' }, { token: finance });
    expect(saved.data).toMatchObject({
      code: 'USDT',
      fee_type: 1,
      units_per_usd: '1.0000000000',
      decimals: 6,
      min_amount: '10.000000',
      max_amount: '50.000000',
      address_pattern: '^T',
    });
    const audit = await call(
      t,
      'GET',
      '/api/admin/audit/list',
      { target_type: 'withdraw_currencies' },
      { token: await staffSession(t, ['admin']) },
    );
    expect(audit.data.total).toBe(1);
  });
});
