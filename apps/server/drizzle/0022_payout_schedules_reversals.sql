CREATE TABLE "partner_payout_schedules" (
	"plan_id" integer PRIMARY KEY NOT NULL,
	"schedule" text DEFAULT 'off' NOT NULL,
	"minimum" numeric(24, 6) DEFAULT '0' NOT NULL,
	"auto_approve" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partner_payouts" ADD COLUMN "period" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reversed_by" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reversal_reason" text;--> statement-breakpoint
CREATE UNIQUE INDEX "partner_payouts_period_uq" ON "partner_payouts" USING btree ("partner_user_id","period") WHERE "partner_payouts"."period" is not null;--> statement-breakpoint
CREATE INDEX "orders_reversed_idx" ON "orders" USING btree ("reversed_at") WHERE "orders"."reversed_at" is not null;