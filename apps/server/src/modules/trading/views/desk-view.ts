import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { type Dec, dec, fixed, money, moneyStr, ZERO } from '@tp/contract/decimal';
import type { DeskExposure } from '@tp/contract/schemas/admin';
import type { SymbolTotals } from '../engine/desk-totals.ts';
import { atOrBelow, figuresOf, floatingOf, type PositionTerms, type PriceBoard } from '../engine/figures.ts';

/** The desk's figures but the realised result, which the ledger owns. */
export type DeskBook = Omit<DeskExposure, 'house_realised_today'>;
/** The book of one account kind (or one group's share of it), without the per-group split. */
export type DeskSymbolsBook = Omit<DeskBook, 'groups'>;

/** What the desk needs of the market: prices, the USD conversion and the symbol's shown code. */
export interface DeskPrices extends PriceBoard {
  symbol(symbolId: number): { showCode: string } | undefined;
}

/** Positions tallied between two yields to the event loop: a large book never holds up ticks for long. */
const SLICE = 2_000;

/**
 * The house's book, one account kind, from the open positions' sums per symbol and side: the clients'
 * long and short lots, their USD value at the current mid, and the house's floating profit (the
 * negative of the clients'). The clients' floating profit of a side is worked out exactly from its sums
 * (longs close at the bid: Σ(bid - open) x units = bid x Σunits - Σ open x units; shorts at the ask),
 * converted to USD as the engine converts each position, and rounded once to the money scale: one step
 * per symbol, whatever the number of positions.
 */
export function deskBookOf(
  totals: ReadonlyMap<number, SymbolTotals>,
  prices: DeskPrices,
  meta: { isDemo: boolean; source: DeskBook['source'] },
): DeskSymbolsBook {
  const sum = { positions: 0, long: ZERO, short: ZERO, floating: ZERO };
  const symbols = [...totals.entries()].map(([symbolId, { long: l, short: s }]) => {
    const q = prices.quote(symbolId);
    const conv = q ? prices.quoteToUsd(symbolId) : ZERO;
    // No quote yet: no value to put on the units and no profit (as the engine's figures count none before the first quote).
    const toUsd = q ? conv.mul(q.mid) : ZERO;
    // Rounded to the money scale before netting and summing, so rows and totals add up exactly.
    const long = money(l.units.mul(toUsd));
    const short = money(s.units.mul(toUsd));
    const clients = q
      ? money(
          dec(q.bid)
            .mul(l.units)
            .minus(l.openValue)
            .plus(s.openValue.minus(dec(q.ask).mul(s.units)))
            .mul(conv),
        )
      : ZERO;
    const house = clients.neg();
    const positions = l.positions + s.positions;
    sum.positions += positions;
    sum.long = sum.long.plus(long);
    sum.short = sum.short.plus(short);
    sum.floating = sum.floating.plus(house);
    return {
      symbol_id: symbolId,
      code: prices.symbol(symbolId)?.showCode ?? String(symbolId),
      positions,
      long_lots: fixed(l.lots, 6),
      short_lots: fixed(s.lots, 6),
      net_lots: fixed(l.lots.minus(s.lots), 6),
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
      positions: sum.positions,
      long_usd: moneyStr(sum.long),
      short_usd: moneyStr(sum.short),
      net_usd: moneyStr(sum.long.minus(sum.short)),
      house_floating: moneyStr(sum.floating),
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
/** An account is "near" when its margin level is at most this multiple of its group's margin-call level. */
const NEAR_FACTOR = '1.5';

export interface DeskClientFigures {
  largest: { userId: number; orderId: number; code: string; type: number; lots: string; usd: string; floating: string; usdValue: Dec }[];
  floating: { userId: number; positions: number; floating: Dec; equity: Dec }[];
  near: { userId: number; marginLevel: Dec; marginCall: boolean; stopOutLevel: Dec }[];
}

/**
 * The clients who move the house's book, from its open positions: the largest positions by USD value
 * at the current mid, the accounts with the largest floating profit, and the accounts whose margin
 * level is within half again of their margin-call level (lowest first).
 */
export async function deskClientsOf(
  accounts: Iterable<DeskAccount>,
  prices: DeskPrices,
  /** The margin-call and stop-out levels of the account's group. */
  levelsOf: (userId: number) => { marginCall: Dec; stopOut: Dec },
): Promise<DeskClientFigures> {
  const largest: DeskClientFigures['largest'] = [];
  const floating: DeskClientFigures['floating'] = [];
  const near: DeskClientFigures['near'] = [];
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
    const levels = levelsOf(acc.userId);
    if (figures.riskRate !== null && figures.riskRate.lte(levels.marginCall.mul(NEAR_FACTOR))) {
      near.push({
        userId: acc.userId,
        marginLevel: figures.riskRate,
        marginCall: acc.marginCall || atOrBelow(figures, levels.marginCall),
        stopOutLevel: levels.stopOut,
      });
    }
  }
  largest.sort((a, b) => b.usdValue.cmp(a.usdValue) || a.orderId - b.orderId);
  floating.sort((a, b) => b.floating.cmp(a.floating) || a.userId - b.userId);
  near.sort((a, b) => a.marginLevel.cmp(b.marginLevel) || a.userId - b.userId);
  return { largest: largest.slice(0, DESK_TOP), floating: floating.slice(0, DESK_TOP), near: near.slice(0, DESK_TOP * 2) };
}

/** What the desk shows of an account group: its name and execution book. */
export interface DeskGroupInfo {
  name: string;
  book: 'B' | 'A' | 'hybrid';
}

/** Each group's share of the book (groups with open positions), by name. */
export function deskGroupsOf(
  byGroup: ReadonlyMap<number, ReadonlyMap<number, SymbolTotals>>,
  prices: DeskPrices,
  meta: { isDemo: boolean; source: DeskBook['source'] },
  infoOf: (groupId: number) => DeskGroupInfo | undefined,
): DeskBook['groups'] {
  return [...byGroup.entries()]
    .map(([groupId, totals]) => {
      const { symbols, totals: sums } = deskBookOf(totals, prices, meta);
      const info = infoOf(groupId);
      return { group_id: groupId, name: info?.name ?? String(groupId), book: info?.book ?? 'B', symbols, totals: sums };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.group_id - b.group_id);
}
