CREATE TABLE "copy_fees" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"period" text NOT NULL,
	"profit" numeric(24, 6) NOT NULL,
	"hwm_before" numeric(24, 6) NOT NULL,
	"fee" numeric(24, 6) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "copy_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"provider_order_id" bigint NOT NULL,
	"follower_order_id" bigint,
	"provider_lots" numeric(18, 6) NOT NULL,
	"follower_lots" numeric(18, 6) NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "copy_providers" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"fee_pct" numeric(5, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "copy_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"follower_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"mode" text NOT NULL,
	"value" numeric(24, 6) NOT NULL,
	"copy_stop_loss_pct" numeric(5, 2),
	"max_lot" numeric(18, 6),
	"status" text NOT NULL,
	"start_equity" numeric(24, 6) NOT NULL,
	"hwm" numeric(24, 6) DEFAULT '0' NOT NULL,
	"stop_reason" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"lease_owner" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "copy_fees_sub_period_uq" ON "copy_fees" USING btree ("subscription_id","period");--> statement-breakpoint
CREATE UNIQUE INDEX "copy_links_sub_order_uq" ON "copy_links" USING btree ("subscription_id","provider_order_id");--> statement-breakpoint
CREATE INDEX "copy_links_follower_order_idx" ON "copy_links" USING btree ("follower_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "copy_subscriptions_pair_uq" ON "copy_subscriptions" USING btree ("follower_id","provider_id");--> statement-breakpoint
CREATE INDEX "copy_subscriptions_provider_idx" ON "copy_subscriptions" USING btree ("provider_id");