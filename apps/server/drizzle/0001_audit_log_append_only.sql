-- The staff audit log can be written, never edited or deleted.
CREATE OR REPLACE FUNCTION staff_audit_log_immutable() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'staff_audit_log is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER staff_audit_log_no_update BEFORE UPDATE OR DELETE ON staff_audit_log
  FOR EACH ROW EXECUTE FUNCTION staff_audit_log_immutable();
