import { describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { accountFigures, feeOf, marginOf, profitOf } from '@tp/contract/formulas';
import { figuresOf, riskLines, type PositionTerms, type PriceBoard } from './engine/figures.ts';
import { ForexTradePush } from './events/pushes.ts';
import { SymbolBook, type Trigger, TriggerHeap, TriggerKind, placementOf } from './engine/trigger-book.ts';

const EURUSD = { contractSize: '100000', marginMode: 1, feeRate: '5' };
const USDJPY = { contractSize: '100000', marginMode: 1, feeRate: '5' };
const LTCUSDT = { contractSize: '1', marginMode: 2, fixedMargin: '10', feeRate: '0.03' };

describe('trading formulas, worked examples', () => {
  it('EURUSD (USD-quoted): margin at the open price over the leverage, fee per lot, profit by direction', () => {
    const margin = marginOf(EURUSD, '1', '1.08506', 100);
    expect(margin.toString()).toBe('1085.06');
    expect(feeOf(EURUSD, 1, '1', margin).toString()).toBe('5');
    expect(feeOf(EURUSD, 2, '1', margin).toString()).toBe('5425.3');
    expect(profitOf(1, '1.08506', '1.08712', '1', '100000').toString()).toBe('206');
    expect(profitOf(2, '1.08494', '1.08306', '0.5', '100000').toString()).toBe('94');
    expect(profitOf(2, '1.08494', '1.08600', '0.5', '100000').toString()).toBe('-53');
  });

  it('USDJPY (JPY-quoted): margin and profit converted to USD at the USDJPY mid', () => {
    const atOpen = dec(1).div('150.000');
    expect(marginOf(USDJPY, '0.5', '150.007', 100, atOpen).toString()).toBe('500.023333');
    const atClose = dec(1).div('151.007');
    expect(profitOf(1, '150.007', '151.000', '0.5', '100000', atClose).toString()).toBe('328.792705');
  });

  it('LTCUSDT (fixed margin, MarginMode 2): lots x fixed margin whatever the price and leverage', () => {
    expect(marginOf(LTCUSDT, '2.5', '100.05', 2).toString()).toBe('25');
    expect(marginOf(LTCUSDT, '2.5', '250.00', 20).toString()).toBe('25');
    expect(feeOf(LTCUSDT, 1, '2.5', '25').toString()).toBe('0.075');
    expect(feeOf(LTCUSDT, 2, '2.5', '25').toString()).toBe('0.75');
  });

  it('account figures: equity, free margin, risk rate and prepayment ratio', () => {
    const f = accountFigures('95248', '4750.5', '4750.5', '490');
    expect([f.equity, f.freeMargin, f.riskRate, f.prepaymentRatio].map((v) => v!.toString())).toEqual([
      '100488.5',
      '95738',
      '2115.32',
      '4.73',
    ]);
    expect(accountFigures('100', '0', '0', '0').riskRate).toBeNull();
  });
});

const board = (mids: Record<number, string>, spread = '0'): PriceBoard => ({
  quote: (id) => {
    const mid = mids[id];
    if (!mid) return undefined;
    const half = dec(spread).div(2);
    return { bid: dec(mid).minus(half).toString(), ask: dec(mid).plus(half).toString(), mid };
  },
  quoteToUsd: () => dec(1),
});
const position = (symbolId: number, orderType: number, quantity: string, openPrice: string, margin: string): PositionTerms => ({
  symbolId,
  orderType,
  quantity: dec(quantity),
  openPrice: dec(openPrice),
  contractSize: dec(1),
  margin: dec(margin),
});

describe('risk lines', () => {
  it('puts a long position line below the price, inside the cushion, and a short one above', () => {
    const long = [position(1, 1, '2', '100', '100')];
    const prices = board({ 1: '100' });
    const f = figuresOf(dec(50), dec(100), long, prices);
    // Equity 150 on margin 100: the stop-out level 50% is 100 below, 2 per unit: 50 away; 90% of it.
    expect(riskLines(f, dec(50), long, prices)).toEqual([{ symbolId: 1, level: 55, rising: false }]);
    const short = [position(1, 2, '2', '100', '100')];
    expect(riskLines(figuresOf(dec(50), dec(100), short, prices), dec(50), short, prices)).toEqual([
      { symbolId: 1, level: 145, rising: true },
    ]);
  });

  it('splits the cushion between symbols, so that together the moves cannot pass the level unseen', () => {
    const positions = [position(1, 1, '1', '10', '50'), position(2, 1, '4', '20', '50')];
    const prices = board({ 1: '10', 2: '20' });
    const f = figuresOf(dec(100), dec(100), positions, prices);
    const lines = riskLines(f, dec(100), positions, prices) as { symbolId: number; level: number }[];
    // Cushion 200 - 100 = 100; 45 each: symbol 1 may fall 45, symbol 2 by 45 / 4.
    expect(lines).toEqual(
      [
        { symbolId: 1, level: -35, rising: false },
        { symbolId: 2, level: 8.75, rising: false },
      ].filter((l) => l.level > 0),
    );
    const moved = board({ 1: '10', 2: '8.76' });
    const after = figuresOf(dec(100), dec(100), positions, moved);
    expect(after.riskRate!.gt(100)).toBe(true);
  });

  it('reports a breached level, and the way back up under a margin call', () => {
    const long = [position(1, 1, '1', '100', '100')];
    const prices = board({ 1: '40' });
    const f = figuresOf(dec(0), dec(100), long, prices);
    expect(riskLines(f, dec(100), long, prices)).toBe('breached');
    expect(riskLines(f, dec(100), long, prices, 'up')).toEqual([{ symbolId: 1, level: 100, rising: true }]);
    expect(riskLines(figuresOf(dec(0), dec(100), [], prices), dec(50), [], prices)).toEqual([]);
  });
});

describe('risk lines through a conversion symbol', () => {
  // Symbol 1 is quoted in GBP and converts at the mid of symbol 2 (GBPUSD); symbol 3 converts through itself (USDJPY).
  const converting = (mids: Record<number, string>): PriceBoard => ({
    ...board(mids),
    quoteToUsd: (id) => (id === 1 ? dec(mids[2]!) : id === 3 ? dec(1).div(mids[3]!) : dec(1)),
    conversionOf: (id) => (id === 1 ? { symbolId: 2, invert: false } : id === 3 ? { symbolId: 3, invert: true } : null),
  });
  const near = (lines: unknown, symbolId: number, rising: boolean) =>
    (lines as { symbolId: number; level: number; rising: boolean }[]).find((l) => l.symbolId === symbolId && l.rising === rising)?.level;

  it('arms the conversion symbol too: a GBP loss grows when GBPUSD rises', () => {
    const long = [{ ...position(1, 1, '1', '1.0', '100'), contractSize: dec(1000) }];
    const prices = converting({ 1: '0.9', 2: '1.25' });
    // -100 GBP x 1.25: equity 80 + 100 - 125 = 55, 5 above the stop-out level; 2.25 for each of the two drivers.
    const f = figuresOf(dec(80), dec(100), long, prices);
    const lines = riskLines(f, dec(50), long, prices);
    expect(near(lines, 1, false)).toBeCloseTo(0.9 - 2.25 / 1250, 9);
    expect(near(lines, 2, true)).toBeCloseTo(1.25 + 2.25 / 100, 9);
    // Coupled drivers also look again after a 5% move either way.
    expect(near(lines, 1, true)).toBeCloseTo(0.945, 9);
    expect(near(lines, 2, false)).toBeCloseTo(1.1875, 9);
    const atLine = figuresOf(dec(80), dec(100), long, converting({ 1: '0.9', 2: String(1.25 + 2.25 / 100) }));
    expect(atLine.equity.toNumber()).toBeCloseTo(55 - 2.25, 6);
  });

  it('solves the 1 / x of a symbol converted through itself exactly', () => {
    const long = [{ ...position(3, 1, '1', '150', '100'), contractSize: dec(100000) }];
    const prices = converting({ 3: '149' });
    const f = figuresOf(dec(0), dec(1000), long, prices);
    const level = near(riskLines(f, dec(50), long, prices), 3, false)!;
    const moved = figuresOf(dec(0), dec(1000), long, converting({ 3: String(level) }));
    // The whole drop is 90% of the cushion above 50 (one driver).
    expect(f.equity.minus(moved.equity).toNumber()).toBeCloseTo(f.equity.minus(50).toNumber() * 0.9, 4);
  });
});

describe('trigger books', () => {
  const trig = (level: number, id: number, kind: TriggerKind = TriggerKind.TAKE_PROFIT): Trigger => ({ level, id, kind, live: true });

  it('pops only the crossed prefix, nearest level first, and skips killed triggers', () => {
    const rising = new TriggerHeap(true);
    const all = [trig(105, 1), trig(101, 2), trig(103, 3), trig(101, 4), trig(110, 5)];
    for (const t of all) rising.push(t);
    expect(rising.crossed(100.5)).toBe(false);
    rising.kill(all[2]!);
    const out: Trigger[] = [];
    rising.popCrossed(104, out);
    expect(out.map((t) => t.id)).toEqual([2, 4]);
    expect(out.every((t) => !t.live)).toBe(true);
    expect(rising.size).toBe(2);
    const falling = new TriggerHeap(false);
    for (const t of [trig(95, 1), trig(99, 2), trig(97, 3)]) falling.push(t);
    const down: Trigger[] = [];
    falling.popCrossed(97, down);
    expect(down.map((t) => t.id)).toEqual([2, 3]);
  });

  it('stays correct through many kills (compaction)', () => {
    const heap = new TriggerHeap(true);
    const all = Array.from({ length: 2000 }, (_, i) => trig((i * 7919) % 2000, i));
    for (const t of all) heap.push(t);
    for (const t of all) if (t.id % 3 !== 0) heap.kill(t);
    const out: Trigger[] = [];
    heap.popCrossed(999, out);
    const expected = all.filter((t) => t.id % 3 === 0 && t.level <= 999).sort((a, b) => a.level - b.level || a.id - b.id);
    expect(out.map((t) => t.id)).toEqual(expected.map((t) => t.id));
  });

  it('places take-profit, stop-loss and pending entries on the side they close or fill at', () => {
    expect(placementOf(TriggerKind.TAKE_PROFIT, 1)).toEqual({ side: 'bid', rising: true });
    expect(placementOf(TriggerKind.STOP_LOSS, 1)).toEqual({ side: 'bid', rising: false });
    expect(placementOf(TriggerKind.TAKE_PROFIT, 2)).toEqual({ side: 'ask', rising: false });
    expect(placementOf(TriggerKind.STOP_LOSS, 2)).toEqual({ side: 'ask', rising: true });
    expect(placementOf(TriggerKind.FILL, 1, 'limit')).toEqual({ side: 'ask', rising: false });
    expect(placementOf(TriggerKind.FILL, 1, 'stop')).toEqual({ side: 'ask', rising: true });
    expect(placementOf(TriggerKind.FILL, 2, 'limit')).toEqual({ side: 'bid', rising: true });
    expect(placementOf(TriggerKind.FILL, 2, 'stop')).toEqual({ side: 'bid', rising: false });
    const book = new SymbolBook();
    book.heap('bid', true).push(trig(1.1, 1));
    book.heap('ask', false).push(trig(1.0, 2));
    expect(book.crossedAny(1.05, 1.06, 1.055)).toBe(false);
    expect(book.crossedAny(1.1, 1.11, 1.105)).toBe(true);
    expect(book.crossedAny(0.99, 1.0, 0.995)).toBe(true);
  });
});

describe('FOREX_TRADE push', () => {
  it('is computed once, when read or serialized, in the PROTOCOL.md shape', () => {
    let computed = 0;
    const figures = figuresOf(dec('95248'), dec('4750.5'), [position(1, 1, '0.5', '95010', '4750.5')], board({ 1: '96000' }));
    const push = new ForexTradePush(7, 0, () => {
      computed++;
      return { figures, positions: [] };
    });
    expect(computed).toBe(0);
    const wire = JSON.parse(JSON.stringify(push));
    expect(wire).toEqual({
      type: 'FOREX_TRADE',
      To: 7,
      HazardRate: '2115.43',
      CautionMoneyAll: '4750.500000',
      ProfitsTotal: '495.000000',
      OriginCautionMoneyTotal: '4750.500000',
      TransOrder: [],
      balance: '95248.000000',
      lock_balance: '4750.500000',
      equity: '100493.500000',
      available_prepayment: '95743.000000',
      prepayment_ratio: '4.73',
      margin_call: 0,
    });
    expect(push.HazardRate).toBe('2115.43');
    expect(computed).toBe(1);
  });
});
