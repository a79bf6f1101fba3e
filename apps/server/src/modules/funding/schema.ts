import { bigserial, boolean, index, integer, numeric, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { money, price, createdAt } from '../../platform/db/columns.ts';

/** The funding module's tables: only the funding module reads or writes them (other modules go through its service). */

export const depositNetworks = pgTable('deposit_networks', {
  id: serial('id').primaryKey(),
  currencyCode: text('currency_code').notNull(),
  protocolCode: text('protocol_code').notNull(),
  address: text('address').notNull(),
  /** USD credited per unit of the currency deposited. */
  usdPerUnit: price('usd_per_unit').notNull().default('1'),
  enabled: boolean('enabled').notNull().default(true),
});

export const bankWires = pgTable('bank_wires', {
  id: serial('id').primaryKey(),
  bankName: text('bank_name').notNull(),
  bankAddress: text('bank_address').notNull(),
  bankSwift: text('bank_swift').notNull(),
  payeeName: text('payee_name').notNull(),
  payeeAccount: text('payee_account').notNull(),
  bankRemark: text('bank_remark').notNull().default(''),
  currency: text('currency').notNull().default('USD'),
  /** USD credited per unit of the currency wired. */
  usdPerUnit: price('usd_per_unit').notNull().default('1'),
  enabled: boolean('enabled').notNull().default(true),
});

export const deposits = pgTable(
  'deposits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    /** 0 coin, 1 bank. */
    type: smallint('type').notNull(),
    number: money('number').notNull(),
    currencyCode: text('currency_code').notNull(),
    chargeId: integer('charge_id'),
    wireId: integer('wire_id'),
    address: text('address'),
    proofImg: text('proof_img').notNull(),
    /** 0 unchecked, 1 finished, 2 rejected, 3 invalid. */
    status: smallint('status').notNull().default(0),
    remark: text('remark'),
    confirmedAmount: money('confirmed_amount'),
    creditedUsd: money('credited_usd'),
    reviewedBy: integer('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('deposits_user_idx').on(t.userId, t.id), index('deposits_status_idx').on(t.status)],
);

export const withdrawCurrencies = pgTable('withdraw_currencies', {
  id: serial('id').primaryKey(),
  code: text('code').notNull(),
  protocol: text('protocol').notNull().default(''),
  /** 1 coin, 2 bank. */
  type: smallint('type').notNull(),
  drawRate: numeric('draw_rate', { precision: 18, scale: 6 }).notNull(),
  /** 1 fixed fee, otherwise percent. */
  feeType: smallint('fee_type').notNull(),
  /** Units of the currency paid per USD withdrawn: the spec's `usd_price` of a withdraw currency. */
  unitsPerUsd: price('units_per_usd').notNull(),
  /** Decimals of a payout in this currency (BTC 8, USDT 6, fiat 2). */
  decimals: smallint('decimals').notNull().default(2),
  minAmount: money('min_amount').notNull(),
  maxAmount: money('max_amount').notNull(),
  /** Regular expression an address on this network must match (coin only). */
  addressPattern: text('address_pattern'),
  enabled: boolean('enabled').notNull().default(true),
});

export const drawMethods = pgTable(
  'draw_methods',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    /** 1 coin address, 2 bank account. */
    type: smallint('type').notNull(),
    drawCurrencyId: integer('draw_currency_id').notNull(),
    dcAddress: text('dc_address'),
    bankName: text('bank_name'),
    bankAddress: text('bank_address'),
    bankSwift: text('bank_swift'),
    payeeName: text('payee_name'),
    payeeAccount: text('payee_account'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('draw_methods_user_idx').on(t.userId)],
);

export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    drawCurrencyId: integer('draw_currency_id').notNull(),
    drawMethodId: integer('draw_method_id').notNull(),
    /** 1 coin, 2 bank. */
    type: smallint('type').notNull(),
    number: money('number').notNull(),
    fee: money('fee').notNull(),
    /** Paid in the currency, to its own decimals. */
    realNumber: numeric('real_number', { precision: 30, scale: 10 }).notNull(),
    address: text('address'),
    payeeAccount: text('payee_account'),
    memo: text('memo'),
    /** 0 pending review, 1 paid, 2 rejected. */
    status: smallint('status').notNull().default(0),
    notes: text('notes'),
    txRef: text('tx_ref'),
    reviewedBy: integer('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('withdrawals_user_idx').on(t.userId, t.id), index('withdrawals_status_idx').on(t.status)],
);
