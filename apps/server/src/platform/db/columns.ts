import { numeric, timestamp } from 'drizzle-orm/pg-core';

/** Money: exact decimal, 6 places (TRADING-RULES.md). Prices: up to 10 places. Both read as strings. */
export const money = (name: string) => numeric(name, { precision: 24, scale: 6 });
export const price = (name: string) => numeric(name, { precision: 30, scale: 10 });
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
