/**
 * One admission for every order that opens or enlarges exposure (market submit, pending fill,
 * reverse), as scenario tables: a symbol whose price jump the filter still holds, whose conversion
 * pair or source stamps are not live, that staff halted or limited, per-account caps, and the
 * margin rule under and outside a margin call. Demo accounts start with 100,000 USD; fees per lot:
 * FX 5, BTC 3. BTC leverages 2, 5, 10, 20; lots 0.01 to 10.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { runScenario, type Scenario } from '../../../../test/trading/scenario-kit.ts';
import { tradingApp } from '../../../../test/trading/test-kit.ts';

const USER = 1;
const NOT_LIVE = 'Prices for this product are not live right now; trading resumes with the next live price';
const MARGIN_CALL_REFUSAL = 'Your account is under a margin call: new orders are refused until the risk rate recovers';
const HALTED = 'This product cannot be traded at the moment';

/** While the deviation filter holds a jump, the last accepted price may be wrong: nothing trades on it. */
const suspectJump: Scenario[] = [
  {
    name: 'a jump held as suspect pauses orders until the filter confirms it',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { feed: ['BTCUSDT', '80000', '80020'], held: true },
      // Selling 10 lots at 94,990 to buy back at the confirmed 80,020 would be latency arbitrage.
      { open: 'short', code: 'BTCUSDT', type: 2, lots: '10', leverage: 20, refused: NOT_LIVE },
      { feed: ['BTCUSDT', '80000', '80020'], held: true },
      { feed: ['BTCUSDT', '80010', '80030'] },
      // At the confirmed price: margin 80,030 / 20 = 4,001.5, fee 3.
      { open: 'long', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20 },
    ],
    expect: { closed: {}, open: ['long'], balance: '95995.5', locked: '4001.5', writeOffs: [] },
  },
  {
    name: 'a close waits for the filter too, then closes at the confirmed price',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'long', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20 },
      { feed: ['BTCUSDT', '80000', '80020'], held: true },
      { close: 'long', refused: NOT_LIVE },
      { feed: ['BTCUSDT', '80000', '80020'], held: true },
      { feed: ['BTCUSDT', '80000', '80020'] },
      { close: 'long' },
    ],
    expect: {
      closed: { long: { type: USER, price: '80000.00', profit: '-15010.000000' } },
      open: [],
      balance: '84987',
      locked: '0',
      writeOffs: [],
    },
  },
];

/** Under a margin call only a true hedge passes: no margin added, exposure towards flat and never past it. */
const marginRule: Scenario[] = [
  {
    // 1 BTC long at 1:2 (margin 47,505); at 42,500 the loss is 52,510: equity 47,487, 99.96%.
    name: 'under a margin call an opposite order larger than the long is refused; the exact hedge passes',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'long', code: 'BTCUSDT', type: 1, lots: '1', leverage: 2 },
      { tick: ['BTCUSDT', '42500', '42520'] },
      { expectFigures: { risk_rate: '99.96', margin_call: 1 } },
      // 10 lots at 1:20 (margin 21,250) raise no margin (the long side is larger) but leave 9 lots net short.
      { open: 'over', code: 'BTCUSDT', type: 2, lots: '10', leverage: 20, refused: MARGIN_CALL_REFUSAL },
      { open: 'past', code: 'BTCUSDT', type: 2, lots: '1.01', leverage: 20, refused: MARGIN_CALL_REFUSAL },
      // 1 lot at 1:20: margin 2,125 and fee 3 from the cash (52,492).
      { open: 'hedge', code: 'BTCUSDT', type: 2, lots: '1', leverage: 20 },
      { open: 'again', code: 'BTCUSDT', type: 2, lots: '0.01', leverage: 20, refused: MARGIN_CALL_REFUSAL },
    ],
    expect: { closed: {}, open: ['hedge', 'long'], balance: '50364', locked: '49630', writeOffs: [] },
  },
  {
    // At 50,000 the 1:2 long has lost 45,010: equity 54,987 (115.75%), free margin 52,492 - 45,010 = 7,482.
    name: 'outside a margin call an opposite order past flat needs free margin, not just cash',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'long', code: 'BTCUSDT', type: 1, lots: '1', leverage: 2 },
      { tick: ['BTCUSDT', '50000', '50020'] },
      { expectFigures: { risk_rate: '115.75', margin_call: 0 } },
      // 4 lots at 1:5: margin 40,000 + fee 12, less than the long's margin and than the cash.
      {
        open: 'over',
        code: 'BTCUSDT',
        type: 2,
        lots: '4',
        leverage: 5,
        refused: 'Insufficient available margin: this order needs 40,012.00 USD, 7,482.00 USD is available',
      },
      // The exact hedge is paid from the cash: 1 lot at 1:5, margin 10,000 + 3.
      { open: 'hedge', code: 'BTCUSDT', type: 2, lots: '1', leverage: 5 },
    ],
    expect: { closed: {}, open: ['hedge', 'long'], balance: '42489', locked: '57505', writeOffs: [] },
  },
];

