CREATE TABLE "area_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"global_code" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "area_codes_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "bank_wires" (
	"id" serial PRIMARY KEY NOT NULL,
	"bank_name" text NOT NULL,
	"bank_address" text NOT NULL,
	"bank_swift" text NOT NULL,
	"payee_name" text NOT NULL,
	"payee_account" text NOT NULL,
	"bank_remark" text DEFAULT '' NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"usd_price" numeric(30, 10) DEFAULT '1' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "candles" (
	"symbol_id" integer NOT NULL,
	"period" text NOT NULL,
	"time" bigint NOT NULL,
	"open" numeric(30, 10) NOT NULL,
	"high" numeric(30, 10) NOT NULL,
	"low" numeric(30, 10) NOT NULL,
	"close" numeric(30, 10) NOT NULL,
	"volume" numeric(30, 6) DEFAULT '0' NOT NULL,
	CONSTRAINT "candles_symbol_id_period_time_pk" PRIMARY KEY("symbol_id","period","time")
);
--> statement-breakpoint
CREATE TABLE "captchas" (
	"id" text PRIMARY KEY NOT NULL,
	"answer_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "categories_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"sender" text NOT NULL,
	"staff_id" integer,
	"body" text DEFAULT '' NOT NULL,
	"image_url" text,
	"read_by_user" boolean DEFAULT false NOT NULL,
	"read_by_staff" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"logo" text DEFAULT '' NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"registered_address" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"loss_url" text DEFAULT '' NOT NULL,
	"is_main" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_networks" (
	"id" serial PRIMARY KEY NOT NULL,
	"currency_code" text NOT NULL,
	"protocol_code" text NOT NULL,
	"address" text NOT NULL,
	"usd_price" numeric(30, 10) DEFAULT '1' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"number" numeric(24, 6) NOT NULL,
	"currency_code" text NOT NULL,
	"charge_id" integer,
	"wire_id" integer,
	"address" text,
	"proof_img" text NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"remark" text,
	"confirmed_amount" numeric(24, 6),
	"credited_usd" numeric(24, 6),
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "draw_methods" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"draw_currency_id" integer NOT NULL,
	"dc_address" text,
	"bank_name" text,
	"bank_address" text,
	"bank_swift" text,
	"payee_name" text,
	"payee_account" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"contact" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_verifications" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"card_id" text NOT NULL,
	"front_pic" text NOT NULL,
	"reverse_pic" text NOT NULL,
	"review_status" smallint NOT NULL,
	"reject_reason" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" integer
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"kind" text NOT NULL,
	"is_demo" boolean NOT NULL,
	"balance" numeric(24, 6) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tx_id" bigint NOT NULL,
	"account_id" integer NOT NULL,
	"amount" numeric(24, 6) NOT NULL,
	"type" text NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"ref_type" text,
	"ref_id" text,
	"idem_key" text,
	"is_demo" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_transactions_idem_key_unique" UNIQUE("idem_key")
);
--> statement-breakpoint
CREATE TABLE "news" (
	"id" serial PRIMARY KEY NOT NULL,
	"category_id" integer DEFAULT 1 NOT NULL,
	"title" text NOT NULL,
	"desc" text DEFAULT '' NOT NULL,
	"logo" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"symbol_id" integer NOT NULL,
	"is_demo" boolean NOT NULL,
	"order_type" smallint NOT NULL,
	"status" smallint NOT NULL,
	"quantity" numeric(18, 6) NOT NULL,
	"multiple" integer NOT NULL,
	"contract_size" numeric(24, 6) NOT NULL,
	"origin_price" numeric(30, 10),
	"pending_kind" text,
	"price" numeric(30, 10),
	"update_price" numeric(30, 10),
	"target_profit_price" numeric(30, 10),
	"target_loss_price" numeric(30, 10),
	"caution_money" numeric(24, 6) NOT NULL,
	"trade_fee" numeric(24, 6) NOT NULL,
	"fact_profits" numeric(24, 6) DEFAULT '0' NOT NULL,
	"closed_type" smallint,
	"cancel_reason" text,
	"client_order_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opened_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"destination" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"risk_rate" numeric(18, 4),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"staff_id" integer,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"roles" text[] NOT NULL,
	"totp_secret" text,
	"totp_enabled" boolean DEFAULT false NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "staff_audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"staff_id" integer NOT NULL,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "symbol_leverages" (
	"id" serial PRIMARY KEY NOT NULL,
	"symbol_id" integer NOT NULL,
	"value" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "symbols" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"show_code" text NOT NULL,
	"logo" text NOT NULL,
	"category_id" integer NOT NULL,
	"quote_currency" text DEFAULT 'USD' NOT NULL,
	"usd_conversion_code" text,
	"usd_conversion_invert" boolean DEFAULT false NOT NULL,
	"price_precision" smallint NOT NULL,
	"contract_size" numeric(24, 6) NOT NULL,
	"min_lots" numeric(18, 6) NOT NULL,
	"max_lots" numeric(18, 6) NOT NULL,
	"step" numeric(18, 6) NOT NULL,
	"fee_rate" numeric(18, 8) NOT NULL,
	"margin_mode" smallint DEFAULT 1 NOT NULL,
	"fixed_margin" numeric(24, 6),
	"spread" numeric(30, 10) NOT NULL,
	"base_price" numeric(30, 10) NOT NULL,
	"volatility" numeric(12, 8) NOT NULL,
	"ticks_per_second" numeric(8, 3) DEFAULT '2' NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"schedule" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"holidays" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"tradable" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "symbols_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"key" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uploads_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"email" text,
	"mobile" text,
	"area_id" integer,
	"password_hash" text,
	"is_demo" boolean DEFAULT false NOT NULL,
	"demo_id" text,
	"invite_code" text NOT NULL,
	"invited_by" integer,
	"status" smallint DEFAULT 1 NOT NULL,
	"ranking_opt_out" boolean DEFAULT false NOT NULL,
	"display_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_uid_unique" UNIQUE("uid"),
	CONSTRAINT "users_demo_id_unique" UNIQUE("demo_id"),
	CONSTRAINT "users_invite_code_unique" UNIQUE("invite_code")
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"destination" text NOT NULL,
	"purpose" smallint NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdraw_currencies" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"protocol" text DEFAULT '' NOT NULL,
	"type" smallint NOT NULL,
	"draw_rate" numeric(18, 6) NOT NULL,
	"fee_type" smallint NOT NULL,
	"usd_price" numeric(30, 10) NOT NULL,
	"min_amount" numeric(24, 6) NOT NULL,
	"max_amount" numeric(24, 6) NOT NULL,
	"address_pattern" text,
	"enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"draw_currency_id" integer NOT NULL,
	"draw_method_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"number" numeric(24, 6) NOT NULL,
	"fee" numeric(24, 6) NOT NULL,
	"real_number" numeric(24, 6) NOT NULL,
	"address" text,
	"payee_account" text,
	"memo" text,
	"status" smallint DEFAULT 0 NOT NULL,
	"notes" text,
	"tx_ref" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "chat_messages_user_idx" ON "chat_messages" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "deposits_user_idx" ON "deposits" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "deposits_status_idx" ON "deposits" USING btree ("status");--> statement-breakpoint
CREATE INDEX "draw_methods_user_idx" ON "draw_methods" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_user_uq" ON "ledger_accounts" USING btree ("user_id","kind") WHERE "ledger_accounts"."user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_house_uq" ON "ledger_accounts" USING btree ("kind","is_demo") WHERE "ledger_accounts"."user_id" is null;--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_tx_idx" ON "ledger_entries" USING btree ("tx_id");--> statement-breakpoint
CREATE INDEX "orders_user_status_idx" ON "orders" USING btree ("user_id","status","id");--> statement-breakpoint
CREATE INDEX "orders_live_idx" ON "orders" USING btree ("symbol_id") WHERE "orders"."status" in (0, 1);--> statement-breakpoint
CREATE UNIQUE INDEX "orders_client_id_uq" ON "orders" USING btree ("user_id","client_order_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_staff_idx" ON "sessions" USING btree ("staff_id");--> statement-breakpoint
CREATE UNIQUE INDEX "symbol_leverages_uq" ON "symbol_leverages" USING btree ("symbol_id","value");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_mobile_uq" ON "users" USING btree ("area_id","mobile");--> statement-breakpoint
CREATE INDEX "verification_codes_dest_idx" ON "verification_codes" USING btree ("destination","purpose");--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "withdrawals_status_idx" ON "withdrawals" USING btree ("status");