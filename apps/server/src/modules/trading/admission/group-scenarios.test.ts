/**
 * Account groups applied by the one admission and settlement, as scenario tables: traders in groups
 * with different leverage lists, largest lots, commissions, margin-call and stop-out levels and
 * stop-out policies trade the same ticks; leverage tiers; an ESMA retail group. Demo accounts start
 * with 100,000 USD; the house's fees per lot: FX 5, BTC 3; EURUSD leverages 10 to 500, contract
 * 100,000; BTC leverages 2, 5, 10, 20. The house's levels: margin call 100%, stop-out 50%.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { runScenario, type Scenario, type Step } from '../../../../test/trading/scenario-kit.ts';
import { symbolId, tradingApp } from '../../../../test/trading/test-kit.ts';

const STOP_OUT = 2;
const leverages = (allowed: string) => `Please choose one of the available leverage multiples: ${allowed}`;

/** Group terms with one EURUSD row (the symbol's id is known once the app runs). */
type Terms = (eur: number, btc: number) => Record<string, unknown>;

const tight: Terms = (eur) => ({
  margin_call_level: '120',
  stop_out_level: '80',
  symbols: [{ symbol_id: eur, leverages: [50, 100], max_lots: '2', commission_type: 'per_lot', commission_rate: '7' }],
});
const wide: Terms = (eur) => ({
  margin_call_level: '60',
  stop_out_level: '30',
  symbols: [{ symbol_id: eur, leverages: [10, 20, 100], max_lots: '5', commission_type: 'per_million', commission_rate: '30' }],
});

/** The same ticks for both groups; what differs is the group. */
const sameTicks = (group: string, terms: Record<string, unknown>): Step[] => [
  { group, terms },
  { tick: ['EURUSD', '1.08500', '1.08512'] },
  { adjust: '-98000' },
  // Margin at 1:100: 100,000 x 1.08512 / 100 = 1,085.12.
  { open: 'eur', code: 'EURUSD', type: 1, lots: '1', leverage: 100 },
  // -712: tight pays 7, equity 2,000 - 7 - 712 = 1,281 (118.05%, below its 120% call); wide pays 3.25536 (118.40%).
  { tick: ['EURUSD', '1.07800', '1.07812'] },
];

function perGroup(eur: number, btc: number): Scenario[] {
  return [
    {
      name: 'tight group: 1:10 and 3 lots refused, 1 lot at 1:100 pays 7 per lot',
      steps: [
        { group: 'tight', terms: tight(eur, btc) },
        { tick: ['EURUSD', '1.08500', '1.08512'] },
        { open: 'low', code: 'EURUSD', type: 1, lots: '1', leverage: 10, refused: leverages('50, 100') },
        { open: 'big', code: 'EURUSD', type: 1, lots: '3', leverage: 100, refused: 'The maximum is 2 lots' },
        { open: 'eur', code: 'EURUSD', type: 1, lots: '1', leverage: 100 },
      ],
      // 100,000 - 1,085.12 margin - 7 commission.
      expect: { closed: {}, open: ['eur'], balance: '98907.88', locked: '1085.12', writeOffs: [] },
    },
    {
      name: 'wide group: 1:50 refused, 3 lots at 1:20 pay 30 per million USD notional',
      steps: [
        { group: 'wide', terms: wide(eur, btc) },
        { tick: ['EURUSD', '1.08500', '1.08512'] },
        { open: 'mid', code: 'EURUSD', type: 1, lots: '1', leverage: 50, refused: leverages('10, 20, 100') },
        { open: 'eur', code: 'EURUSD', type: 1, lots: '3', leverage: 20 },
      ],
      // Margin 300,000 x 1.08512 / 20 = 16,276.8; commission 325,536 / 1,000,000 x 30 = 9.76608.
      expect: { closed: {}, open: ['eur'], balance: '83713.43392', locked: '16276.8', writeOffs: [] },
    },
    {
      name: 'tight group on the shared ticks: margin call at 118.05%, stopped out at 71.97% (its level 80%)',
      steps: [
        ...sameTicks('tight', tight(eur, btc)),
        { expectFigures: { risk_rate: '118.05', margin_call: 1 } },
        // -1,212: equity 781, 71.97%.
        { tick: ['EURUSD', '1.07300', '1.07312'] },
      ],
      expect: {
        closed: { eur: { type: STOP_OUT, price: '1.07300', profit: '-1212.000000' } },
        open: [],
        // 781 less the close side's commission (7 a side).
        balance: '774',
        locked: '0',
        writeOffs: [],
      },
    },
    {
      name: 'wide group on the shared ticks: no margin call at 118.40%, still open at 72.32% (its levels 60% and 30%)',
      steps: [
        ...sameTicks('wide', wide(eur, btc)),
        { expectFigures: { risk_rate: '118.40', margin_call: 0 } },
        { tick: ['EURUSD', '1.07300', '1.07312'] },
        // Equity 2,000 - 3.25536 - 1,212 = 784.74464 on 1,085.12.
        { expectFigures: { risk_rate: '72.32', margin_call: 0 } },
      ],
      expect: { closed: {}, open: ['eur'], balance: '911.62464', locked: '1085.12', writeOffs: [] },
    },
  ];
}

