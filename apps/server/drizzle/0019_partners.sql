CREATE TABLE "partner_accrual_marks" (
	"source" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_commissions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"partner_user_id" integer NOT NULL,
	"client_user_id" integer NOT NULL,
	"tier" smallint NOT NULL,
	"kind" text NOT NULL,
	"source_type" text NOT NULL,
	"source_id" bigint NOT NULL,
	"amount" numeric(24, 6) NOT NULL,
	"lots" numeric(24, 6) DEFAULT '0' NOT NULL,
	"ledger_tx_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"id" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_payouts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"partner_user_id" integer NOT NULL,
	"amount" numeric(24, 6) NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"per_lot" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"fee_share" numeric(24, 6) DEFAULT '0' NOT NULL,
	"cpa_amount" numeric(24, 6) DEFAULT '0' NOT NULL,
	"cpa_threshold" numeric(24, 6) DEFAULT '0' NOT NULL,
	"tier_shares" jsonb DEFAULT '["100"]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"plan_id" integer,
	"parent_user_id" integer,
	"note" text DEFAULT '' NOT NULL,
	"reviewed_by" integer,
	"approved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "partner_commissions_once_uq" ON "partner_commissions" USING btree ("source_type","source_id","partner_user_id","tier","kind");--> statement-breakpoint
CREATE INDEX "partner_commissions_partner_idx" ON "partner_commissions" USING btree ("partner_user_id","id");--> statement-breakpoint
CREATE INDEX "partner_commissions_client_idx" ON "partner_commissions" USING btree ("partner_user_id","client_user_id");--> statement-breakpoint
CREATE INDEX "partner_payouts_partner_idx" ON "partner_payouts" USING btree ("partner_user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_payouts_one_open_uq" ON "partner_payouts" USING btree ("partner_user_id") WHERE "partner_payouts"."status" = 0;--> statement-breakpoint
CREATE INDEX "partners_status_idx" ON "partners" USING btree ("status");--> statement-breakpoint
CREATE INDEX "partners_parent_idx" ON "partners" USING btree ("parent_user_id");