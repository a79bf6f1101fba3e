ALTER TABLE "uploads" ADD COLUMN "sha256" text;--> statement-breakpoint
CREATE INDEX "uploads_sha256_idx" ON "uploads" USING btree ("sha256");