CREATE TABLE "copy_sub_fees" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"follower_id" integer NOT NULL,
	"period" integer NOT NULL,
	"fee" numeric(24, 6) NOT NULL,
	"status" text NOT NULL,
	"paid_from" timestamp with time zone,
	"paid_until" timestamp with time zone,
	"unpaid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "copy_providers" ADD COLUMN "sub_fee" numeric(24, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "copy_providers" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "copy_subscriptions" ADD COLUMN "sub_fee" numeric(24, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "copy_subscriptions" ADD COLUMN "fee_periods" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "copy_subscriptions" ADD COLUMN "paid_until" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "copy_sub_fees_sub_period_uq" ON "copy_sub_fees" USING btree ("subscription_id","period");--> statement-breakpoint
CREATE INDEX "copy_sub_fees_follower_idx" ON "copy_sub_fees" USING btree ("follower_id");