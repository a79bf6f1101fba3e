CREATE TABLE "partner_debts" (
	"partner_user_id" integer PRIMARY KEY NOT NULL,
	"amount" numeric(24, 6) DEFAULT '0' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
