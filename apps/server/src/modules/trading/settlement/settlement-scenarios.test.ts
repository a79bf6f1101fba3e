/**
 * One settlement and an engine that follows it, as scenario tables: every close settles the position
 * as it is inside its transaction (a take-profit or stop-loss queued at a tick and run after a partial
 * close settles what is left, never the size the tick saw); the engine's book takes the new terms of
 * a partial close, so the stop-out sees the position as it is; a withdrawal is paid only while the
 * account still stands behind it. Demo accounts start with 100,000 USD; BTC fees 3 per lot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { and, eq } from 'drizzle-orm';
import { ledgerTransactions, withdrawCurrencies } from '../../../platform/db/schema.ts';
import { staffToken, newUser } from '../../funding/test-helpers.ts';
import { runScenario, type Scenario } from '../../../../test/trading/scenario-kit.ts';
import { cashOf, expectAuditClean, submit, symbolId, tick, tradingApp } from '../../../../test/trading/test-kit.ts';

const USER = 1;
const STOP_OUT = 2;
const TAKE_PROFIT = 3;
const STOP_LOSS = 4;

const scenarios: Scenario[] = [
  {
    // 10 long at 95,010 and 10 short at 94,990, 1:20: margins 47,505 and 47,495, fees 60, cash 4,940.
    name: 'a partial close of a hedge leaves the engine with the new size: the short is stopped out when BTC rises',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'long', code: 'BTCUSDT', type: 1, lots: '10', leverage: 20 },
      { open: 'short', code: 'BTCUSDT', type: 2, lots: '10', leverage: 20 },
      // 9.99 closed at 94,990: -199.8; the long keeps 0.01 lots and 47.505 margin. Cash 52,197.695, locked 47,542.505.
      { closePart: 'long', lots: '9.99', as: 'long part' },
      // Short -80,300, long +79.9: equity 19,520.1 on 47,542.505, 41.06%: below the 50% stop-out.
      { tick: ['BTCUSDT', '103000', '103020'] },
    ],
    expect: {
      closed: {
        'long part': { type: USER, price: '94990.00', profit: '-199.800000' },
        short: { type: STOP_OUT, price: '103020.00', profit: '-80300.000000' },
      },
      open: ['long'],
      // 52,197.695 + 47,495 - 80,300.
      balance: '19392.695',
      locked: '47.505',
      writeOffs: [],
    },
  },
  {
    // 1 lot at 95,010 with a take-profit at 96,000 (margin 4,750.5, fee 3).
    name: 'a take-profit crossed while a partial close commits pays the lots left, not the lots the tick saw',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'btc', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20, tp: '96000' },
      { engine: 'hold' },
      // The take-profit's job is queued at this tick; the trader's partial close commits first.
      { tick: ['BTCUSDT', '96000', '96020'] },
      { closePart: 'btc', lots: '0.9', as: 'btc part' },
      { engine: 'release' },
    ],
    expect: {
      closed: {
        'btc part': { type: USER, price: '96000.00', profit: '891.000000' },
        btc: { type: TAKE_PROFIT, price: '96000.00', profit: '99.000000' },
      },
      open: [],
      // 100,000 - 3 + 891 + 99.
      balance: '100987',
      locked: '0',
      writeOffs: [],
    },
  },
  {
    name: 'a stop-loss crossed while a partial close commits pays the lots left, not the lots the tick saw',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'btc', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20, sl: '94000' },
      { engine: 'hold' },
      { tick: ['BTCUSDT', '94000', '94020'] },
      { closePart: 'btc', lots: '0.9', as: 'btc part' },
      { engine: 'release' },
    ],
    expect: {
      closed: {
        'btc part': { type: USER, price: '94000.00', profit: '-909.000000' },
        btc: { type: STOP_LOSS, price: '94000.00', profit: '-101.000000' },
      },
      open: [],
      // 100,000 - 3 - 909 - 101.
      balance: '98987',
      locked: '0',
      writeOffs: [],
    },
  },
  {
    name: 'a take-profit crossed while the trader closes the whole position closes nothing more',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'btc', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20, tp: '96000' },
      { engine: 'hold' },
      { tick: ['BTCUSDT', '96000', '96020'] },
      { close: 'btc' },
      { engine: 'release' },
    ],
    expect: {
      closed: { btc: { type: USER, price: '96000.00', profit: '990.000000' } },
      open: [],
      balance: '100987',
      locked: '0',
      writeOffs: [],
    },
  },
];

describe.each(dbTargets)('settlement scenarios on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target);
  });
  afterAll(async () => t?.close());

  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    await runScenario(t, s);
  });
});

interface WithdrawalCase {
  name: string;
  /** The BTC bid after the withdrawal request (ask 20 above); 1 lot bought at 95,010, 1:20. */
  bidAfter: string;
  expect: { msg: string; balance: string; writeOff: boolean };
}

const ACCOUNT_CHANGED =
  'The account has changed since this withdrawal was requested (a loss was written off or the balance no longer covers it): reject it or review the account';

const withdrawalCases: WithdrawalCase[] = [
  {
    // Cash 10,000 - 4,750.5 - 3 - 5,000 = 246.5; at 80,000 the stop-out loses 15,010: cash -10,013, written off.
    name: 'a withdrawal pending when the account is stopped out and written off is refused on approval',
    bidAfter: '80000',
    expect: { msg: ACCOUNT_CHANGED, balance: '0', writeOff: true },
  },
  {
    // At 95,500 the position is in profit: nothing changed that the withdrawal depended on.
    name: 'a withdrawal whose account still covers it is paid on approval',
    bidAfter: '95500',
    expect: { msg: 'Success', balance: '246.5', writeOff: false },
  },
];

describe.each(dbTargets)('withdrawal approval re-checks the account on %s', (target) => {
  let t: TestApp;
  let finance: string;
  beforeAll(async () => {
    t = await tradingApp(target);
    finance = await staffToken(t, ['finance']);
  });
  afterAll(async () => t?.close());

  it.each(withdrawalCases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const u = await newUser(t, { balance: '10000' });
    const trader = { token: u.token, userId: u.id, demoId: '' };
    const currency = (await t.ctx.db.select().from(withdrawCurrencies)).find((x) => x.code === 'USDT' && x.protocol === 'TRC20')!.id;
    const bound = await call(
      t,
      'POST',
      '/api/wallet/bind_draw_method',
      { type: 1, draw_id: currency, dc_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' },
      { token: u.token },
    );
    expect(bound.code).toBe(1);
    await tick(t, 'BTCUSDT', '94990', '95010');
    expect((await submit(t, trader, { type: 1, cont: '1', forex_id: symbolId(t, 'BTCUSDT'), multiple: 20 })).code).toBe(1);
    const drawn = await call(
      t,
      'POST',
      '/api/account/draw',
      { draw_currency_id: currency, number: '5000', draw_method_id: bound.data.id },
      { token: u.token, lang: 'en' },
    );
    expect(drawn.code).toBe(1);
    await tick(t, 'BTCUSDT', c.bidAfter, String(Number(c.bidAfter) + 20));
    const approved = await call(
      t,
      'POST',
      '/api/admin/withdrawals/approve',
      { id: drawn.data.id, tx_ref: `tx-${u.id}` },
      { token: finance, lang: 'en' },
    );
    const writeOffs = await t.ctx.db
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.kind, 'writeoff'), eq(ledgerTransactions.refId, String(u.id))));
    expect({
      msg: approved.msg,
      balance: (await cashOf(t, u.id)).balance,
      writeOff: writeOffs.length > 0,
    }).toEqual(c.expect);
    await expectAuditClean(t);
  });
});
