import { eq } from 'drizzle-orm';
import { dec } from '@tp/contract/decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { ledgerAccounts, ledgerEntries, ledgerTransactions, withdrawCurrencies } from '../../platform/db/schema.ts';
import { cashOf, expectBooksBalanced, newUser, staffToken } from './test-helpers.ts';

const ADDRESS: Record<string, string> = {
  'USDT-TRC20': 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  'BTC-Bitcoin': 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
};
const BANK = {
  bank_name: 'Harbour Bank',
  bank_address: '1 Queen’s Road',
  bank_swift: 'HBHKHKHX',
  payee_name: 'Chan Tai Man',
  payee_account: '012-345678-901',
};

/**
 * The withdrawal books at staff approval: the amount leaves clearing, the fee goes to fee income
 * and payouts move by what is actually paid (in USD); the currency amount paid keeps the
 * currency's own decimals. Seeded currencies: USDT-TRC20 fixed fee 1, 6 decimals; BTC 0.5%,
 * 0.0000105 BTC per USD, 8 decimals; EUR 1%, 0.92 EUR per USD, 2 decimals.
 */
const SCENARIOS = [
  { currency: 'USDT-TRC20', amount: '100', fee: '1', realNumber: '99', clearing: '-100', fees: '1', payouts: '99' },
  {
    currency: 'USDT-TRC20',
    amount: '12.345678',
    fee: '1',
    realNumber: '11.345678',
    clearing: '-12.345678',
    fees: '1',
    payouts: '11.345678',
  },
  { currency: 'BTC-Bitcoin', amount: '200', fee: '1', realNumber: '0.0020895', clearing: '-200', fees: '1', payouts: '199' },
  {
    currency: 'BTC-Bitcoin',
    amount: '333.33',
    fee: '1.66665',
    realNumber: '0.00348247',
    clearing: '-333.33',
    fees: '1.66665',
    payouts: '331.66335',
  },
  { currency: 'EUR-SWIFT', amount: '150.5', fee: '1.505', realNumber: '137.08', clearing: '-150.5', fees: '1.505', payouts: '148.995' },
];

describe.each(dbTargets)('withdrawal books on %s', (target) => {
  let t: TestApp;
  let finance: string;
  const currency: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp(target);
    finance = await staffToken(t, ['finance']);
    for (const c of await t.ctx.db.select().from(withdrawCurrencies)) currency[`${c.code}-${c.protocol}`] = c.id;
  });
  afterAll(async () => t?.close());

  /** The approval's entries, summed per account kind. */
  async function approvalEntries(withdrawalId: number): Promise<Record<string, string>> {
    const rows = await t.ctx.db
      .select({ kind: ledgerAccounts.kind, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.txId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(eq(ledgerTransactions.idemKey, `withdraw-paid:${withdrawalId}`));
    const sums: Record<string, string> = {};
    for (const r of rows)
      sums[r.kind] = dec(sums[r.kind] ?? 0)
        .plus(r.amount)
        .toString();
    return sums;
  }

  async function bind(token: string, key: string): Promise<number> {
    const params =
      key === 'EUR-SWIFT' ? { type: 2, draw_id: currency[key], ...BANK } : { type: 1, draw_id: currency[key], dc_address: ADDRESS[key] };
    const res = await call(t, 'POST', '/api/wallet/bind_draw_method', params, { token });
    expect(res.code).toBe(1);
    return res.data.id;
  }

  it.each(SCENARIOS)('$currency $amount: fee $fee to fee income, $payouts to payouts, $realNumber paid', async (s) => {
    const u = await newUser(t, { balance: '1000' });
    const method = await bind(u.token, s.currency);
    const requested = await call(
      t,
      'POST',
      '/api/account/draw',
      { draw_currency_id: currency[s.currency], number: s.amount, draw_method_id: method },
      { token: u.token },
    );
    expect(requested).toMatchObject({ code: 1, data: { number: s.amount, fee: s.fee, real_number: s.realNumber } });
    const approved = await call(
      t,
      'POST',
      '/api/admin/withdrawals/approve',
      { id: requested.data.id, tx_ref: `ref-${requested.data.id}` },
      { token: finance },
    );
    expect(approved.code).toBe(1);
    expect(await approvalEntries(requested.data.id)).toEqual({ withdraw_clearing: s.clearing, fees: s.fees, payouts: s.payouts });
    expect(await cashOf(t, u.id)).toBe(dec(1000).minus(s.amount).toString());
    await expectBooksBalanced(t);
  });

  it('names each rate by its direction and refuses one entered the wrong way round', async () => {
    const table: { path: string; params: Record<string, unknown>; code: number }[] = [
      // BTC deposits are credited at 95,000 USD per BTC; a withdraw rate of 95,000 BTC per USD is inverted.
      {
        path: 'withdraw_currencies',
        params: {
          code: 'BTC',
          protocol: 'Lightning',
          type: 1,
          fee_type: 2,
          draw_rate: '0.5',
          units_per_usd: '95000',
          decimals: 8,
          min_amount: '50',
          max_amount: '1000',
        },
        code: 1001,
      },
      {
        path: 'withdraw_currencies',
        params: {
          code: 'BTC',
          protocol: 'Lightning',
          type: 1,
          fee_type: 2,
          draw_rate: '0.5',
          units_per_usd: '0.0000104',
          decimals: 8,
          min_amount: '50',
          max_amount: '1000',
        },
        code: 1,
      },
      // A BTC deposit network at 0.0000105 USD per BTC is the withdrawal's direction.
      {
        path: 'deposit_networks',
        params: { currency_code: 'BTC', protocol_code: 'Lightning', address: 'lnbc1', usd_per_unit: '0.0000105' },
        code: 1001,
      },
      {
        path: 'deposit_networks',
        params: { currency_code: 'BTC', protocol_code: 'Lightning', address: 'lnbc1', usd_per_unit: '96000' },
        code: 1,
      },
      {
        path: 'bank_wires',
        params: { bank_name: 'Euro Bank', payee_name: 'Broker', payee_account: 'DE1', currency: 'EUR', usd_per_unit: '1.08' },
        code: 1,
      },
    ];
    for (const c of table) {
      const res = await call(t, 'POST', `/api/admin/${c.path}/save`, c.params, { token: finance, lang: 'en' });
      expect({ ...c, code: res.code }).toEqual(c);
      if (c.code !== 1)
        expect(res.msg).toBe('This rate looks entered the wrong way round: withdrawal rates are units per USD, deposit rates USD per unit');
    }
    const listed = await call(t, 'GET', '/api/admin/withdraw_currencies', {}, { token: finance });
    expect(listed.data.find((c: { protocol: string }) => c.protocol === 'Bitcoin')).toMatchObject({
      units_per_usd: '0.0000105000',
      decimals: 8,
    });
    expect(listed.data[0]).not.toHaveProperty('usd_price');
    // Traders still read the spec's usd_price: the multiplier of received = (amount - fee) x usd_price.
    const u = await newUser(t);
    const traders = await call(t, 'GET', '/api/account/draw_symbol_list', { type: 1 }, { token: u.token });
    expect(traders.data.find((c: { code: string }) => c.code === 'BTC')).toMatchObject({ usd_price: '0.0000105', decimals: 8 });
  });
});
