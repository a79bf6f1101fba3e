import { integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
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

export const uploads = pgTable('uploads', {
  id: serial('id').primaryKey(),
  userId: integer('user_id'),
  key: text('key').notNull().unique(),
  mime: text('mime').notNull(),
  size: integer('size').notNull(),
  createdAt: createdAt(),
});
