CREATE TABLE "hedge_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cl_ord_id" text NOT NULL,
	"session" text NOT NULL,
	"symbol_id" integer NOT NULL,
	"side" text NOT NULL,
	"quantity" numeric(24, 6) NOT NULL,
	"limit_price" numeric(30, 10),
	"status" text NOT NULL,
	"filled_qty" numeric(24, 6) DEFAULT '0' NOT NULL,
	"avg_price" numeric(30, 10),
	"client_order_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reason" text NOT NULL,
	"provider_order_id" text,
	"text" text,
	"mismatch" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hedge_positions" (
	"session" text NOT NULL,
	"symbol_id" integer NOT NULL,
	"net_units" numeric(24, 6) DEFAULT '0' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hedge_positions_session_symbol_id_pk" PRIMARY KEY("session","symbol_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "hedge_orders_cl_ord_id_uq" ON "hedge_orders" USING btree ("cl_ord_id");--> statement-breakpoint
CREATE INDEX "hedge_orders_created_idx" ON "hedge_orders" USING btree ("created_at");