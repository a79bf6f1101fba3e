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