/** Two positions below the stop-out level: the group's policy picks which closes first. */
function policies(): Scenario[] {
  const steps = (policy: string): Step[] => [
    { group: policy, terms: { margin_call_level: '150', stop_out_level: '100', stop_out_policy: policy } },
    { tick: ['BTCUSDT', '94990', '95010'] },
    { tick: ['EURUSD', '1.08500', '1.08512'] },
    { adjust: '-95000' },
    // BTC: margin 0.05 x 95,010 / 2 = 2,375.25 (the larger margin, the smaller loss); fee 0.15.
    { open: 'btc', code: 'BTCUSDT', type: 1, lots: '0.05', leverage: 2 },
    // EURUSD: margin 1,085.12, fee 5.
    { open: 'eur', code: 'EURUSD', type: 1, lots: '1', leverage: 100 },
    // EURUSD -2,012, BTC -1: equity 2,981.85 on 3,460.37, 86.17%.
    { tick: ['EURUSD', '1.06500', '1.06512'] },
  ];
  return [
    {
      name: 'largest loss first: the EURUSD loss closes, the level is restored (125.54%), BTC stays',
      steps: steps('largest_loss'),
      expect: {
        closed: { eur: { type: STOP_OUT, price: '1.06500', profit: '-2012.000000' } },
        open: ['btc'],
        // 5,000 - 0.15 - 5 - 2,012 - 2,375.25 locked.
        balance: '607.6',
        locked: '2375.25',
        writeOffs: [],
      },
    },
    {
      name: 'largest margin first: the BTC position closes, the level is restored (274.79%), EURUSD stays',
      steps: steps('largest_margin'),
      expect: {
        closed: { btc: { type: STOP_OUT, price: '94990.00', profit: '-1.000000' } },
        open: ['eur'],
        balance: '3908.73',
        locked: '1085.12',
        writeOffs: [],
      },
    },
    {
      name: 'partial: 0.1 of the EURUSD lot closes, enough to bring the level back above 100% (100.65%); 0.9 lot stays open',
      steps: [
        { group: 'partial', terms: { margin_call_level: '150', stop_out_level: '100', stop_out_policy: 'partial' } },
        { tick: ['EURUSD', '1.08500', '1.08512'] },
        { adjust: '-98000' },
        // Margin 1,085.12, fee 5.
        { open: 'eur', code: 'EURUSD', type: 1, lots: '1', leverage: 100 },
        // -1,012: equity 983, 90.59%. Margin must fall to 983: (1,085.12 - 983) / 1,085.12 = 0.094 lot, 0.1 in steps.
        { tick: ['EURUSD', '1.07500', '1.07512'] },
        // The rest: 0.9 lot, margin 976.608; equity still 983.
        { expectFigures: { risk_rate: '100.65', margin_call: 1 } },
      ],
      expect: {
        closed: { 'part 1': { type: STOP_OUT, price: '1.07500', profit: '-101.200000' } },
        open: ['eur'],
        // 2,000 - 1,085.12 - 5 + 108.512 margin back - 101.2.
        balance: '917.192',
        locked: '976.608',
        writeOffs: [],
      },
    },
  ];
}

