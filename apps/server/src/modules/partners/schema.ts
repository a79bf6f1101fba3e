import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, money } from '../../platform/db/columns.ts';

/** The partners module's tables (introducing brokers): only the partners module reads or writes them. */

/**
 * A commission plan set by staff: per lot traded by a referred client (by symbol category key, '*'
 * for any other), a share of the trade fee the client paid, and a CPA paid once on a client's first
 * deposit of at least `cpaThreshold`. `tierShares` passes the plan's rates up the tree: the first is
 * the direct partner's share (percent), the next their parent's, and so on (its length is the depth).
 */
export const partnerPlans = pgTable('partner_plans', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** { category key: USD per lot }. */
  perLot: jsonb('per_lot').$type<Record<string, string>>().notNull().default({}),
  /** Percent of the trade fee the client paid (0–100). */
  feeShare: money('fee_share').notNull().default('0'),
  cpaAmount: money('cpa_amount').notNull().default('0'),
  cpaThreshold: money('cpa_threshold').notNull().default('0'),
  /** Percent of the plan's rate per tier, tier 1 first. */
  tierShares: jsonb('tier_shares').$type<string[]>().notNull().default(['100']),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user who applied to be a partner. Status 0 applied, 1 approved, 2 refused. */
export const partners = pgTable(
  'partners',
  {
    userId: integer('user_id').primaryKey(),
    status: smallint('status').notNull().default(0),
    planId: integer('plan_id'),
    /** The partner above (the approved partner whose code this partner registered with), set on approval. */
    parentUserId: integer('parent_user_id'),
    note: text('note').notNull().default(''),
    reviewedBy: integer('reviewed_by'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('partners_status_idx').on(t.status), index('partners_parent_idx').on(t.parentUserId)],
);

/**
 * One commission earned: per (source, partner, tier), written in the transaction of its ledger
 * posting (the same key), so a close or deposit pays each partner of each tier once. Source: 'order'
 * (a closed order, a partial close being its own closed order) or 'cpa' (a client's deposit).
 */
export const partnerCommissions = pgTable(
  'partner_commissions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    partnerUserId: integer('partner_user_id').notNull(),
    clientUserId: integer('client_user_id').notNull(),
    tier: smallint('tier').notNull(),
    /** 'lot', 'fee', 'cpa' or 'clawback'. */
    kind: text('kind').notNull(),
    sourceType: text('source_type').notNull(),
    sourceId: bigint('source_id', { mode: 'number' }).notNull(),
    amount: money('amount').notNull(),
    lots: money('lots').notNull().default('0'),
    ledgerTxId: bigint('ledger_tx_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('partner_commissions_once_uq').on(t.sourceType, t.sourceId, t.partnerUserId, t.tier, t.kind),
    index('partner_commissions_partner_idx').on(t.partnerUserId, t.id),
    index('partner_commissions_client_idx').on(t.partnerUserId, t.clientUserId),
  ],
);

/**
 * Sources already weighed (each closed order of a referred client, each client's CPA), whether or not
 * they paid anything: the accrual never weighs one twice.
 */
export const partnerAccrualMarks = pgTable('partner_accrual_marks', {
  source: text('source').primaryKey(),
  createdAt: createdAt(),
});

/** Where the accrual worker has read closes up to (completed_at, order id); one row per stream. */
export const partnerCursors = pgTable('partner_cursors', {
  name: text('name').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  id: bigint('id', { mode: 'number' }).notNull().default(0),
});

/**
 * A payout the partner asked for, or one the payout worker created at the end of a scheduled period
 * (`period` set: 'W2026-11-16' the week starting that Monday, 'M2026-10' the month): 0 requested, 1
 * paid, 2 refused. Approval moves payable to cash once; a period pays each partner once (unique).
 */
export const partnerPayouts = pgTable(
  'partner_payouts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    partnerUserId: integer('partner_user_id').notNull(),
    amount: money('amount').notNull(),
    status: smallint('status').notNull().default(0),
    period: text('period'),
    reviewedBy: integer('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('partner_payouts_partner_idx').on(t.partnerUserId, t.id),
    uniqueIndex('partner_payouts_one_open_uq')
      .on(t.partnerUserId)
      .where(sql`${t.status} = 0`),
    uniqueIndex('partner_payouts_period_uq')
      .on(t.partnerUserId, t.period)
      .where(sql`${t.period} is not null`),
  ],
);

/**
 * Scheduled payouts, set by staff globally (plan_id 0) or for one plan (overriding the global one):
 * 'off', 'weekly' (periods end on Monday 00:00 UTC) or 'monthly' (the 1st, 00:00 UTC). At a period's
 * end each partner's payable, when at least `minimum`, becomes a payout: a request staff approve as
 * any other, or paid at once when `autoApprove`.
 */
export const partnerPayoutSchedules = pgTable('partner_payout_schedules', {
  planId: integer('plan_id').primaryKey(),
  schedule: text('schedule').notNull().default('off'),
  minimum: money('minimum').notNull().default('0'),
  autoApprove: boolean('auto_approve').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
