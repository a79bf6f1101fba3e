import { OrderType } from '@tp/contract/constants';
import { stopsValid } from '@tp/contract/formulas';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { formatNumber } from './format';

/** A plain non-negative decimal as typed in a price or quantity field. */
export const isDecimal = (value: string): boolean => /^\d+(\.\d+)?$/.test(value.trim());

export interface StopsCheck {
  tp: boolean;
  sl: boolean;
}

/**
 * Take-profit and stop-loss against the price the position would close at: for a market order the
 * current bid (buy) or ask (sell); for a pending order its target price.
 */
export function checkStops(orderType: number, closePrice: string, takeProfit: string | null, stopLoss: string | null): StopsCheck {
  const ok = (v: string | null) => v === null || isDecimal(v);
  if (!ok(takeProfit) || !ok(stopLoss) || !isDecimal(closePrice)) return { tp: ok(takeProfit), sl: ok(stopLoss) };
  return stopsValid(orderType, closePrice, takeProfit, stopLoss);
}

/** The take-profit and stop-loss of a form: each a tick box and a price, used only when ticked. */
export interface StopLevels {
  tpOn: boolean;
  tp: string;
  slOn: boolean;
  sl: string;
  setTpOn(on: boolean): void;
  setTp(price: string): void;
  setSlOn(on: boolean): void;
  setSl(price: string): void;
  /** The ticked prices (null where not ticked). */
  takeProfit: string | null;
  stopLoss: string | null;
  /** Back to the starting levels. */
  reset(): void;
}

/** Form state of the two levels; a level given at the start starts ticked. */
export function useStopLevels(initialTakeProfit = '', initialStopLoss = ''): StopLevels {
  const [tpOn, setTpOn] = useState(initialTakeProfit !== '');
  const [tp, setTp] = useState(initialTakeProfit);
  const [slOn, setSlOn] = useState(initialStopLoss !== '');
  const [sl, setSl] = useState(initialStopLoss);
  return {
    tpOn,
    tp,
    slOn,
    sl,
    setTpOn,
    setTp,
    setSlOn,
    setSl,
    takeProfit: tpOn ? tp.trim() : null,
    stopLoss: slOn ? sl.trim() : null,
    reset() {
      setTpOn(initialTakeProfit !== '');
      setTp(initialTakeProfit);
      setSlOn(initialStopLoss !== '');
      setSl(initialStopLoss);
    },
  };
}

export interface StopErrors {
  tp?: string;
  sl?: string;
}

/**
 * What is wrong with the ticked levels: a price is required, and it must be on the right side of
 * `closeAt` (the price the order would close at) when that is a price.
 */
export function stopLevelErrors(levels: StopLevels, orderType: number, closeAt: string, precision: number, t: TFunction): StopErrors {
  const found: StopErrors = {};
  if (levels.tpOn && !isDecimal(levels.tp)) found.tp = t('trade.errors.tp_required');
  if (levels.slOn && !isDecimal(levels.sl)) found.sl = t('trade.errors.sl_required');
  if (isDecimal(closeAt) && Number(closeAt) > 0) {
    const check = checkStops(orderType, closeAt, found.tp ? null : levels.takeProfit, found.sl ? null : levels.stopLoss);
    const price = formatNumber(closeAt, precision);
    const buy = orderType === OrderType.BUY;
    if (!check.tp) found.tp = t(buy ? 'trade.errors.tp_buy' : 'trade.errors.tp_sell', { price });
    if (!check.sl) found.sl = t(buy ? 'trade.errors.sl_buy' : 'trade.errors.sl_sell', { price });
  }
  return found;
}