/** Leverage tiers: each slice of the account's cumulative lots in the symbol at min(chosen, its tier's leverage). */
function tiers(eur: number): Scenario[] {
  const terms = {
    symbols: [
      {
        symbol_id: eur,
        leverage_tiers: [
          { up_to_lots: '1', leverage: 500 },
          { up_to_lots: '3', leverage: 100 },
          { up_to_lots: null, leverage: 20 },
        ],
      },
    ],
  };
  return [
    {
      name: 'tiers: 2 lots at 1:200 take 1 lot at 1:200 and 1 at 1:100; 2 more take 1 at 1:100 and 1 at 1:20',
      steps: [
        { group: 'tiers', terms },
        { tick: ['EURUSD', '1.08500', '1.08512'] },
        // 108,512 / 200 + 108,512 / 100 = 542.56 + 1,085.12 = 1,627.68; fee 10.
        { open: 'first', code: 'EURUSD', type: 1, lots: '2', leverage: 200 },
        // Lots 2 to 3 at 1:100 and 3 to 4 at 1:20: 1,085.12 + 5,425.6 = 6,510.72; fee 10.
        { open: 'second', code: 'EURUSD', type: 1, lots: '2', leverage: 200 },
      ],
      // 100,000 - 1,627.68 - 6,510.72 - 20.
      expect: { closed: {}, open: ['second', 'first'], balance: '91841.6', locked: '8138.4', writeOffs: [] },
    },
  ];
}

/** ESMA retail: EURUSD (a major pair) at most 1:30, close-out at 50% whatever level the group names. */
function esma(): Scenario[] {
  return [
    {
      name: 'an ESMA retail group refuses 1:100 on EURUSD and closes out at 50% (its own level says 20%)',
      steps: [
        { group: 'esma', terms: { profile: 'esma_retail', margin_call_level: '100', stop_out_level: '20' } },
        { tick: ['EURUSD', '1.08500', '1.08512'] },
        { adjust: '-98000' },
        { open: 'high', code: 'EURUSD', type: 1, lots: '0.2', leverage: 100, refused: leverages('10, 20') },
        // Margin 20,000 x 1.08512 / 20 = 1,085.12; fee 1.
        { open: 'eur', code: 'EURUSD', type: 1, lots: '0.2', leverage: 20 },
        // -1,302.4: equity 696.6, 64.20%.
        { tick: ['EURUSD', '1.02000', '1.02012'] },
        { expectFigures: { risk_rate: '64.20', margin_call: 1 } },
        // -1,502.4: equity 496.6, 45.76%: closed out.
        { tick: ['EURUSD', '1.01000', '1.01012'] },
      ],
      expect: {
        closed: { eur: { type: STOP_OUT, price: '1.01000', profit: '-1502.400000' } },
        open: [],
        balance: '496.6',
        locked: '0',
        writeOffs: [],
      },
    },
  ];
}

const TAKE_PROFIT = 3;
const USER_CLOSE = 1;

/**
 * Spread markup: 3 points on EURUSD (precision 5) lowers the bid the group's members trade on by 1
 * point and raises their ask by 2: they buy at the ask + 0.00002 and close longs at the bid - 0.00001,
 * sell at the bid - 0.00001 and close shorts at the ask + 0.00002; take-profits and pending orders
 * trigger on those prices. The group without markup trades the same ticks at the quotes as they are.
 */
