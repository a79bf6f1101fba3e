/**
 * What the market module offers other modules (trading, funding, admin). The market module
 * implements `MarketService`; others reach it as `ctx.services.market`.
 */
import type { MarketStatusReason } from '@tp/contract/constants';
import type { Dec } from '@tp/contract/decimal';

/** One price update of one symbol. Prices are decimal strings at the symbol's precision. */
export interface Tick {
  symbolId: number;
  code: string;
  bid: string;
  ask: string;
  mid: string;
  /** Epoch milliseconds. */
  time: number;
  /** Traded volume attributed to this tick (simulated), for candles. */
  volume?: string;
  /** Epoch milliseconds at which the source priced it, when the source says so: quote age counts from it. */
  sourceTime?: number;
}

export interface Quote extends Tick {
  open24h: string;
  high24h: string;
  low24h: string;
  /** Percent change against open24h, 2 decimals. */
  change: string;
  volume24h: string;
}

/** A symbol's trading terms, parsed once (kept in memory, refreshed when staff edit it). */
export interface SymbolInfo {
  id: number;
  code: string;
  showCode: string;
  logo: string;
  categoryId: number;
  /** The category's stable key (forex, commodities, indices, crypto, or one staff added). */
  categoryKey?: string;
  pricePrecision: number;
  contractSize: Dec;
  minLots: Dec;
  maxLots: Dec;
  step: Dec;
  feeRate: Dec;
  marginMode: number;
  fixedMargin: Dec | null;
  spread: Dec;
  leverages: { id: number; value: number }[];
  quoteCurrency: string;
  usdConversionCode: string | null;
  usdConversionInvert: boolean;
  visible: boolean;
  tradable: boolean;
  /** Overnight financing: SwapType, rates per rollover (negative is a charge), the day counted three times (null: none). */
  swapType: number;
  swapLong: Dec;
  swapShort: Dec;
  swapTripleDay: number | null;
}

/** A price as a source hands it in: the source's own bid and ask, before the symbol's markup. */
export type SourceTick = Omit<Tick, 'code' | 'mid'>;

/** One symbol's feed as staff and metrics see it. */
export interface FeedHealth {
  symbolId: number;
  code: string;
  state: 'live' | 'stale' | 'no_tick' | 'closed';
  lastTickAgeMs: number | null;
  suspectTicks: number;
}

export type TickListener = (tick: Tick) => void;

export interface MarketService {
  symbol(id: number): SymbolInfo | undefined;
  symbolByCode(code: string): SymbolInfo | undefined;
  symbols(): SymbolInfo[];
  /** The newest quote, or undefined before the first tick. */
  quote(symbolId: number): Quote | undefined;
  /**
   * Tradable now: inside the weekly schedule, not on a holiday, a live quote no older than the
   * symbol's maximum age, no suspect jump held by the deviation filter, and the same of the pair
   * its profit converts through.
   */
  isOpen(symbolId: number, at?: number): boolean;
  /** Inside the weekly schedule and not on a holiday (quote age aside). */
  inSession(symbolId: number, at?: number): boolean;
  /** Why the symbol is not tradable at `at`, or null when it is (MarketStatusReason). */
  closedReason(symbolId: number, at?: number): MarketStatusReason | null;
  /** Per symbol: live, stale, no live tick since start, or outside its sessions; last tick age and ticks held by the deviation filter. */
  feedHealth(): FeedHealth[];
  /** Multiplier from the symbol's quote currency to USD at current mids (1 for USD-quoted). */
  quoteToUsd(symbolId: number): Dec;
  /**
   * The single entry of every price: price sources call it, tests call it to move prices.
   * Adds the symbol's markup to the source's bid and ask, holds a suspect jump (PRICE-INTEGRITY.md),
   * updates quotes and candles, then calls tick listeners synchronously (the engine), then publishes
   * DAY_MARKET / KLINE to the bus. Returns false when ignored (outside the symbol's sessions, invalid) or held.
   */
  publishTick(tick: SourceTick): boolean;
  onTick(listener: TickListener): () => void;
  /** Reloads symbols from the database (after staff edits). */
  reloadSymbols(): Promise<void>;
}
