CREATE TABLE "favourites" (
	"user_id" integer NOT NULL,
	"symbol_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favourites_user_id_symbol_id_pk" PRIMARY KEY("user_id","symbol_id")
);
