ALTER TABLE "orders" ADD COLUMN "close_fee" numeric(24, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "markup_bid" numeric(30, 10);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "markup_ask" numeric(30, 10);