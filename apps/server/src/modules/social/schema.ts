import { bigint, boolean, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, money } from '../../platform/db/columns.ts';

/** The social module's tables (copy trading): only the social module reads or writes them. */

/**
 * Traders who opted in as strategy providers, with their performance fee (percent of new profit) and
 * subscription fee (USD per 30 days, 0 none). suspended_at: staff suspended the provider (followers'
 * copying stops until staff resume it).
 */
export const copyProviders = pgTable('copy_providers', {
  userId: integer('user_id').primaryKey(),
  enabled: boolean('enabled').notNull().default(true),
  feePct: numeric('fee_pct', { precision: 5, scale: 2 }).notNull().default('0'),
  subFee: money('sub_fee').notNull().default('0'),
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * A follower's copy of one provider. mode 'amount' (value = the amount of their balance allocated) or
 * 'ratio' (value = follower lots per provider lot). status active | paused | stopped. start_equity is
 * the copy's equity at the start (the amount, or the follower's equity for a ratio); hwm the copy's
 * realised profit on which the performance fee was last charged. lease_until/lease_owner: the copier
 * run that holds the subscription now (one at a time, whichever server).
 */
export const copySubscriptions = pgTable(
  'copy_subscriptions',
  {
    id: serial('id').primaryKey(),
    followerId: integer('follower_id').notNull(),
    providerId: integer('provider_id').notNull(),
    mode: text('mode').notNull(),
    value: numeric('value', { precision: 24, scale: 6 }).notNull(),
    copyStopLossPct: numeric('copy_stop_loss_pct', { precision: 5, scale: 2 }),
    maxLot: numeric('max_lot', { precision: 18, scale: 6 }),
    status: text('status').notNull(),
    startEquity: money('start_equity').notNull(),
    hwm: money('hwm').notNull().default('0'),
    /** The subscription fee agreed at subscription (USD per 30 days; 0 none), the periods paid and until when. */
    subFee: money('sub_fee').notNull().default('0'),
    feePeriods: integer('fee_periods').notNull().default(0),
    paidUntil: timestamp('paid_until', { withTimezone: true }),
    stopReason: text('stop_reason'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    leaseOwner: text('lease_owner'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('copy_subscriptions_pair_uq').on(t.followerId, t.providerId),
    index('copy_subscriptions_provider_idx').on(t.providerId),
  ],
);

/**
 * One provider position as copied (or not) for one subscription: state open | closed | detached
 * (the follower closed it, or unfollowed keeping it) | skipped (refused or below the minimum lot;
 * reason says why). Unique per (subscription, provider order): a position is copied at most once.
 */
export const copyLinks = pgTable(
  'copy_links',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id').notNull(),
    providerOrderId: bigint('provider_order_id', { mode: 'number' }).notNull(),
    followerOrderId: bigint('follower_order_id', { mode: 'number' }),
    providerLots: numeric('provider_lots', { precision: 18, scale: 6 }).notNull(),
    followerLots: numeric('follower_lots', { precision: 18, scale: 6 }).notNull(),
    state: text('state').notNull(),
    reason: text('reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('copy_links_sub_order_uq').on(t.subscriptionId, t.providerOrderId),
    index('copy_links_follower_order_idx').on(t.followerOrderId),
  ],
);

/** Performance fees settled: one row per subscription and period, written with the fee's ledger posting. */
export const copyFees = pgTable(
  'copy_fees',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id').notNull(),
    period: text('period').notNull(),
    profit: money('profit').notNull(),
    hwmBefore: money('hwm_before').notNull(),
    fee: money('fee').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('copy_fees_sub_period_uq').on(t.subscriptionId, t.period)],
);

/**
 * Subscription fees: one row per subscription and period (1, 2, ...), written with the fee's ledger
 * posting (status paid), or first as unpaid when the follower could not pay (unpaid_at: when, the
 * follower's notice; the subscription is paused) and paid later at resume.
 */
export const copySubFees = pgTable(
  'copy_sub_fees',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id').notNull(),
    followerId: integer('follower_id').notNull(),
    period: integer('period').notNull(),
    fee: money('fee').notNull(),
    status: text('status').notNull(),
    paidFrom: timestamp('paid_from', { withTimezone: true }),
    paidUntil: timestamp('paid_until', { withTimezone: true }),
    unpaidAt: timestamp('unpaid_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('copy_sub_fees_sub_period_uq').on(t.subscriptionId, t.period), index('copy_sub_fees_follower_idx').on(t.followerId)],
);
