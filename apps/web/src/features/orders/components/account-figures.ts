import { dec } from '@tp/contract/decimal';
import type { ForexDetail } from '@tp/contract/schemas/trading';
import type { LiveFigures } from './use-live-orders';

/** The account as MetaTrader 5 shows it (TRADING-RULES.md names in brackets). */
export interface Mt5Figures {
  /** Cash including the margin locked in positions: equity minus floating profit; opening a position does not move it. */
  balance?: string;
  /** Net value (equity). */
  equity?: string;
  /** Margin of open positions. */
  margin?: string;
  /** Available prepayment: equity minus everything locked. */
  freeMargin?: string;
  /** Risk rate, percent; null without open positions. */
  marginLevel?: string | null;
  floatingProfit?: string;
}

const sum = (a: string | undefined, b: string | undefined): string | undefined =>
  a === undefined || a === '' || b === undefined || b === '' ? undefined : dec(a).plus(dec(b)).toFixed(6);

/** Figures from the newest FOREX_TRADE push, else from forexDetail. */
export function mt5Figures(live: LiveFigures | null, detail: ForexDetail | undefined): Mt5Figures {
  if (live) {
    return {
      balance: sum(live.balance, live.lockBalance),
      equity: live.equity,
      margin: live.margin || undefined,
      freeMargin: live.availablePrepayment || undefined,
      marginLevel: Number(live.riskRate) > 0 ? live.riskRate : null,
      floatingProfit: live.floatingProfit || undefined,
    };
  }
  if (!detail) return {};
  return {
    balance: sum(detail.balance, detail.lock_balance),
    equity: detail.equity,
    margin: detail.margin,
    freeMargin: detail.available_prepayment,
    marginLevel: detail.risk_rate,
    floatingProfit: detail.float_profit,
  };
}
