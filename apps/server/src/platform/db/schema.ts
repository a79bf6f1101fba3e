import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Money: exact decimal, 6 places (TRADING-RULES.md). Prices: up to 10 places. Both read as strings. */
const money = (name: string) => numeric(name, { precision: 24, scale: 6 });
const price = (name: string) => numeric(name, { precision: 30, scale: 10 });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

// ---------------------------------------------------------------- users and sessions
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    uid: text('uid').notNull().unique(),
    email: text('email'),
    mobile: text('mobile'),
    areaId: integer('area_id'),
    passwordHash: text('password_hash'),
    isDemo: boolean('is_demo').notNull().default(false),
    demoId: text('demo_id').unique(),
    inviteCode: text('invite_code').notNull().unique(),
    invitedBy: integer('invited_by'),
    /** 1 active, 0 disabled by staff. */
    status: smallint('status').notNull().default(1),
    rankingOptOut: boolean('ranking_opt_out').notNull().default(false),
    displayName: text('display_name'),
    /** Optional two-factor sign-in (real accounts): the secret while set up, on once confirmed with a code. */
    totpSecret: text('totp_secret'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** The last accepted TOTP time step: a code is accepted once (RFC 6238 section 5.2). */
    totpLastStep: integer('totp_last_step'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_uq').on(sql`lower(${t.email})`), uniqueIndex('users_mobile_uq').on(t.areaId, t.mobile)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Trader sessions carry user_id; staff sessions carry staff_id. */
    userId: integer('user_id'),
    staffId: integer('staff_id'),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_staff_idx').on(t.staffId)],
);

export const staff = pgTable('staff', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  /** Any of admin, finance, risk, support, content. */
  roles: text('roles').array().notNull(),
  totpSecret: text('totp_secret'),
  totpEnabled: boolean('totp_enabled').notNull().default(false),
  /** The last accepted TOTP time step: a code is accepted once (RFC 6238 section 5.2). */
  totpLastStep: integer('totp_last_step'),
  status: smallint('status').notNull().default(1),
  createdAt: createdAt(),
});

/** One-time recovery codes of a staff member's two-factor sign-in, stored as SHA-256; each works once. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id').notNull(),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('staff_recovery_codes_staff_idx').on(t.staffId)],
);

/** Append-only: a trigger in the migration refuses UPDATE and DELETE. */
export const staffAuditLog = pgTable('staff_audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  staffId: integer('staff_id').notNull(),
  action: text('action').notNull(),
  targetType: text('target_type'),
  targetId: text('target_id'),
  before: jsonb('before'),
  after: jsonb('after'),
  createdAt: createdAt(),
});

/** Staff balance adjustments: a client key names one adjustment of one user (issue 17, finding 7). */
export const balanceAdjustments = pgTable(
  'balance_adjustments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    key: text('key').notNull(),
    amount: money('amount').notNull(),
    reason: text('reason').notNull(),
    staffId: integer('staff_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('balance_adjustments_user_key_idx').on(t.userId, t.key)],
);

// ---------------------------------------------------------------- settings and reference data
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const company = pgTable('company', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  logo: text('logo').notNull().default(''),
  url: text('url').notNull().default(''),
  subject: text('subject').notNull().default(''),
  registeredAddress: text('registered_address').notNull().default(''),
  location: text('location').notNull().default(''),
  email: text('email').notNull().default(''),
  /** Main-mode check: nonzero sends the app to loss_url. */
  status: smallint('status').notNull().default(0),
  lossUrl: text('loss_url').notNull().default(''),
  isMain: boolean('is_main').notNull().default(false),
});

export const areaCodes = pgTable('area_codes', {
  id: serial('id').primaryKey(),
  /** ISO 3166-1 alpha-2 country code. */
  code: text('code').notNull().unique(),
  /** Dialling prefix, e.g. +852. */
  globalCode: text('global_code').notNull(),
  name: text('name').notNull(),
});

// ---------------------------------------------------------------- market
export const categories = pgTable('categories', {
  id: serial('id').primaryKey(),
  /** Stable key; its translated name comes from the server's message catalogue (category.<key>). */
  key: text('key').notNull().unique(),
  sort: integer('sort').notNull().default(0),
});

