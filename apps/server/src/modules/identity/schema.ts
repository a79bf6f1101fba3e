import { index, integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/** The identity module's tables: only the identity module reads or writes them (other modules go through its service). */

export const identityVerifications = pgTable('identity_verifications', {
  userId: integer('user_id').primaryKey(),
  name: text('name').notNull(),
  cardId: text('card_id').notNull(),
  frontPic: text('front_pic').notNull(),
  reversePic: text('reverse_pic').notNull(),
  reviewStatus: smallint('review_status').notNull(),
  rejectReason: text('reject_reason'),
  submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  reviewedBy: integer('reviewed_by'),
});

export const uploads = pgTable(
  'uploads',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id'),
    key: text('key').notNull().unique(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    /** SHA-256 (hex) of the stored, re-encoded bytes: the same picture uploaded again has the same one. Null for uploads made before it was kept. */
    sha256: text('sha256'),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_sha256_idx').on(t.sha256)],
);
