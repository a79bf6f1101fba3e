import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffSession } from '../../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { settings, staffAuditLog } from '../../platform/db/schema.ts';
import { demoTrader, expectAuditClean, submit, symbolId, tick, tradingApp } from '../../../test/trading/test-kit.ts';

const EURUSD = 'EURUSD';
type Row = {
  id: number;
  code: string;
  leverage: number;
  fee_rate_before: string;
  fee_rate: string;
  fee_before: string;
  fee_after: string;
  in_range: boolean;
};

/**
 * Fee governance: the fee type and rates belong to the risk role; a change is checked against the
 * range of its type (USD per lot up to 100, a fraction of the margin up to 0.05), previewed as what
 * a 1-lot trade pays before and after, and audited.
 */
describe.each(dbTargets)('trade fee governance on %s', (target) => {
  let t: TestApp;
  let risk: string;
  let content: string;
  let eur: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    risk = await staffSession(t, ['risk']);
    content = await staffSession(t, ['content']);
    eur = symbolId(t, EURUSD);
    await tick(t, EURUSD, '1.08500', '1.08512');
  });
  afterAll(async () => t?.close());

  const feeType = async () => (await t.ctx.db.select().from(settings).where(eq(settings.key, 'trade_fee_type')))[0]!.value;
  const rowOf = (data: { rows: Row[] }, code: string) => data.rows.find((r) => r.code === code)!;
  const oneLotFee = async () => {
    const trader = await demoTrader(t);
    const opened = await submit(t, trader, { type: 1, cont: '1', forex_id: eur, multiple: 100 });
    expect(opened.code).toBe(1);
    return { fee: opened.data.TradeFee, margin: opened.data.CautionMoney };
  };

  it('refuses the fee type to content staff, on the fee calls and on the content settings', async () => {
    const cases: { who: string; token: () => string; url: string; params: Record<string, unknown>; code: number }[] = [
      { who: 'content', token: () => content, url: '/api/admin/fees/save', params: { trade_fee_type: 2 }, code: 1003 },
      { who: 'content', token: () => content, url: '/api/admin/fees/preview', params: { trade_fee_type: 2 }, code: 1003 },
      { who: 'content', token: () => content, url: '/api/admin/settings/save', params: { trade_fee_type: '2' }, code: 1001 },
      { who: 'risk', token: () => risk, url: '/api/admin/settings/save', params: { trade_fee_type: '2' }, code: 1001 },
    ];
    for (const c of cases)
      expect({ ...c, code: (await call(t, 'POST', c.url, c.params, { token: c.token() })).code }).toMatchObject({ code: c.code });
    expect(await feeType()).toBe('1');
    expect((await oneLotFee()).fee).toBe('5.000000');
  });

  it('previews a switch to a fraction of margin with the per-lot rates left as they are, and refuses to save it', async () => {
    const preview = await call(t, 'POST', '/api/admin/fees/preview', { trade_fee_type: 2 }, { token: risk });
    expect(preview.code).toBe(1);
    expect(preview.data).toMatchObject({ trade_fee_type_before: 1, trade_fee_type: 2, max_rate: '0.05' });
    // 1 lot at the lowest leverage (10) and mid 1.08506: margin 10,850.60 USD; 5 x margin = 54,253.
    expect(rowOf(preview.data, EURUSD)).toEqual({
      id: eur,
      code: EURUSD,
      leverage: 10,
      fee_rate_before: '5',
      fee_rate: '5',
      fee_before: '5',
      fee_after: '54253',
      in_range: false,
    });
    expect(await feeType()).toBe('1');

    const refused = await call(t, 'POST', '/api/admin/fees/save', { trade_fee_type: 2 }, { token: risk, lang: 'en' });
    expect(refused).toMatchObject({ code: 1001, msg: 'A fee rate is outside its range: at most 0.05 for this fee type' });
    expect(await feeType()).toBe('1');
    expect((await oneLotFee()).fee).toBe('5.000000');
  });

  it('validates each rate against the range of its type', async () => {
    const table: { trade_fee_type: number; fee_rate: string; in_range: boolean }[] = [
      { trade_fee_type: 1, fee_rate: '0', in_range: true },
      { trade_fee_type: 1, fee_rate: '100', in_range: true },
      { trade_fee_type: 1, fee_rate: '100.01', in_range: false },
      { trade_fee_type: 2, fee_rate: '0.0005', in_range: true },
      { trade_fee_type: 2, fee_rate: '0.05', in_range: true },
      { trade_fee_type: 2, fee_rate: '0.5', in_range: false },
    ];
    for (const c of table) {
      const res = await call(
        t,
        'POST',
        '/api/admin/fees/preview',
        { trade_fee_type: c.trade_fee_type, rates: [{ id: eur, fee_rate: c.fee_rate }] },
        { token: risk, json: true },
      );
      expect({ ...c, in_range: rowOf(res.data, EURUSD).in_range }).toEqual(c);
    }
    const symbolSave = await call(t, 'POST', '/api/admin/symbols/save', { id: eur, fee_rate: '250' }, { token: risk, lang: 'en' });
    expect(symbolSave).toMatchObject({ code: 1001, msg: 'A fee rate is outside its range: at most 100 for this fee type' });
  });

  it('saves a switch with rates in range for every symbol: audited, and the next 1-lot trade pays the previewed fee', async () => {
    const current = await call(t, 'GET', '/api/admin/fees', {}, { token: risk });
    const rates = current.data.rows.map((r: Row) => ({ id: r.id, fee_rate: '0.001' }));
    const preview = await call(t, 'POST', '/api/admin/fees/preview', { trade_fee_type: 2, rates }, { token: risk, json: true });
    expect(preview.data.rows.every((r: Row) => r.in_range)).toBe(true);
    expect(rowOf(preview.data, EURUSD)).toMatchObject({ fee_before: '5', fee_rate: '0.001', fee_after: '10.8506' });

    const saved = await call(t, 'POST', '/api/admin/fees/save', { trade_fee_type: 2, rates }, { token: risk, json: true });
    expect(saved.code).toBe(1);
    expect(saved.data).toMatchObject({ trade_fee_type_before: 2, trade_fee_type: 2 });
    expect(await feeType()).toBe('2');
    expect((await call(t, 'GET', '/api/basicSet/getBasicInfo', {})).data.trade_fee_type).toBe(2);
    // At leverage 100 the margin of 1 lot at the ask 1.08512 is 1,085.12; 0.001 of it is the fee.
    expect(await oneLotFee()).toEqual({ fee: '1.085120', margin: '1085.120000' });

    const [audit] = await t.ctx.db.select().from(staffAuditLog).where(eq(staffAuditLog.action, 'fees.save'));
    expect(audit).toMatchObject({
      before: { trade_fee_type: 1, symbols: { EURUSD: { fee_rate: '5', one_lot_fee: '5' } } },
      after: { trade_fee_type: 2, symbols: { EURUSD: { fee_rate: '0.001', one_lot_fee: '10.8506' } } },
    });
    expect(
      (await call(t, 'POST', '/api/admin/fees/save', { trade_fee_type: 1, rates: [{ id: eur, fee_rate: '5' }] }, { token: content })).code,
    ).toBe(1003);
    await expectAuditClean(t);
  });
});