export const symbols = pgTable('symbols', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  showCode: text('show_code').notNull(),
  logo: text('logo').notNull(),
  categoryId: integer('category_id').notNull(),
  /** The currency prices are quoted in; profits convert to USD through `usdConversion`. */
  quoteCurrency: text('quote_currency').notNull().default('USD'),
  /** Symbol whose mid converts the quote currency to USD, and whether to divide by it (USDJPY) or multiply (EURGBP via GBPUSD). */
  usdConversionCode: text('usd_conversion_code'),
  usdConversionInvert: boolean('usd_conversion_invert').notNull().default(false),
  pricePrecision: smallint('price_precision').notNull(),
  contractSize: numeric('contract_size', { precision: 24, scale: 6 }).notNull(),
  minLots: numeric('min_lots', { precision: 18, scale: 6 }).notNull(),
  maxLots: numeric('max_lots', { precision: 18, scale: 6 }).notNull(),
  /** Quantity step (the spec's Pip). */
  step: numeric('step', { precision: 18, scale: 6 }).notNull(),
  feeRate: numeric('fee_rate', { precision: 18, scale: 8 }).notNull(),
  marginMode: smallint('margin_mode').notNull().default(1),
  fixedMargin: money('fixed_margin'),
  /** Markup: full spread in price units added on top of every source's quote (bid - spread/2, ask + spread/2). */
  spread: price('spread').notNull(),
  /** Deviation filter: a tick whose mid moves more than this percent from the last accepted mid is held as suspect. */
  deviationPct: numeric('deviation_pct', { precision: 8, scale: 4 }).notNull().default('5'),
  /** Not tradable when the newest live quote is older than this (seconds). */
  maxQuoteAgeSec: integer('max_quote_age_sec').notNull().default(60),
  /** Simulator parameters. */
  basePrice: price('base_price').notNull(),
  volatility: numeric('volatility', { precision: 12, scale: 8 }).notNull(),
  ticksPerSecond: numeric('ticks_per_second', { precision: 8, scale: 3 }).notNull().default('2'),
  timezone: text('timezone').notNull().default('UTC'),
  /** Weekly sessions: [{day 0-6 (Sunday 0), open "HH:MM", close "HH:MM"}] in `timezone`; empty = always open. */
  schedule: jsonb('schedule').$type<{ day: number; open: string; close: string }[]>().notNull().default([]),
  /** Dates (YYYY-MM-DD in `timezone`) on which the market stays closed. */
  holidays: jsonb('holidays').$type<string[]>().notNull().default([]),
  visible: boolean('visible').notNull().default(true),
  tradable: boolean('tradable').notNull().default(true),
  sort: integer('sort').notNull().default(0),
  /** Overnight financing (MT5's swap): 0 none, 1 in points per lot, 2 in percent per year of the position's value. */
  swapType: smallint('swap_type').notNull().default(0),
  /** What a long (buy) / short (sell) position receives per rollover; negative is a charge. */
  swapLong: numeric('swap_long', { precision: 18, scale: 6 }).notNull().default('0'),
  swapShort: numeric('swap_short', { precision: 18, scale: 6 }).notNull().default('0'),
  /** Day of the week (Sunday 0) whose rollover counts three times, rollovers then only Monday to Friday; null: every day once. */
  swapTripleDay: smallint('swap_triple_day').default(3),
});

/** HasForexMultiple: the leverages allowed for a symbol. */
export const symbolLeverages = pgTable(
  'symbol_leverages',
  {
    id: serial('id').primaryKey(),
    symbolId: integer('symbol_id').notNull(),
    value: integer('value').notNull(),
  },
  (t) => [uniqueIndex('symbol_leverages_uq').on(t.symbolId, t.value)],
);

export const candles = pgTable(
  'candles',
  {
    symbolId: integer('symbol_id').notNull(),
    period: text('period').notNull(),
    /** Bar open time, epoch milliseconds. */
    time: bigint('time', { mode: 'number' }).notNull(),
    open: price('open').notNull(),
    high: price('high').notNull(),
    low: price('low').notNull(),
    close: price('close').notNull(),
    volume: numeric('volume', { precision: 30, scale: 6 }).notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.symbolId, t.period, t.time] })],
);

// ---------------------------------------------------------------- ledger
/**
 * A money account. User accounts: kind 'cash' (balance) and 'locked' (lock_balance).
 * House accounts (user_id null): fees, counterparty, deposit_clearing, withdraw_clearing, writeoff, demo_funding.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id'),
    kind: text('kind').notNull(),
    isDemo: boolean('is_demo').notNull(),
    balance: money('balance').notNull().default('0'),
    /**
     * House accounts come in shards (a user's postings go to shard userId mod the shard count), so
     * concurrent money movements of different users rarely wait on one house row. 0 for users.
     */
    shard: smallint('shard').notNull().default(0),
  },
  (t) => [
    uniqueIndex('ledger_accounts_user_uq')
      .on(t.userId, t.kind)
      .where(sql`${t.userId} is not null`),
    uniqueIndex('ledger_accounts_house_shard_uq')
      .on(t.kind, t.isDemo, t.shard)
      .where(sql`${t.userId} is null`),
  ],
);

export const ledgerTransactions = pgTable('ledger_transactions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  kind: text('kind').notNull(),
  refType: text('ref_type'),
  refId: text('ref_id'),
  /** Makes a money movement happen once: the same key never writes a second transaction. */
  idemKey: text('idem_key').unique(),
  isDemo: boolean('is_demo').notNull(),
  createdAt: createdAt(),
});

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    txId: bigint('tx_id', { mode: 'number' }).notNull(),
    accountId: integer('account_id').notNull(),
    amount: money('amount').notNull(),
    /** Entry type shown in the account log (e.g. open_fee, margin_lock, profit, deposit). */
    type: text('type').notNull(),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('ledger_entries_account_idx').on(t.accountId, t.id), index('ledger_entries_tx_idx').on(t.txId)],
);

