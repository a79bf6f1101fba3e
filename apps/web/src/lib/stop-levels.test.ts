import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { checkStops, type StopLevels, stopLevelErrors } from './stop-levels';

describe('stops', () => {
  it('checks take-profit and stop-loss by side', () => {
    expect(checkStops(1, '100', '110', '90')).toEqual({ tp: true, sl: true });
    expect(checkStops(1, '100', '90', '110')).toEqual({ tp: false, sl: false });
    expect(checkStops(2, '100', '90', '110')).toEqual({ tp: true, sl: true });
    expect(checkStops(2, '100', null, null)).toEqual({ tp: true, sl: true });
  });
});

describe('stop level errors', () => {
  const t = ((key: string, values?: { price: string }) => (values ? `${key} ${values.price}` : key)) as unknown as TFunction;
  const levels = (tp: string | null, sl: string | null): StopLevels => ({
    tpOn: tp !== null,
    tp: tp ?? '',
    slOn: sl !== null,
    sl: sl ?? '',
    setTpOn: () => undefined,
    setTp: () => undefined,
    setSlOn: () => undefined,
    setSl: () => undefined,
    takeProfit: tp,
    stopLoss: sl,
    reset: () => undefined,
  });

  it('asks for the price of a ticked level and ignores an unticked one', () => {
    expect(stopLevelErrors(levels('', ' '), 1, '100', 2, t)).toEqual({ tp: 'trade.errors.tp_required', sl: 'trade.errors.sl_required' });
    expect(stopLevelErrors(levels(null, null), 1, '100', 2, t)).toEqual({});
  });

  it('puts each level on its side of the close price, by direction', () => {
    expect(stopLevelErrors(levels('90', '110'), 1, '100', 2, t)).toEqual({
      tp: 'trade.errors.tp_buy 100.00',
      sl: 'trade.errors.sl_buy 100.00',
    });
    expect(stopLevelErrors(levels('110', '90'), 2, '100', 2, t)).toEqual({
      tp: 'trade.errors.tp_sell 100.00',
      sl: 'trade.errors.sl_sell 100.00',
    });
    expect(stopLevelErrors(levels('110', '90'), 1, '100', 2, t)).toEqual({});
  });

  it('checks sides only against a price (a pending order without its target yet)', () => {
    expect(stopLevelErrors(levels('90', null), 1, '', 2, t)).toEqual({});
    expect(stopLevelErrors(levels('90', null), 1, '0', 2, t)).toEqual({});
  });
});
