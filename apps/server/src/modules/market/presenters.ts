import { MarketStatus, type MarketStatusReason } from '@tp/contract/constants';
import { type Dec, dec, fixed } from '@tp/contract/decimal';
import { pushMessage, type ServerMessageOf } from '@tp/contract/pushes';
import type { KlineBar, Quotation, TradeListRow } from '@tp/contract/schemas/market';
import type { Bar, MarketSymbol } from './repository.ts';
import type { Quote, SymbolInfo } from './types.ts';

const percentChange = (open: string, close: string): string => {
  const o = dec(open);
  return o.isZero() ? '0.00' : fixed(dec(close).minus(o).div(o).times(100), 2);
};

/** Kline bar (PROTOCOL.md): prices, volume and amount as decimal strings, Time in epoch ms, Id = Time. */
export function klineBar(symbol: SymbolInfo, period: string, bar: Bar): KlineBar {
  return {
    Id: bar.time,
    Time: bar.time,
    Open: bar.open,
    High: bar.high,
    Low: bar.low,
    Close: bar.close,
    Volume: bar.volume,
    Amount: fixed(dec(bar.volume).times(bar.close), 2),
    Change: percentChange(bar.open, bar.close),
    Period: period,
    Code: symbol.code,
    ForexId: symbol.id,
  };
}

export function forexQuotations(symbol: SymbolInfo, q: Quote) {
  return {
    Id: symbol.id,
    ForexId: symbol.id,
    Open: q.open24h,
    High: q.high24h,
    Low: q.low24h,
    Close: q.mid,
    Change: q.change,
    Volume: q.volume24h,
    Amount: fixed(dec(q.volume24h).times(q.mid), 2),
    NowTime: q.time,
    Bid: q.bid,
    Ask: q.ask,
  };
}

/**
 * A trade_list row; with an account group's `markup` (price units) the spread and the quotation's bid
 * and ask are the ones the group's members trade on.
 */
export function tradeListRow(
  symbol: MarketSymbol,
  q: Quote,
  closedReason: MarketStatusReason | null,
  markup: { bid: Dec; ask: Dec } | null = null,
): TradeListRow {
  const quotations = forexQuotations(symbol, q);
  return {
    Id: symbol.id,
    Code: symbol.code,
    ShowCode: symbol.showCode,
    Logo: symbol.logo,
    CategoryId: symbol.categoryId,
    MarketStatus: closedReason === null ? MarketStatus.OPEN : MarketStatus.CLOSED,
    MarketStatusReason: closedReason,
    PricePrecision: symbol.pricePrecision,
    MarginMode: symbol.marginMode,
    Pip: symbol.step.toString(),
    ForexMinCont: symbol.minLots.toString(),
    ForexMaxCont: symbol.maxLots.toString(),
    ForexContNum: symbol.contractSize.toString(),
    ForexFeeRate: symbol.feeRate.toString(),
    FixedMargin: symbol.fixedMargin ? symbol.fixedMargin.toString() : null,
    Spread: markup ? symbol.spread.plus(markup.bid).plus(markup.ask).toString() : symbol.spread.toString(),
    MarkupBid: markup ? markup.bid.toString() : '0',
    MarkupAsk: markup ? markup.ask.toString() : '0',
    Tradable: symbol.tradable ? 1 : 0,
    MaxQuoteAge: Math.round(symbol.maxQuoteAgeMs / 1000),
    LastPrice: q.mid,
    HasForexMultiple: symbol.leverages.map((l) => ({ Id: l.id, ForexId: symbol.id, Value: l.value })),
    ForexQuotations: markup
      ? {
          ...quotations,
          Bid: fixed(dec(q.bid).minus(markup.bid), symbol.pricePrecision),
          Ask: fixed(dec(q.ask).plus(markup.ask), symbol.pricePrecision),
        }
      : quotations,
  };
}

/** DAY_MARKET push: one symbol's quote; `time` is the tick's epoch ms. */
export function dayMarketMessage(symbol: SymbolInfo, q: Quote, closedReason: MarketStatusReason | null): ServerMessageOf<'DAY_MARKET'> {
  const quotation: Quotation = {
    id: symbol.id,
    forex_id: symbol.id,
    open: q.open24h,
    high: q.high24h,
    low: q.low24h,
    close: q.mid,
    change: q.change,
    volume: q.volume24h,
    amount: fixed(dec(q.volume24h).times(q.mid), 2),
    bid: q.bid,
    ask: q.ask,
    time: q.time,
    market_status: closedReason === null ? MarketStatus.OPEN : MarketStatus.CLOSED,
    market_status_reason: closedReason,
  };
  return pushMessage('DAY_MARKET', { symbol: symbol.code, time: q.time, quotation });
}

/**
 * MARKET_DEPTH push on topic MARKET_DEPTH.{code}: the top of book. The broker quotes one price each side,
 * good for up to the symbol's maximum lots per order (existing clients of this API family read
 * `bids`/`asks` as [price, size] levels, best first).
 */
export function depthMessage(symbol: SymbolInfo, q: { bid: string; ask: string; time: number }): ServerMessageOf<'MARKET_DEPTH'> {
  const size = symbol.maxLots.toString();
  return pushMessage('MARKET_DEPTH', {
    symbol: symbol.code,
    forex_id: symbol.id,
    time: q.time,
    bids: [[q.bid, size]],
    asks: [[q.ask, size]],
  });
}

/** KLINE push on topic KLINE.{code}: the forming bar of one period. */
export function klineMessage(symbol: SymbolInfo, period: string, bar: Bar, tickTime: number): ServerMessageOf<'KLINE'> {
  return pushMessage('KLINE', { symbol: symbol.code, forex_id: symbol.id, time: tickTime, kline: klineBar(symbol, period, bar) });
}
