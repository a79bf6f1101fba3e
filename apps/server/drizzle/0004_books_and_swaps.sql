ALTER TABLE "withdrawals" ALTER COLUMN "real_number" SET DATA TYPE numeric(30, 10);--> statement-breakpoint
ALTER TABLE "bank_wires" RENAME COLUMN "usd_price" TO "usd_per_unit";--> statement-breakpoint
ALTER TABLE "deposit_networks" RENAME COLUMN "usd_price" TO "usd_per_unit";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "swap" numeric(24, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "swap_date" text;--> statement-breakpoint
ALTER TABLE "symbols" ADD COLUMN "swap_type" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "symbols" ADD COLUMN "swap_long" numeric(18, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "symbols" ADD COLUMN "swap_short" numeric(18, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "symbols" ADD COLUMN "swap_triple_day" smallint DEFAULT 3;--> statement-breakpoint
ALTER TABLE "withdraw_currencies" RENAME COLUMN "usd_price" TO "units_per_usd";--> statement-breakpoint
ALTER TABLE "withdraw_currencies" ADD COLUMN "decimals" smallint DEFAULT 2 NOT NULL;--> statement-breakpoint
-- hand-written: the renames above replace drizzle-kit's add/drop so stored rates keep their values (deposit
-- rates were already USD per unit, withdraw rates units per USD); payouts get their currency's decimals.
UPDATE "withdraw_currencies" SET "decimals" = CASE WHEN upper("code") IN ('BTC', 'ETH', 'LTC', 'BCH') THEN 8 WHEN upper("code") IN ('USDT', 'USDC') THEN 6 ELSE 2 END;
--> statement-breakpoint
-- The seeded symbols' swap rates (seed-data.ts SEED_SWAPS): points per lot for FX and metals (triple Wednesday),
-- percent a year for energy and indices (triple Friday) and crypto (every day once).
UPDATE "symbols" AS s SET "swap_type" = v.t, "swap_long" = v.l, "swap_short" = v.sh, "swap_triple_day" = v.d FROM (VALUES
  ('EURUSD', 1, -7.2, 2.1, 3), ('GBPUSD', 1, -4.8, 0.6, 3), ('AUDUSD', 1, -3.1, -0.9, 3), ('NZDUSD', 1, -2.4, -1.5, 3),
  ('USDJPY', 1, 14.2, -28.6, 3), ('USDCHF', 1, 5.9, -13.4, 3), ('USDCAD', 1, 0.9, -6.8, 3), ('EURJPY', 1, 8.1, -22.4, 3),
  ('GBPJPY', 1, 12.6, -31.8, 3), ('EURGBP', 1, -4.3, 0.4, 3), ('EURCHF', 1, 2.7, -9.6, 3), ('AUDJPY', 1, 6.5, -17.2, 3),
  ('XAUUSD', 1, -45.1, 22.3, 3), ('XAGUSD', 1, -6.2, 1.8, 3), ('XPTUSD', 1, -9.5, 2.4, 3),
  ('USOIL', 2, -5.5, -1.5, 5), ('UKOIL', 2, -5.5, -1.5, 5), ('NGAS', 2, -6, -2, 5),
  ('US30', 2, -6.2, 1.3, 5), ('US500', 2, -6.2, 1.3, 5), ('NAS100', 2, -6.2, 1.3, 5), ('GER40', 2, -5.6, 0.7, 5),
  ('UK100', 2, -6, 1, 5), ('JPN225', 2, -4.5, -0.5, 5),
  ('BTCUSDT', 2, -18, -18, NULL), ('ETHUSDT', 2, -18, -18, NULL), ('SOLUSDT', 2, -18, -18, NULL), ('XRPUSDT', 2, -18, -18, NULL),
  ('DOGEUSDT', 2, -18, -18, NULL), ('LTCUSDT', 2, -18, -18, NULL), ('BNBUSDT', 2, -18, -18, NULL)
) AS v(code, t, l, sh, d) WHERE s."code" = v.code AND s."swap_type" = 0;