/** Staff limits and halts apply to every way in, as they are when the order opens. */
const currentTerms: Scenario[] = [
  {
    name: 'after staff limit BTC to 1:5 and 1 lot, reversing 10 lots at 1:20 is refused and the position stays',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      // Margin 47,505, fee 30.
      { open: 'long', code: 'BTCUSDT', type: 1, lots: '10', leverage: 20 },
      { staff: 'BTCUSDT', changes: { leverages: '5', max_lots: '1' } },
      { reverse: 'long', as: 'short', refused: 'Please choose one of the available leverage multiples: 5' },
      { reverse: 'long', as: 'short', refused: 'Please choose one of the available leverage multiples: 5' },
      { open: 'more', code: 'BTCUSDT', type: 1, lots: '10', leverage: 5, refused: 'The maximum is 1 lots' },
    ],
    expect: { closed: {}, open: ['long'], balance: '52465', locked: '47505', writeOffs: [] },
  },
  {
    name: 'after staff limit BTC to 1:5 and 1 lot, a 10-lot 1:20 pending order placed before is cancelled at its fill',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { pending: 'buy', code: 'BTCUSDT', type: 1, lots: '10', leverage: 20, price: '90000' },
      { staff: 'BTCUSDT', changes: { leverages: '5', max_lots: '1' } },
      { tick: ['BTCUSDT', '89980', '90000'] },
    ],
    expect: {
      closed: {},
      open: [],
      pending: [],
      cancelled: { buy: 'limits_changed' },
      notices: ['pending_cancelled'],
      balance: '100000',
      locked: '0',
      writeOffs: [],
    },
  },
  {
    name: 'a pending order on a symbol staff halted is cancelled when its price comes, not filled',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      { pending: 'buy', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20, price: '90000' },
      { staff: 'BTCUSDT', changes: { tradable: 0 } },
      { open: 'now', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20, refused: HALTED },
      { tick: ['BTCUSDT', '89980', '90000'] },
    ],
    expect: {
      closed: {},
      open: [],
      pending: [],
      cancelled: { buy: 'symbol_not_tradable' },
      notices: ['pending_cancelled'],
      balance: '100000',
      locked: '0',
      writeOffs: [],
    },
  },
];

/** Profit in GBP converts at the GBPUSD mid: EURGBP trades only while that quote is live too. */
const conversionPair: Scenario[] = [
  {
    // EURGBP 1 lot at 1:100: margin 100,000 x 0.85 / 100 x 1.27 = 1,079.5, fee 5.
    name: 'EURGBP is paused while GBPUSD is stale: orders refused, its pending order waits, both go on once GBPUSD ticks',
    steps: [
      { tick: ['GBPUSD', '1.26992', '1.27008'] },
      { tick: ['EURGBP', '0.85420', '0.85440'] },
      { pending: 'limit', code: 'EURGBP', type: 1, lots: '1', leverage: 100, price: '0.85000' },
      { staff: 'GBPUSD', changes: { max_quote_age_sec: 1 } },
      { wait: 1_100 },
      { open: 'market', code: 'EURGBP', type: 1, lots: '1', leverage: 100, refused: NOT_LIVE },
      // Reaches the pending order's price while the conversion is stale: it waits.
      { tick: ['EURGBP', '0.84980', '0.85000'] },
      { tick: ['GBPUSD', '1.26992', '1.27008'] },
      { staff: 'GBPUSD', changes: { max_quote_age_sec: 3600 } },
      { open: 'market', code: 'EURGBP', type: 1, lots: '1', leverage: 100 },
      { tick: ['EURGBP', '0.84985', '0.85000'] },
    ],
    expect: {
      closed: {},
      open: ['market', 'limit'],
      pending: [],
      notices: ['pending_filled'],
      balance: '97831',
      locked: '2159',
      writeOffs: [],
    },
  },
];

