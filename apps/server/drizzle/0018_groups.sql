CREATE TABLE "account_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"profile" text DEFAULT 'none' NOT NULL,
	"margin_call_level" numeric(12, 2),
	"stop_out_level" numeric(12, 2),
	"stop_out_policy" text DEFAULT 'largest_loss' NOT NULL,
	"max_open_positions" integer,
	"max_pending_orders" integer,
	"negative_balance_protection" boolean,
	"book" text DEFAULT 'B' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_symbols" (
	"group_id" integer NOT NULL,
	"symbol_id" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"spread_markup_points" integer DEFAULT 0 NOT NULL,
	"leverages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"max_lots" numeric(18, 6),
	"commission_type" text,
	"commission_rate" numeric(18, 8) DEFAULT '0' NOT NULL,
	"swap_free" boolean DEFAULT false NOT NULL,
	"swap_long" numeric(18, 6),
	"swap_short" numeric(18, 6),
	"deviation_points" integer,
	"hedge_threshold_lots" numeric(18, 6),
	"leverage_tiers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "group_symbols_group_id_symbol_id_pk" PRIMARY KEY("group_id","symbol_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "account_groups_name_uq" ON "account_groups" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "account_groups_default_uq" ON "account_groups" USING btree ("kind") WHERE "account_groups"."is_default";--> statement-breakpoint
INSERT INTO "account_groups" ("id", "name", "kind", "profile", "margin_call_level", "stop_out_level", "stop_out_policy", "negative_balance_protection", "book", "is_default") VALUES
	(1, 'Demo', 'demo', 'none', NULL, NULL, 'largest_loss', NULL, 'B', true),
	(2, 'Standard', 'real', 'none', NULL, NULL, 'largest_loss', NULL, 'B', true),
	(3, 'Professional', 'real', 'professional', 80, 30, 'largest_loss', false, 'B', false);--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('account_groups', 'id'), 3);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "group_id" integer;--> statement-breakpoint
UPDATE "users" SET "group_id" = CASE WHEN "is_demo" THEN 1 ELSE 2 END;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "group_id" SET NOT NULL;
