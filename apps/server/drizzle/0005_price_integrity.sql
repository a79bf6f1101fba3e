ALTER TABLE "symbols" ADD COLUMN "deviation_pct" numeric(8, 4) DEFAULT '5' NOT NULL;--> statement-breakpoint
ALTER TABLE "symbols" ADD COLUMN "max_quote_age_sec" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
-- hand-written: per-category defaults (seed-data.ts priceIntegrityDefaults) for stored symbols.
UPDATE "symbols" SET "deviation_pct" = CASE c."key" WHEN 'forex' THEN 2 WHEN 'crypto' THEN 10 ELSE 5 END,
  "max_quote_age_sec" = CASE c."key" WHEN 'forex' THEN 30 WHEN 'crypto' THEN 30 ELSE 60 END
FROM "categories" c WHERE c."id" = "symbols"."category_id";