function markups(eur: number): Scenario[] {
  const marked = { symbols: [{ symbol_id: eur, spread_markup_points: 3 }] };
  const plain = { symbols: [{ symbol_id: eur, spread_markup_points: 0 }] };
  const longWithTakeProfit = (group: string, terms: Record<string, unknown>): Step[] => [
    { group, terms },
    { tick: ['EURUSD', '1.08500', '1.08512'] },
    { open: 'eur', code: 'EURUSD', type: 1, lots: '1', leverage: 100, tp: '1.08600' },
    { tick: ['EURUSD', '1.08600', '1.08612'] },
    { tick: ['EURUSD', '1.08601', '1.08613'] },
  ];
  return [
    {
      name: 'no markup: bought at the ask 1.08512, the take-profit closes at the bid 1.08600 (+88)',
      steps: longWithTakeProfit('plain', plain),
      // 100,000 - 5 fee + 88.
      expect: {
        closed: { eur: { type: TAKE_PROFIT, price: '1.08600', profit: '88.000000' } },
        open: [],
        balance: '100083',
        locked: '0',
        writeOffs: [],
      },
    },
    {
      name: '3 points of markup: bought at 1.08514; the bid 1.08600 is 1.08599 to the group (no close), 1.08601 closes at 1.08600 (+86)',
      steps: [
        ...longWithTakeProfit('marked', marked).slice(0, 3),
        // Margin 108,514 / 100 = 1,085.14; the long's close price is the bid less 1 point: 1.08499, floating -15.
        { expectFigures: { balance: '98909.860000', equity: '99980.000000' } },
        ...longWithTakeProfit('marked', marked).slice(3),
      ],
      expect: {
        closed: { eur: { type: TAKE_PROFIT, price: '1.08600', profit: '86.000000' } },
        open: [],
        balance: '100081',
        locked: '0',
        writeOffs: [],
      },
    },
    {
      name: '3 points of markup on a sale and a buy limit: sold at 1.08499 and closed at the ask + 2 points; the limit at 1.08400 fills when the ask reaches 1.08398',
      steps: [
        { group: 'marked', terms: marked },
        { tick: ['EURUSD', '1.08500', '1.08512'] },
        { open: 'short', code: 'EURUSD', type: 2, lots: '1', leverage: 100 },
        { pending: 'limit', code: 'EURUSD', type: 1, lots: '1', leverage: 100, price: '1.08400' },
        // The ask 1.08399 is 1.08401 to the group: the limit waits.
        { tick: ['EURUSD', '1.08387', '1.08399'] },
        { tick: ['EURUSD', '1.08386', '1.08398'] },
        { close: 'short' },
        { tick: ['EURUSD', '1.08500', '1.08512'] },
        { close: 'limit' },
      ],
      // Short: 1.08499 - (1.08398 + 0.00002) = +99; the limit filled at 1.08400, closed at 1.08499: +99; fees 10.
      expect: {
        closed: {
          short: { type: USER_CLOSE, price: '1.08400', profit: '99.000000' },
          limit: { type: USER_CLOSE, price: '1.08499', profit: '99.000000' },
        },
        open: [],
        balance: '100188',
        locked: '0',
        writeOffs: [],
      },
    },
  ];
}

/**
 * A group's commission is per side: the close pays what the open paid for its lots (on the opening
 * terms), a partial close its share; the house's own fee (the seeded demo group) is charged at the
 * open only.
 */
