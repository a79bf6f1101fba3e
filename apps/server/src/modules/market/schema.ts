import { bigint, boolean, integer, jsonb, numeric, pgTable, primaryKey, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, money, price } from '../../platform/db/columns.ts';

/** The market module's tables: only the market module reads or writes them (other modules go through its service). */

export const categories = pgTable('categories', {
  id: serial('id').primaryKey(),
  /** Stable key; its translated name comes from the server's message catalogue (category.<key>). */
  key: text('key').notNull().unique(),
  sort: integer('sort').notNull().default(0),
});

export const symbols = pgTable('symbols', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  showCode: text('show_code').notNull(),
  logo: text('logo').notNull(),
  categoryId: integer('category_id').notNull(),
  /** The currency prices are quoted in; profits convert to USD through `usdConversion`. */
  quoteCurrency: text('quote_currency').notNull().default('USD'),
  /** Symbol whose mid converts the quote currency to USD, and whether to divide by it (USDJPY) or multiply (EURGBP via GBPUSD). */
  usdConversionCode: text('usd_conversion_code'),
  usdConversionInvert: boolean('usd_conversion_invert').notNull().default(false),
  pricePrecision: smallint('price_precision').notNull(),
  contractSize: numeric('contract_size', { precision: 24, scale: 6 }).notNull(),
  minLots: numeric('min_lots', { precision: 18, scale: 6 }).notNull(),
  maxLots: numeric('max_lots', { precision: 18, scale: 6 }).notNull(),
  /** Quantity step (the spec's Pip). */
  step: numeric('step', { precision: 18, scale: 6 }).notNull(),
  feeRate: numeric('fee_rate', { precision: 18, scale: 8 }).notNull(),
  marginMode: smallint('margin_mode').notNull().default(1),
  fixedMargin: money('fixed_margin'),
  /** Markup: full spread in price units added on top of every source's quote (bid - spread/2, ask + spread/2). */
  spread: price('spread').notNull(),
  /** Deviation filter: a tick whose mid moves more than this percent from the last accepted mid is held as suspect. */
  deviationPct: numeric('deviation_pct', { precision: 8, scale: 4 }).notNull().default('5'),
  /** Not tradable when the newest live quote is older than this (seconds). */
  maxQuoteAgeSec: integer('max_quote_age_sec').notNull().default(60),
  /** Simulator parameters. */
  basePrice: price('base_price').notNull(),
  volatility: numeric('volatility', { precision: 12, scale: 8 }).notNull(),
  ticksPerSecond: numeric('ticks_per_second', { precision: 8, scale: 3 }).notNull().default('2'),
  timezone: text('timezone').notNull().default('UTC'),
  /** Weekly sessions: [{day 0-6 (Sunday 0), open "HH:MM", close "HH:MM"}] in `timezone`; empty = always open. */
  schedule: jsonb('schedule').$type<{ day: number; open: string; close: string }[]>().notNull().default([]),
  /** Dates (YYYY-MM-DD in `timezone`) on which the market stays closed. */
  holidays: jsonb('holidays').$type<string[]>().notNull().default([]),
  visible: boolean('visible').notNull().default(true),
  tradable: boolean('tradable').notNull().default(true),
  sort: integer('sort').notNull().default(0),
  /** Overnight financing (MT5's swap): 0 none, 1 in points per lot, 2 in percent per year of the position's value. */
  swapType: smallint('swap_type').notNull().default(0),
  /** What a long (buy) / short (sell) position receives per rollover; negative is a charge. */
  swapLong: numeric('swap_long', { precision: 18, scale: 6 }).notNull().default('0'),
  swapShort: numeric('swap_short', { precision: 18, scale: 6 }).notNull().default('0'),
  /** Day of the week (Sunday 0) whose rollover counts three times, rollovers then only Monday to Friday; null: every day once. */
  swapTripleDay: smallint('swap_triple_day').default(3),
});

/** HasForexMultiple: the leverages allowed for a symbol. */
export const symbolLeverages = pgTable(
  'symbol_leverages',
  {
    id: serial('id').primaryKey(),
    symbolId: integer('symbol_id').notNull(),
    value: integer('value').notNull(),
  },
  (t) => [uniqueIndex('symbol_leverages_uq').on(t.symbolId, t.value)],
);

export const candles = pgTable(
  'candles',
  {
    symbolId: integer('symbol_id').notNull(),
    period: text('period').notNull(),
    /** Bar open time, epoch milliseconds. */
    time: bigint('time', { mode: 'number' }).notNull(),
    open: price('open').notNull(),
    high: price('high').notNull(),
    low: price('low').notNull(),
    close: price('close').notNull(),
    volume: numeric('volume', { precision: 30, scale: 6 }).notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.symbolId, t.period, t.time] })],
);

/** A trader's starred symbols (the Favourites chip on home); one row per pair, at most MAX_FAVOURITES. */
export const favourites = pgTable(
  'favourites',
  {
    userId: integer('user_id').notNull(),
    symbolId: integer('symbol_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.symbolId] })],
);
