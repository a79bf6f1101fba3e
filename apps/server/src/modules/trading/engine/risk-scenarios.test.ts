/**
 * Real-time margin and the balance model (MT5's), as scenario tables: stop-out within the tick of
 * a conversion symbol, at once after a staff adjustment (and a margin call at once after a
 * withdrawal request); a stop-loss closes its own position only;
 * a client's close is never refused for money; hedges pass a margin call, exposure does not.
 * Demo accounts start with 100,000 USD; fees per lot: FX 5, BTC 3, ETH 1, JPN225 2.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { riskEvents, withdrawCurrencies } from '../../../platform/db/schema.ts';
import { newUser } from '../../funding/test-helpers.ts';
import { runScenario, type Scenario } from '../../../../test/trading/scenario-kit.ts';
import { api, submit, symbolId, tick, tradingApp } from '../../../../test/trading/test-kit.ts';

const STOP_OUT = 2;
const STOP_LOSS = 4;
const USER = 1;
const MARGIN_CALL_REFUSAL = 'Your account is under a margin call: new orders are refused until the risk rate recovers';

const scenarios: Scenario[] = [
  {
    // EURGBP profit is in GBP, converted at the GBPUSD mid: margin 50 x 100,000 x 0.85440 / 500 x 1.27 = 10,850.88.
    name: 'a GBPUSD move stops out a EURGBP position within its tick',
    steps: [
      { tick: ['GBPUSD', '1.26992', '1.27008'] },
      { tick: ['EURGBP', '0.85420', '0.85440'] },
      { open: 'eurgbp', code: 'EURGBP', type: 1, lots: '50', leverage: 500 },
      // -72,000 GBP x 1.27 = -91,440: equity 8,310, 76.58% (a margin call, not a stop-out).
      { tick: ['EURGBP', '0.84000', '0.84015'] },
      { expectFigures: { risk_rate: '76.58', margin_call: 1 } },
      // Only GBPUSD moves: -72,000 x 1.32 = -95,040, equity 4,710, 43.41%.
      { tick: ['GBPUSD', '1.31992', '1.32008'] },
    ],
    expect: {
      closed: { eurgbp: { type: STOP_OUT, price: '0.84000', profit: '-95040.000000' } },
      open: [],
      // 100,000 - 250 fee - 95,040.
      balance: '4710',
      locked: '0',
      writeOffs: [],
    },
  },
  {
    // JPN225 profit is in JPY, converted at 1 / USDJPY mid; margin 100 x 10 x 39,004 / 100 / 150 = 2,600.266667.
    name: 'a USDJPY move stops out a JPN225 position within its tick',
    steps: [
      { tick: ['USDJPY', '149.993', '150.007'] },
      { tick: ['JPN225', '38996.0', '39004.0'] },
      { adjust: '-95000' },
      { open: 'index', code: 'JPN225', type: 1, lots: '100', leverage: 100 },
      // -504,000 JPY / 150 = -3,360: equity 1,440, 55.38%.
      { tick: ['JPN225', '38500.0', '38508.0'] },
      { expectFigures: { risk_rate: '55.38', margin_call: 1 } },
      // The yen strengthens: -504,000 / 140 = -3,600, equity 1,200, 46.15%.
      { tick: ['USDJPY', '139.993', '140.007'] },
    ],
    expect: {
      closed: { index: { type: STOP_OUT, price: '38500.0', profit: '-3600.000000' } },
      open: [],
      // 5,000 - 200 fee - 3,600.
      balance: '1200',
      locked: '0',
      writeOffs: [],
    },
  },
  {
    // A stop-out that could close only part of the account (EURGBP is paused while a GBPUSD jump is held)
    // finishes at the pair's next tick, not at EURGBP's own. Margins: EURGBP 10 lots at 1:500, 2,170.1760;
    // USDJPY 1 lot at 1:500, 200; cash 10,000 - 55 fees.
    name: "a stop-out left at the level by a symbol paused through its conversion pair finishes at that pair's next tick",
    steps: [
      { tick: ['GBPUSD', '1.26992', '1.27008'] },
      { tick: ['EURGBP', '0.85420', '0.85440'] },
      { tick: ['USDJPY', '149.993', '150.007'] },
      { adjust: '-90000' },
      { open: 'eurgbp', code: 'EURGBP', type: 1, lots: '10', leverage: 500 },
      { open: 'usdjpy', code: 'USDJPY', type: 1, lots: '1', leverage: 500 },
      // -4,400 GBP x 1.27 = -5,588: equity 9,945 - 5,588 - 20 (USDJPY's spread) = 4,337.
      { tick: ['EURGBP', '0.85000', '0.85020'] },
      { expectFigures: { margin_call: 0 } },
      // GBPUSD jumps: held as suspect, EURGBP pauses with it.
      { feed: ['GBPUSD', '1.39992', '1.40008'], held: true },
      // The yen crash stops the account out: only USDJPY can be closed (-1,001,400 JPY / 140 = -7,152.857143),
      // and the equity stays below the level.
      { tick: ['USDJPY', '139.993', '140.007'] },
      { expectFigures: { margin_call: 1 } },
      // GBPUSD comes back where it was: the jump is forgotten, EURGBP trades again and is closed;
      // 9,945 - 7,152.857143 - 5,588 = -2,795.857143 is written off.
      { tick: ['GBPUSD', '1.26992', '1.27008'] },
    ],
    expect: {
      closed: {
        usdjpy: { type: STOP_OUT, price: '139.993', profit: '-7152.857143' },
        eurgbp: { type: STOP_OUT, price: '0.85000', profit: '-5588.000000' },
      },
      open: [],
      balance: '0',
      locked: '0',
      writeOffs: ['2795.857143'],
    },
  },
  {
    name: 'a staff adjustment that takes the risk rate below the stop-out level acts at once',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'btc', code: 'BTCUSDT', type: 1, lots: '1', leverage: 2 },
      // Equity 100,000 - 3 - 35,010 = 64,987 on 47,505 margin: 136.80%.
      { tick: ['BTCUSDT', '60000', '60020'] },
      { expectFigures: { risk_rate: '136.80', margin_call: 0 } },
      // Cash 52,492 - 52,000: equity 12,987, 27.34%.
      { adjust: '-52000' },
    ],
    expect: {
      closed: { btc: { type: STOP_OUT, price: '60000.00', profit: '-35010.000000' } },
      open: [],
      balance: '12987',
      locked: '0',
      writeOffs: [],
    },
  },
  {
    // Finding 6, first case: cash below zero after a stop-loss gap is no reason to close a winner.
    name: 'a stop-loss gap closes that position only, never a winning one, and writes nothing off',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { tick: ['ETHUSDT', '3399', '3401'] },
      // Margins 4,750.5 and 42,487.5; cash 100,000 - 4,750.5 - 3 - 42,487.5 - 25 = 52,734.
      { open: 'btc', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20, sl: '90000' },
      { open: 'eth', code: 'ETHUSDT', type: 2, lots: '25', leverage: 2 },
      { tick: ['ETHUSDT', '2000', '2001.5'] },
      // The gap fills the stop-loss at 30,000: -65,010, cash 52,734 + 4,750.5 - 65,010 = -7,525.5.
      { tick: ['BTCUSDT', '30000', '30020'] },
      // Equity -7,525.5 + 42,487.5 + 34,937.5 = 69,899.5 on 42,487.5: 164.52%.
      { expectFigures: { balance: '-7525.500000', risk_rate: '164.52', margin_call: 0 } },
    ],
    expect: {
      closed: { btc: { type: STOP_LOSS, price: '30000.00', profit: '-65010.000000' } },
      open: ['eth'],
      balance: '-7525.5',
      locked: '42487.5',
      writeOffs: [],
    },
  },
  {
    // Finding 6, second case: the client's own close of a losing position is never refused for money.
    name: "a client's close of a loss larger than the cash is done; the balance goes below zero while equity stays positive",
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { tick: ['ETHUSDT', '3399', '3401'] },
      { open: 'btc', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20 },
      { open: 'eth', code: 'ETHUSDT', type: 2, lots: '25', leverage: 2 },
      { tick: ['ETHUSDT', '2000', '2001.5'] },
      { tick: ['BTCUSDT', '30000', '30020'] },
      // Equity 52,734 + 47,238 - 65,010 + 34,937.5 = 69,899.5 on 47,238 margin: 147.97%.
      { expectFigures: { risk_rate: '147.97' } },
      { close: 'btc' },
      { expectFigures: { balance: '-7525.500000', risk_rate: '164.52' } },
      { close: 'eth' },
    ],
    expect: {
      closed: {
        btc: { type: USER, price: '30000.00', profit: '-65010.000000' },
        eth: { type: USER, price: '2001.50', profit: '34937.500000' },
      },
      open: [],
      balance: '69899.5',
      locked: '0',
      writeOffs: [],
    },
  },
  {
    // Finding 9: 2 BTC at 1:2 (margin 95,010), risk rate 99.96% at 92,500.
    name: 'a margin call lets a hedge through and refuses orders that raise exposure',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { tick: ['ETHUSDT', '3399', '3401'] },
      { open: 'long', code: 'BTCUSDT', type: 1, lots: '2', leverage: 2 },
      { tick: ['BTCUSDT', '92500', '92520'] },
      { expectFigures: { risk_rate: '99.96', margin_call: 1 } },
      { open: 'eth', code: 'ETHUSDT', type: 1, lots: '0.01', leverage: 20, refused: MARGIN_CALL_REFUSAL },
      { open: 'more', code: 'BTCUSDT', type: 1, lots: '0.01', leverage: 20, refused: MARGIN_CALL_REFUSAL },
      // A sell of 1 BTC at 1:20 (margin 4,625) hedges the long: the margin required stays 95,010.
      { open: 'hedge', code: 'BTCUSDT', type: 2, lots: '1', leverage: 20 },
      // A sell bigger than the long raises it (short 4,625 + 92,500 > 95,010): refused.
      { open: 'over', code: 'BTCUSDT', type: 2, lots: '2', leverage: 2, refused: MARGIN_CALL_REFUSAL },
      // Cash 4,984 - 4,628 = 356, locked 99,635, floating -5,020 - 20: equity 94,951 on 95,010.
      { expectFigures: { risk_rate: '99.94', margin_call: 1, equity: '94951.000000' } },
      { close: 'long' },
    ],
    expect: {
      closed: { long: { type: USER, price: '92500.00', profit: '-5020.000000' } },
      open: ['hedge'],
      // 356 + 95,010 - 5,020.
      balance: '90346',
      locked: '4625',
      writeOffs: [],
    },
  },
];

describe.each(dbTargets)('risk scenarios on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target);
  });
  afterAll(async () => t?.close());

  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    await runScenario(t, s);
  });
});

describe.each(dbTargets)('a withdrawal request re-evaluates the account at once on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target);
  });
  afterAll(async () => t?.close());

  it('tells the margin call when the request takes the risk rate to the margin call level', async () => {
    const u = await newUser(t, { balance: '10000' });
    const trader = { token: u.token, userId: u.id, demoId: '' };
    const bound = await call(
      t,
      'POST',
      '/api/wallet/bind_draw_method',
      { type: 1, draw_id: await usdtTrc20(t), dc_address: TRC20 },
      { token: u.token },
    );
    await tick(t, 'BTCUSDT', '94990', '95010');
    // 0.1 BTC at 1:2: margin 4,750.5, fee 0.3; at 94,000 the loss is 101: free margin 10,000 - 0.3 - 101 - 4,750.5 = 5,148.2.
    expect((await submit(t, trader, { type: 1, cont: '0.1', forex_id: symbolId(t, 'BTCUSDT'), multiple: 2 })).code).toBe(1);
    await tick(t, 'BTCUSDT', '94000', '94020');
    const drawn = await call(
      t,
      'POST',
      '/api/account/draw',
      { draw_currency_id: await usdtTrc20(t), number: '5148.2', draw_method_id: bound.data.id },
      { token: u.token, lang: 'en' },
    );
    expect(drawn.code).toBe(1);
    await t.ctx.services.trading.engine.idle();
    // Equity 4,750.5 on 4,750.5 margin: 100%, a margin call, told at once (no tick, no sweep).
    const events = await t.ctx.db.select().from(riskEvents).where(eq(riskEvents.userId, u.id));
    expect(events.map((e) => [e.kind, e.riskRate])).toEqual([['margin_call', '100.0000']]);
    expect((await api(t, trader, '/v1/api/main/account/forexDetail')).data).toMatchObject({ risk_rate: '100.00', margin_call: 1 });
  });
});

const TRC20 = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
async function usdtTrc20(t: TestApp): Promise<number> {
  const rows = await t.ctx.db.select().from(withdrawCurrencies);
  return rows.find((c) => c.code === 'USDT' && c.protocol === 'TRC20')!.id;
}
