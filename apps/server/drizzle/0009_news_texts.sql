CREATE TABLE "news_texts" (
	"news_id" integer NOT NULL,
	"lang" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"desc" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	CONSTRAINT "news_texts_news_id_lang_pk" PRIMARY KEY("news_id","lang")
);
--> statement-breakpoint
ALTER TABLE "news_texts" ADD CONSTRAINT "news_texts_news_id_news_id_fk" FOREIGN KEY ("news_id") REFERENCES "public"."news"("id") ON DELETE cascade ON UPDATE no action;