// ---------------------------------------------------------------- trading
export const orders = pgTable(
  'orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    symbolId: integer('symbol_id').notNull(),
    isDemo: boolean('is_demo').notNull(),
    /** 1 buy, 2 sell. */
    orderType: smallint('order_type').notNull(),
    /** 0 pending, 1 open, 3 closed, 4 cancelled. */
    status: smallint('status').notNull(),
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull(),
    multiple: integer('multiple').notNull(),
    contractSize: numeric('contract_size', { precision: 24, scale: 6 }).notNull(),
    /** Target price of a pending order. */
    originPrice: price('origin_price'),
    /** 'limit' or 'stop' for pending orders. */
    pendingKind: text('pending_kind'),
    price: price('price'),
    updatePrice: price('update_price'),
    targetProfitPrice: price('target_profit_price'),
    targetLossPrice: price('target_loss_price'),
    cautionMoney: money('caution_money').notNull(),
    tradeFee: money('trade_fee').notNull(),
    factProfits: money('fact_profits').notNull().default('0'),
    /** Swaps posted to the balance so far (USD, accumulated); not part of floating profit. */
    swap: money('swap').notNull().default('0'),
    /** The New York date of the last rollover charged: the guard that makes each rollover post once. */
    swapDate: text('swap_date'),
    closedType: smallint('closed_type'),
    cancelReason: text('cancel_reason'),
    clientOrderId: text('client_order_id'),
    /** Pending orders: cancelled by the system at this time (null: good till cancelled). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Open positions: the stop-loss follows the price at this distance in points (null: no trailing stop). */
    trailingPoints: integer('trailing_points'),
    createdAt: createdAt(),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('orders_user_status_idx').on(t.userId, t.status, t.id),
    index('orders_live_idx')
      .on(t.symbolId)
      .where(sql`${t.status} in (0, 1)`),
    uniqueIndex('orders_client_id_uq').on(t.userId, t.clientOrderId),
  ],
);

export const riskEvents = pgTable('risk_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: integer('user_id').notNull(),
  kind: text('kind').notNull(),
  riskRate: numeric('risk_rate', { precision: 18, scale: 4 }),
  createdAt: createdAt(),
});

/**
 * Price alerts: "tell me when EURUSD bid crosses 1.0900". `direction` is fixed when the alert is set
 * (1: the price rises to `price`, -1: it falls to it); `firedAt` is set once, by a guarded update.
 */
export const priceAlerts = pgTable(
  'price_alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    symbolId: integer('symbol_id').notNull(),
    /** 'bid' or 'ask'. */
    side: text('side').notNull(),
    direction: smallint('direction').notNull(),
    price: price('price').notNull(),
    /** Also email this address when it fires (null: push only); `lang` is the language of the email. */
    email: text('email'),
    lang: text('lang').notNull(),
    createdAt: createdAt(),
    firedAt: timestamp('fired_at', { withTimezone: true }),
    firedPrice: price('fired_price'),
  },
  (t) => [
    index('price_alerts_user_idx').on(t.userId, t.id),
    index('price_alerts_active_idx')
      .on(t.symbolId)
      .where(sql`${t.firedAt} is null`),
  ],
);

/** A trader's starred symbols (the Favourites chip on home); one row per pair, at most MAX_FAVOURITES. */
export const favourites = pgTable(
  'favourites',
  {
    userId: integer('user_id').notNull(),
    symbolId: integer('symbol_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.symbolId] })],
);

// ---------------------------------------------------------------- identity, codes, uploads
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

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: serial('id').primaryKey(),
    channel: text('channel').notNull(),
    destination: text('destination').notNull(),
    /** 1 register, 2 reset. */
    purpose: smallint('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: smallint('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_dest_idx').on(t.destination, t.purpose)],
);

/** Messages that would have been sent without a mail or SMS provider; the back office reads them. */
export const outbox = pgTable('outbox', {
  id: serial('id').primaryKey(),
  channel: text('channel').notNull(),
  destination: text('destination').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
});

export const captchas = pgTable('captchas', {
  id: text('id').primaryKey(),
  answerHash: text('answer_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

// ---------------------------------------------------------------- funding
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

// ---------------------------------------------------------------- content and support
export const news = pgTable('news', {
  id: serial('id').primaryKey(),
  categoryId: integer('category_id').notNull().default(1),
  title: text('title').notNull(),
  desc: text('desc').notNull().default(''),
  logo: text('logo').notNull().default(''),
  /** Sanitized HTML. */
  content: text('content').notNull(),
  published: boolean('published').notNull().default(true),
  createdAt: createdAt(),
});

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    /** 'user' or 'staff'. */
    sender: text('sender').notNull(),
    staffId: integer('staff_id'),
    body: text('body').notNull().default(''),
    imageUrl: text('image_url'),
    readByUser: boolean('read_by_user').notNull().default(false),
    readByStaff: boolean('read_by_staff').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('chat_messages_user_idx').on(t.userId, t.id)],
);

export const feedback = pgTable('feedback', {
  id: serial('id').primaryKey(),
  userId: integer('user_id'),
  contact: text('contact').notNull().default(''),
  content: text('content').notNull(),
  status: smallint('status').notNull().default(0),
  createdAt: createdAt(),
});
