-- The leader's lease: one row, renewed by the leader every second or so. A server takes the lead
-- when the lease has expired (a paused or partitioned leader) or when the old leader's session
-- lock is gone (a dead one), and bumps the epoch; the engine's transactions check their epoch
-- against it under a share lock, so a resumed old leader's writes are refused.
CREATE TABLE IF NOT EXISTS "leader_lease" (
	"id" smallint PRIMARY KEY DEFAULT 1 CHECK ("id" = 1),
	"epoch" bigint NOT NULL DEFAULT 0,
	"holder" text,
	"expires_at" timestamp with time zone NOT NULL DEFAULT 'epoch'
);
--> statement-breakpoint
INSERT INTO "leader_lease" ("id") VALUES (1) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION leader_fence(e bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM leader_lease WHERE id = 1 AND epoch = e FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'leader epoch % was superseded', e USING ERRCODE = 'TPF01';
  END IF;
END $$;