function perSide(eur: number): Scenario[] {
  const perLot = { symbols: [{ symbol_id: eur, commission_type: 'per_lot', commission_rate: '7' }] };
  return [
    {
      name: 'per lot 7 a side: 1 lot pays 7 at the open, 3.5 at a half close and 3.5 at the close of the rest (+88 and +100)',
      steps: [
        { group: 'per side', terms: perLot },
        { tick: ['EURUSD', '1.08500', '1.08512'] },
        { open: 'eur', code: 'EURUSD', type: 1, lots: '1', leverage: 100 },
        // Cash: 100,000 - 1,085.12 - 7.
        { expectFigures: { balance: '98907.880000' } },
        { tick: ['EURUSD', '1.08600', '1.08612'] },
        { closePart: 'eur', lots: '0.5', as: 'half' },
        { tick: ['EURUSD', '1.08712', '1.08724'] },
        { close: 'eur' },
      ],
      // 100,000 - 7 - 3.5 - 3.5 + 44 + 100.
      expect: {
        closed: {
          half: { type: USER_CLOSE, price: '1.08600', profit: '44.000000' },
          eur: { type: USER_CLOSE, price: '1.08712', profit: '100.000000' },
        },
        open: [],
        balance: '100130',
        locked: '0',
        writeOffs: [],
      },
    },
    {
      name: "the house's fee is charged at the open only: 1 lot pays 5 and closes for nothing more (+88)",
      steps: [
        { tick: ['EURUSD', '1.08500', '1.08512'] },
        { open: 'eur', code: 'EURUSD', type: 1, lots: '1', leverage: 100 },
        { tick: ['EURUSD', '1.08600', '1.08612'] },
        { close: 'eur' },
      ],
      expect: {
        closed: { eur: { type: USER_CLOSE, price: '1.08600', profit: '88.000000' } },
        open: [],
        balance: '100083',
        locked: '0',
        writeOffs: [],
      },
    },
  ];
}

/** Moving a user with an open position: it keeps its opening terms; new orders take the new group's; the level is the new group's at once. */
function moves(eur: number): Scenario[] {
  return [
    {
      name: 'moved from the tight to the wide group: the open position keeps its fee and margin, a new order pays the wide terms, the margin call ends at once',
      steps: [
        { group: 'tight', terms: tight(eur, 0) },
        { tick: ['EURUSD', '1.08500', '1.08512'] },
        { adjust: '-98000' },
        { open: 'eur', code: 'EURUSD', type: 1, lots: '1', leverage: 100 },
        { tick: ['EURUSD', '1.07800', '1.07812'] },
        { expectFigures: { risk_rate: '118.05', margin_call: 1 } },
        { group: 'wide', terms: wide(eur, 0) },
        // The wide group's call is at 60%: no margin call any more; the position's margin is as opened.
        { expectFigures: { risk_rate: '118.05', margin_call: 0 } },
        // 1:20 was not on the tight list; 0.03 lot at 1:20: margin 161.718, commission 3,234.36 / 1,000,000 x 30 = 0.097031.
        { open: 'more', code: 'EURUSD', type: 1, lots: '0.03', leverage: 20 },
      ],
      // 2,000 - 7 - 1,085.12 - 161.718 - 0.097031.
      expect: { closed: {}, open: ['more', 'eur'], balance: '746.064969', locked: '1246.838', writeOffs: [] },
    },
  ];
}

describe.each(dbTargets)('account group scenarios on %s', (target) => {
  let t: TestApp;
  let eur = 0;
  let btc = 0;
  beforeAll(async () => {
    t = await tradingApp(target);
    eur = symbolId(t, 'EURUSD');
    btc = symbolId(t, 'BTCUSDT');
  });
  afterAll(async () => t?.close());

  it('two groups trading the same ticks: leverages, largest lot, commission, margin call and stop-out per group', async () => {
    for (const s of perGroup(eur, btc)) await runScenario(t, s);
  });
  it('stop-out policies: largest loss first, largest margin first, partial', async () => {
    for (const s of policies()) await runScenario(t, s);
  });
  it('leverage tiers over the cumulative lots in the symbol', async () => {
    for (const s of tiers(eur)) await runScenario(t, s);
  });
  it('ESMA retail profile', async () => {
    for (const s of esma()) await runScenario(t, s);
  });
  it("spread markup: fills, take-profits, pending orders and closes on the group's prices", async () => {
    for (const s of markups(eur)) await runScenario(t, s);
  });
  it("a group's commission per side: charged at the open and at the close, a partial close its share", async () => {
    for (const s of perSide(eur)) await runScenario(t, s);
  });
  it('moving a user between groups with an open position', async () => {
    for (const s of moves(eur)) await runScenario(t, s);
  });
});
