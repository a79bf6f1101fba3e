/**
 * Negative balance protection as scenario tables: the house writes off only once no position is
 * open and the balance is below zero, never while margin is locked in a position whose market is
 * closed. Demo accounts start with 100,000 USD; fees per lot: FX 5, BTC 3.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { runScenario, type Scenario, type Step } from '../../../../test/trading/scenario-kit.ts';
import { tradingApp } from '../../../../test/trading/test-kit.ts';

const STOP_OUT = 2;
const USER = 1;

/**
 * Finding 5: BTC crashes on a weekend while EURUSD is held. BTC 1 at 1:2 (margin 47,505), EURUSD 10
 * lots at 1:100 (margin 10,850.6); cash 100,000 - 47,505 - 3 - 10,850.6 - 50 = 41,591.4. EURUSD is
 * up 14,940 when its market closes; BTC gaps to 5,000 (-90,010): risk rate 42.63%, stop-out of
 * BTC, cash 41,591.4 + 47,505 - 90,010 = -913.6 with EURUSD's margin still locked.
 */
const weekend: Step[] = [
  { tick: ['EURUSD', '1.08494', '1.08506'] },
  { tick: ['BTCUSDT', '94990', '95010'] },
  { open: 'btc', code: 'BTCUSDT', type: 1, lots: '1', leverage: 2 },
  { open: 'eurusd', code: 'EURUSD', type: 1, lots: '10', leverage: 100 },
  { tick: ['EURUSD', '1.10000', '1.10012'] },
  { market: 'closed', code: 'EURUSD' },
  { tick: ['BTCUSDT', '5000', '5020'] },
  // Equity -913.6 + 10,850.6 + 14,940 = 24,877 on 10,850.6: 229.27%, nothing written off.
  { expectFigures: { balance: '-913.600000', risk_rate: '229.27', equity: '24877.000000' } },
  { market: 'open', code: 'EURUSD' },
];
const btcStopOut = { type: STOP_OUT, price: '5000.00', profit: '-90010.000000' };

const scenarios: Scenario[] = [
  {
    name: 'no write-off while margin is locked in a closed market; the client keeps only what the account holds',
    steps: [...weekend, { tick: ['EURUSD', '1.10000', '1.10012'] }, { close: 'eurusd' }],
    expect: {
      closed: { btc: btcStopOut, eurusd: { type: USER, price: '1.10000', profit: '14940.000000' } },
      open: [],
      // -913.6 + 10,850.6 + 14,940: the loss was paid from the EURUSD profit, not by the house.
      balance: '24877',
      locked: '0',
      writeOffs: [],
    },
  },
  {
    name: 'a weekend gap at the reopening stops out the last position; then, and only then, the rest is written off',
    // EURUSD reopens at 1.05000: -35,060, equity -25,123: stop-out, cash -913.6 + 10,850.6 - 35,060.
    steps: [...weekend, { tick: ['EURUSD', '1.05000', '1.05012'] }],
    expect: {
      closed: { btc: btcStopOut, eurusd: { type: STOP_OUT, price: '1.05000', profit: '-35060.000000' } },
      open: [],
      balance: '0',
      locked: '0',
      writeOffs: ['25123.000000'],
    },
  },
  {
    // BTC 1 at 1:20 (margin 4,750.5), stop-loss 90,000; cash 95,246.5 - 95,000 = 246.5 after the adjustment.
    name: 'a stop-loss gap on the last position leaves the balance below zero: written off at that close',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'btc', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20, sl: '90000' },
      { adjust: '-95000' },
      // Filled at the gap price: -15,010, cash 246.5 + 4,750.5 - 15,010 = -10,013 with nothing open.
      { tick: ['BTCUSDT', '80000', '80020'] },
    ],
    expect: {
      closed: { btc: { type: 4, price: '80000.00', profit: '-15010.000000' } },
      open: [],
      balance: '0',
      locked: '0',
      writeOffs: ['10013.000000'],
    },
  },
];

describe.each(dbTargets)('negative balance protection on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target);
  });
  afterAll(async () => t?.close());

  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    await runScenario(t, s);
  });
});
