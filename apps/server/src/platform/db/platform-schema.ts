import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/** Tables of the platform layer, open to every module: key/value settings and the outbox of unsent messages. */

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** Messages that would have been sent without a mail or SMS provider; the back office reads them. */
export const outbox = pgTable('outbox', {
  id: serial('id').primaryKey(),
  channel: text('channel').notNull(),
  destination: text('destination').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
});

/**
 * The leader's lease (migration 0012): one row, renewed by the leader; taking the lead bumps the
 * epoch, and the engine's transactions check theirs against it (the leader_fence function), so a
 * superseded leader's writes are refused. Only platform/leader.ts and that function touch it.
 */
export const leaderLease = pgTable(
  'leader_lease',
  {
    id: smallint('id').primaryKey().default(1),
    epoch: bigint('epoch', { mode: 'number' }).notNull().default(0),
    holder: text('holder'),
    expiresAt: timestamp('expires_at', { withTimezone: true })
      .notNull()
      .default(sql`'epoch'`),
  },
  (t) => [check('leader_lease_id_check', sql`${t.id} = 1`)],
);
