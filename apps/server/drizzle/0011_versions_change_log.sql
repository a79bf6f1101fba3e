CREATE TABLE "engine_changes" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"user_id" integer NOT NULL,
	"order_id" bigint,
	"version" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "engine_changes_cursor_idx" ON "engine_changes" USING btree ("xid","seq");
--> statement-breakpoint
-- Every update of an order raises its version, whichever code path wrote it: guarded updates check
-- the version they read, and the engine ignores a row older than the one it holds.
CREATE OR REPLACE FUNCTION orders_next_version() RETURNS trigger AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER orders_version BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION orders_next_version();
--> statement-breakpoint
-- Every committed insert or update of an order is in the engine's change log, in its own transaction.
CREATE OR REPLACE FUNCTION orders_log_change() RETURNS trigger AS $$
BEGIN
  INSERT INTO engine_changes (user_id, order_id, version) VALUES (NEW.user_id, NEW.id, NEW.version);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER orders_change_log AFTER INSERT OR UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION orders_log_change();
