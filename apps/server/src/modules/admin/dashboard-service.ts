import { type Dec, fixed, moneyStr, ZERO } from '@tp/contract/decimal';
import type { Dashboard } from '@tp/contract/schemas/admin';
import type { AppContext } from '../../context.ts';
import { countUsersByKind } from '../auth/index.ts';
import { countWaitingReviews } from '../funding/index.ts';
import { countVerifiedUsers } from '../identity/index.ts';
import { houseTotalsSince } from '../ledger/index.ts';
import { countRiskEventsSince, openLotsBySymbol } from '../trading/index.ts';

const startOfTodayUtc = () => {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  return d;
};

/** The back office's first screen: counts, queues, exposure and today's house result. */
export async function dashboard(ctx: AppContext): Promise<Dashboard> {
  const today = startOfTodayUtc();
  // Each figure comes from the read model its module publishes (admin reads no other module's tables).
  const [byKind, verified, waiting, lots, house, risk] = await Promise.all([
    countUsersByKind(ctx.db),
    countVerifiedUsers(ctx.db),
    countWaitingReviews(ctx.db),
    openLotsBySymbol(ctx.db),
    houseTotalsSince(ctx.db, ['fees', 'counterparty'], today),
    countRiskEventsSince(ctx.db, today),
  ]);
  const usersNow = { ...byKind, verified };
  const bySymbol = new Map<number, { positions: number; buy: Dec; sell: Dec; netUnits: Dec }>();
  for (const row of lots) {
    const acc = bySymbol.get(row.symbolId) ?? { positions: 0, buy: ZERO, sell: ZERO, netUnits: ZERO };
    const isBuy = row.orderType === 1;
    acc.positions += Number(row.positions);
    if (isBuy) acc.buy = acc.buy.plus(row.lots ?? 0);
    else acc.sell = acc.sell.plus(row.lots ?? 0);
    acc.netUnits = isBuy ? acc.netUnits.plus(row.units ?? 0) : acc.netUnits.minus(row.units ?? 0);
    bySymbol.set(row.symbolId, acc);
  }
  const market = ctx.services.market;
  const exposure = [...bySymbol.entries()].map(([symbolId, acc]) => {
    const mid = market.quote(symbolId)?.mid;
    return {
      symbol_id: symbolId,
      code: market.symbol(symbolId)?.showCode ?? String(symbolId),
      positions: acc.positions,
      buy_lots: fixed(acc.buy, 6),
      sell_lots: fixed(acc.sell, 6),
      net_lots: fixed(acc.buy.minus(acc.sell), 6),
      notional: mid ? moneyStr(acc.netUnits.times(mid).times(market.quoteToUsd(symbolId))) : moneyStr(0),
    };
  });
  exposure.sort((a, b) => a.code.localeCompare(b.code));
  return {
    users: usersNow,
    deposits_waiting: waiting.deposits,
    withdrawals_waiting: waiting.withdrawals,
    open_positions: exposure.reduce((n, e) => n + e.positions, 0),
    exposure,
    house_profit_today: moneyStr(house.get('counterparty') ?? 0),
    fees_today: moneyStr(house.get('fees') ?? 0),
    margin_calls_today: risk.get('margin_call') ?? 0,
    stop_outs_today: risk.get('stop_out') ?? 0,
  };
}
