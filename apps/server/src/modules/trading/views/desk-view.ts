import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { OrderType } from '@tp/contract/constants';
import { type Dec, fixed, money, moneyStr, ZERO } from '@tp/contract/decimal';
import type { DeskExposure } from '@tp/contract/schemas/admin';
import { atOrBelow, figuresOf, floatingOf, type PositionTerms, type PriceBoard } from '../engine/figures.ts';

/** The desk's figures but the realised result, which the ledger owns. */
export type DeskBook = Omit<DeskExposure, 'house_realised_today'>;

interface SymbolSide {
  positions: number;
  longLots: Dec;
  shortLots: Dec;
  longUnits: Dec;
  shortUnits: Dec;
  clientsFloating: Dec;
}

/** What the desk needs of the market: prices, the USD conversion and the symbol's shown code. */
export interface DeskPrices extends PriceBoard {
  symbol(symbolId: number): { showCode: string } | undefined;
}

/** Positions tallied between two yields to the event loop: a large book never holds up ticks for long. */
const SLICE = 2_000;

/**
 * The house's book, one account kind: per symbol the clients' long and short lots, their USD
 * value at the current mid, and the house's floating profit (the negative of the clients', each
 * position's converted to USD as the engine converts it).
 */
export async function deskBookOf(
  positions: Iterable<PositionTerms>,
  prices: DeskPrices,
  meta: { isDemo: boolean; source: DeskBook['source'] },
): Promise<DeskBook> {
  const bySymbol = new Map<number, SymbolSide>();
  let counted = 0;
  for (const p of positions) {
    if (++counted % SLICE === 0) await yieldToLoop();
    let side = bySymbol.get(p.symbolId);
    if (!side) {
      side = { positions: 0, longLots: ZERO, shortLots: ZERO, longUnits: ZERO, shortUnits: ZERO, clientsFloating: ZERO };
      bySymbol.set(p.symbolId, side);
    }
    const units = p.quantity.mul(p.contractSize);
    side.positions++;
    if (p.orderType === OrderType.BUY) {
      side.longLots = side.longLots.plus(p.quantity);
      side.longUnits = side.longUnits.plus(units);
    } else {
      side.shortLots = side.shortLots.plus(p.quantity);
      side.shortUnits = side.shortUnits.plus(units);
    }
    side.clientsFloating = side.clientsFloating.plus(floatingOf(p, prices).profit);
  }
  const totals = { positions: 0, long: ZERO, short: ZERO, floating: ZERO };
  const symbols = [...bySymbol.entries()].map(([symbolId, side]) => {
    const mid = prices.quote(symbolId)?.mid;
    // No quote yet: no value to put on the units (as the engine's figures count no profit before the first quote).
    const toUsd = mid ? prices.quoteToUsd(symbolId).mul(mid) : ZERO;
    // Rounded to the money scale before netting and summing, so rows and totals add up exactly.
    const long = money(side.longUnits.mul(toUsd));
    const short = money(side.shortUnits.mul(toUsd));
    const house = side.clientsFloating.neg();
    totals.positions += side.positions;
    totals.long = totals.long.plus(long);
    totals.short = totals.short.plus(short);
    totals.floating = totals.floating.plus(house);
    return {
      symbol_id: symbolId,
      code: prices.symbol(symbolId)?.showCode ?? String(symbolId),
      positions: side.positions,
      long_lots: fixed(side.longLots, 6),
      short_lots: fixed(side.shortLots, 6),
      net_lots: fixed(side.longLots.minus(side.shortLots), 6),
      long_usd: moneyStr(long),
      short_usd: moneyStr(short),
      net_usd: moneyStr(long.minus(short)),
      house_floating: moneyStr(house),
    };
  });
  symbols.sort((a, b) => a.code.localeCompare(b.code));
  return {
    is_demo: meta.isDemo ? 1 : 0,
    source: meta.source,
    time: Date.now(),
    symbols,
    totals: {
      positions: totals.positions,
      long_usd: moneyStr(totals.long),
      short_usd: moneyStr(totals.short),
      net_usd: moneyStr(totals.long.minus(totals.short)),
      house_floating: moneyStr(totals.floating),
    },
  };
}

/** An account with open positions, as the desk reads it (the engine's books, or the database). */
export interface DeskAccount {
  userId: number;
  cash: Dec;
  locked: Dec;
  positions: (PositionTerms & { orderId: number })[];
  marginCall: boolean;
}

/** How many rows each of the desk's client lists shows. */
export const DESK_TOP = 10;
/** An account is "near" when its margin level is at most this multiple of its margin-call level. */
const NEAR_FACTOR = '1.5';

export interface DeskClientFigures {
  largest: { userId: number; orderId: number; code: string; type: number; lots: string; usd: string; floating: string; usdValue: Dec }[];
  floating: { userId: number; positions: number; floating: Dec; equity: Dec }[];
  near: { userId: number; marginLevel: Dec; marginCall: boolean }[];
}

/**
 * The clients who move the house's book, from its open positions: the largest positions by USD value
 * at the current mid, the accounts with the largest floating profit, and the accounts whose margin
 * level is within half again of their margin-call level (lowest first).
 */
export async function deskClientsOf(
  accounts: Iterable<DeskAccount>,
  prices: DeskPrices,
  levels: { marginCall: Dec },
): Promise<DeskClientFigures> {
  const largest: DeskClientFigures['largest'] = [];
  const floating: DeskClientFigures['floating'] = [];
  const near: DeskClientFigures['near'] = [];
  const nearLevel = levels.marginCall.mul(NEAR_FACTOR);
  let counted = 0;
  for (const acc of accounts) {
    let accFloating = ZERO;
    for (const p of acc.positions) {
      if (++counted % SLICE === 0) await yieldToLoop();
      const profit = floatingOf(p, prices).profit;
      accFloating = accFloating.plus(profit);
      const mid = prices.quote(p.symbolId)?.mid;
      const usdValue = mid ? money(p.quantity.mul(p.contractSize).mul(prices.quoteToUsd(p.symbolId)).mul(mid)) : ZERO;
      largest.push({
        userId: acc.userId,
        orderId: p.orderId,
        code: prices.symbol(p.symbolId)?.showCode ?? String(p.symbolId),
        type: p.orderType,
        lots: fixed(p.quantity, 6),
        usd: moneyStr(usdValue),
        floating: moneyStr(money(profit)),
        usdValue,
      });
    }
    const figures = figuresOf(acc.cash, acc.locked, acc.positions, prices);
    floating.push({ userId: acc.userId, positions: acc.positions.length, floating: figures.floatingProfit, equity: figures.equity });
    if (figures.riskRate !== null && figures.riskRate.lte(nearLevel)) {
      near.push({ userId: acc.userId, marginLevel: figures.riskRate, marginCall: acc.marginCall || atOrBelow(figures, levels.marginCall) });
    }
  }
  largest.sort((a, b) => b.usdValue.cmp(a.usdValue) || a.orderId - b.orderId);
  floating.sort((a, b) => b.floating.cmp(a.floating) || a.userId - b.userId);
  near.sort((a, b) => a.marginLevel.cmp(b.marginLevel) || a.userId - b.userId);
  return { largest: largest.slice(0, DESK_TOP), floating: floating.slice(0, DESK_TOP), near: near.slice(0, DESK_TOP * 2) };
}