/** A source that stamps its quotes: a lagging upstream that keeps sending goes stale. */
const sourceTime: Scenario[] = [
  {
    name: 'ticks stamped older than the maximum quote age keep BTC stale: no order, no fill, until a fresh one',
    steps: [
      { tick: ['BTCUSDT', '94990', '95010'] },
      // Buy limit at 94,000: margin 4,700, fee 3.
      { pending: 'limit', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20, price: '94000' },
      { staff: 'BTCUSDT', changes: { max_quote_age_sec: 1 } },
      { wait: 1_100 },
      { feed: ['BTCUSDT', '94490', '94510'], sourceAgeMs: 5_000 },
      { open: 'market', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20, refused: NOT_LIVE },
      { feed: ['BTCUSDT', '93980', '94000'], sourceAgeMs: 5_000 },
      { feed: ['BTCUSDT', '94490', '94510'], sourceAgeMs: 0 },
      { staff: 'BTCUSDT', changes: { max_quote_age_sec: 3600 } },
      // At 94,510: margin 4,725.5, fee 3.
      { open: 'market', code: 'BTCUSDT', type: 1, lots: '1', leverage: 20 },
    ],
    expect: { closed: {}, open: ['market'], pending: ['limit'], balance: '90568.5', locked: '9428.5', writeOffs: [] },
  },
];

/** Per-account caps (defaults no retail account meets; set low here). */
const caps: Scenario[] = [
  {
    // 0.01 BTC at 1:20: margin 47.505, fee 0.03 each.
    name: 'at most 2 open positions and 1 pending order: refused beyond, a pending order that would be a third position is cancelled',
    steps: [
      { setting: 'max_open_positions', value: '2' },
      { setting: 'max_pending_orders', value: '1' },
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'a', code: 'BTCUSDT', type: 1, lots: '0.01', leverage: 20 },
      { open: 'b', code: 'BTCUSDT', type: 1, lots: '0.01', leverage: 20 },
      {
        open: 'c',
        code: 'BTCUSDT',
        type: 1,
        lots: '0.01',
        leverage: 20,
        refused: 'You can have at most 2 open positions: close one to open another',
      },
      { pending: 'p', code: 'BTCUSDT', type: 1, lots: '0.01', leverage: 20, price: '90000' },
      {
        pending: 'q',
        code: 'BTCUSDT',
        type: 1,
        lots: '0.01',
        leverage: 20,
        price: '90000',
        refused: 'You can have at most 1 pending orders waiting: cancel one to place another',
      },
      // A reverse closes one position and opens one: the count stays.
      { reverse: 'b', as: 'b2' },
      { tick: ['BTCUSDT', '89980', '90000'] },
    ],
    expect: {
      closed: { b: { type: USER, price: '94990.00', profit: '-0.200000' } },
      open: ['b2', 'a'],
      pending: [],
      cancelled: { p: 'position_limit' },
      notices: ['pending_cancelled'],
      // 100,000 - 2 x 0.03 fees - 0.2 loss - 0.03 fee of b2, 47.505 + 47.495 locked.
      balance: '99904.71',
      locked: '95',
      writeOffs: [],
    },
  },
];

const tables: [string, Scenario[]][] = [
  ['a suspect jump pauses trading', suspectJump],
  ['the margin rule', marginRule],
  ['current limits and halts', currentTerms],
  ['a stale conversion pair', conversionPair],
  ['source timestamps', sourceTime],
  ['per-account caps', caps],
];

describe.each(dbTargets)('admission scenarios on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target);
  });
  afterAll(async () => t?.close());

  describe.each(tables)('%s', (_table, scenarios) => {
    it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
      await runScenario(t, s);
    });
  });
});
