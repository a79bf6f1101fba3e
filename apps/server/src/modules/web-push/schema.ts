import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/** Devices a trader's notices are pushed to: the browser's push endpoint and its encryption keys. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    /** The push service's URL for this device (unique: a device re-subscribing under another user moves to them). */
    endpoint: text('endpoint').notNull(),
    /** The device's P-256 public key and authentication secret (base64url), to encrypt each message (RFC 8291). */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
);

/** Per trader: the events not to push (none by default) and the language the trader last used. */
export const pushPreferences = pgTable('push_preferences', {
  userId: integer('user_id').primaryKey(),
  offEvents: text('off_events')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  lang: text('lang'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
