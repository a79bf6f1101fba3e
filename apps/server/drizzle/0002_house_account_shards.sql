DROP INDEX "ledger_accounts_house_uq";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_house_shard_uq" ON "ledger_accounts" USING btree ("kind","is_demo","shard") WHERE "ledger_accounts"."user_id" is null;