-- An update of an order raised its version in a BEFORE trigger and wrote its change-log row in an
-- AFTER trigger: two PL/pgSQL calls and the after-trigger queue on every close, fill and stop edit.
-- One BEFORE UPDATE trigger now does both (its insert commits or rolls back with the update, and a
-- row the update's WHERE no longer matches fires no trigger). Inserts keep their AFTER trigger, so
-- an insert skipped by ON CONFLICT DO NOTHING writes no change-log row.
DROP TRIGGER orders_version ON orders;
--> statement-breakpoint
DROP TRIGGER orders_change_log ON orders;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_versioned_update() RETURNS trigger AS $$
BEGIN
  NEW.version := OLD.version + 1;
  INSERT INTO engine_changes (user_id, order_id, version) VALUES (NEW.user_id, NEW.id, NEW.version);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER orders_versioned_update BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION orders_versioned_update();
--> statement-breakpoint
CREATE TRIGGER orders_change_log AFTER INSERT ON orders FOR EACH ROW EXECUTE FUNCTION orders_log_change();
--> statement-breakpoint
DROP FUNCTION orders_next_version();
