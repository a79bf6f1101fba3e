import { and, asc, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import { type Dec, dec, fixed } from '@tp/contract/decimal';
import type { DbOrTx } from '../../platform/db/client.ts';
import { candles, categories, symbolLeverages, symbols } from './schema.ts';
import type { TradingHours } from './market-hours.ts';
import type { SymbolInfo } from './types.ts';

/** A symbol as the market module keeps it: the shared terms plus hours and simulator parameters. */
export interface MarketSymbol extends SymbolInfo {
  hours: TradingHours;
  basePrice: string;
  volatility: number;
  ticksPerSecond: number;
  sort: number;
  /** Deviation filter threshold, percent of the last accepted mid. */
  deviationPct: Dec;
  maxQuoteAgeMs: number;
}

/** One candle bar; prices at the symbol's precision, time = bar open in epoch ms. */
export interface Bar {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** The bar with prices at the symbol's precision and volume without trailing zeros. */
export const barAtPrecision = <B extends Bar>(b: B, precision: number): B => ({
  ...b,
  open: fixed(b.open, precision),
  high: fixed(b.high, precision),
  low: fixed(b.low, precision),
  close: fixed(b.close, precision),
  volume: dec(b.volume).toString(),
});

export interface StoredBar extends Bar {
  symbolId: number;
  period: string;
}

export async function loadSymbols(db: DbOrTx): Promise<MarketSymbol[]> {
  const rows = await db.select().from(symbols).orderBy(asc(symbols.sort), asc(symbols.id));
  const levs = await db.select().from(symbolLeverages).orderBy(asc(symbolLeverages.value), asc(symbolLeverages.id));
  const keys = new Map((await db.select({ id: categories.id, key: categories.key }).from(categories)).map((c) => [c.id, c.key]));
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    showCode: r.showCode,
    logo: r.logo,
    categoryId: r.categoryId,
    categoryKey: keys.get(r.categoryId),
    pricePrecision: r.pricePrecision,
    contractSize: dec(r.contractSize),
    minLots: dec(r.minLots),
    maxLots: dec(r.maxLots),
    step: dec(r.step),
    feeRate: dec(r.feeRate),
    marginMode: r.marginMode,
    fixedMargin: r.fixedMargin === null ? null : dec(r.fixedMargin),
    spread: dec(r.spread),
    leverages: levs.filter((l) => l.symbolId === r.id).map((l) => ({ id: l.id, value: l.value })),
    quoteCurrency: r.quoteCurrency,
    usdConversionCode: r.usdConversionCode,
    usdConversionInvert: r.usdConversionInvert,
    visible: r.visible,
    tradable: r.tradable,
    swapType: r.swapType,
    swapLong: dec(r.swapLong),
    swapShort: dec(r.swapShort),
    swapTripleDay: r.swapTripleDay,
    hours: { timezone: r.timezone, schedule: r.schedule, holidays: r.holidays },
    basePrice: r.basePrice,
    // Simulator parameters only shape random prices; they are never money.
    volatility: Number(r.volatility),
    ticksPerSecond: Number(r.ticksPerSecond),
    sort: r.sort,
    deviationPct: dec(r.deviationPct),
    maxQuoteAgeMs: r.maxQuoteAgeSec * 1000,
  }));
}

export const loadCategories = (db: DbOrTx) => db.select().from(categories).orderBy(asc(categories.sort), asc(categories.id));

const barColumns = {
  symbolId: candles.symbolId,
  period: candles.period,
  time: candles.time,
  open: candles.open,
  high: candles.high,
  low: candles.low,
  close: candles.close,
  volume: candles.volume,
};

/** The newest stored bar of every symbol and period. */
export async function latestBars(db: DbOrTx): Promise<StoredBar[]> {
  const res = (await db.execute(
    sql`select distinct on (symbol_id, period) symbol_id, period, time, open, high, low, close, volume
        from candles order by symbol_id, period, time desc`,
  )) as unknown as { rows: Record<string, unknown>[] };
  return res.rows.map((r) => ({
    symbolId: Number(r.symbol_id),
    period: String(r.period),
    time: Number(r.time),
    open: String(r.open),
    high: String(r.high),
    low: String(r.low),
    close: String(r.close),
    volume: String(r.volume),
  }));
}

/** Bars of one symbol and period since a time, oldest first. */
export async function barsSince(db: DbOrTx, symbolId: number, period: string, since: number): Promise<StoredBar[]> {
  return db
    .select(barColumns)
    .from(candles)
    .where(and(eq(candles.symbolId, symbolId), eq(candles.period, period), gte(candles.time, since)))
    .orderBy(asc(candles.time));
}

/** Up to `limit` bars older than `before` (or at most `end`), newest first. */
export async function barsBefore(
  db: DbOrTx,
  q: { symbolId: number; period: string; limit: number; before?: number; end?: number },
): Promise<StoredBar[]> {
  const conds = [eq(candles.symbolId, q.symbolId), eq(candles.period, q.period)];
  if (q.before !== undefined) conds.push(lt(candles.time, q.before));
  if (q.end !== undefined) conds.push(lte(candles.time, q.end));
  return db
    .select(barColumns)
    .from(candles)
    .where(and(...conds))
    .orderBy(desc(candles.time))
    .limit(q.limit);
}

const CHUNK = 2000;

/** Inserts or updates bars (on symbol, period, time), in chunks. */
export async function upsertBars(db: DbOrTx, bars: StoredBar[]): Promise<void> {
  for (let i = 0; i < bars.length; i += CHUNK) {
    await db
      .insert(candles)
      .values(bars.slice(i, i + CHUNK))
      .onConflictDoUpdate({
        target: [candles.symbolId, candles.period, candles.time],
        set: { high: sql`excluded.high`, low: sql`excluded.low`, close: sql`excluded.close`, volume: sql`excluded.volume` },
      });
  }
}

const HISTORY_CHUNK = 20_000;

/** Inserts generated history; bars already there are kept. One array parameter per column keeps large batches fast. */
export async function insertHistory(db: DbOrTx, bars: StoredBar[]): Promise<void> {
  for (let i = 0; i < bars.length; i += HISTORY_CHUNK) {
    const chunk = bars.slice(i, i + HISTORY_CHUNK);
    const col = <K extends keyof StoredBar>(k: K) => `{${chunk.map((b) => (k === 'period' ? `"${b[k]}"` : b[k])).join(',')}}`;
    await db.execute(sql`
      insert into candles (symbol_id, period, time, open, high, low, close, volume)
      select * from unnest(${col('symbolId')}::int[], ${col('period')}::text[], ${col('time')}::bigint[], ${col('open')}::numeric[],
        ${col('high')}::numeric[], ${col('low')}::numeric[], ${col('close')}::numeric[], ${col('volume')}::numeric[])
      on conflict do nothing`);
  }
}

/** How many bars each symbol has per period. */
export async function barCounts(db: DbOrTx): Promise<Map<string, number>> {
  const rows = await db
    .select({ symbolId: candles.symbolId, period: candles.period, n: sql<number>`count(*)::int` })
    .from(candles)
    .groupBy(candles.symbolId, candles.period);
  return new Map(rows.map((r) => [`${r.symbolId}|${r.period}`, Number(r.n)]));
}
