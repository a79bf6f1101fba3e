import { z } from 'zod';
import { MONEY_SCALE } from '../constants.ts';
import { parseAmount } from '../decimal.ts';
import { BankWireSchema, WithdrawCurrencySchema } from './funding.ts';
import {
  blank,
  boundedText,
  idField,
  intField,
  MAX_BIG_ID,
  optionalChoiceField,
  optionalIdField,
  orUndefined,
  PageInput,
  pageOf,
  requiredText,
} from './fields.ts';

/**
 * Back office calls (/api/admin/...): staff, dashboard, users, trading setup, funding setup, audit log.
 * Form and query values arrive as strings. Amounts and prices travel as exact decimal strings.
 */

/** Answer code of /api/admin/login when the password is right and a TOTP code is needed. */
export const STAFF_TOTP_REQUIRED = 1020;
/**
 * Answer code of /api/admin/login when the password is right but the member's roles need two-factor
 * sign-in and it is not set up yet: `data` is {secret, otpauth_url}; sign in again with a code from it.
 */
export const STAFF_TOTP_SETUP = 1021;
/** Roles that move money or risk settings: their staff must sign in with TOTP. */
export const STAFF_TOTP_ROLES_DEFAULT = 'finance,risk,admin';

export const STAFF_ROLES = ['admin', 'finance', 'risk', 'support', 'content'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

const id = idField;
const optionalId = optionalIdField();
const intIn = (min: number, max: number) => intField(min, max, 'admin.invalid_number');
const optionalText = boundedText;
const flag = z.preprocess(
  (v) => (typeof v === 'string' || typeof v === 'number' ? ['1', 'true', 'on', 'yes'].includes(String(v).toLowerCase()) : v),
  z.boolean({ error: 'msg:input_full' }),
);
/** A non-negative exact decimal (prices, rates, lots) with at most `places` decimals; its NUMERIC(18+, places) column holds 18 - places integer digits. */
const decimalField = (places: number) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z
      .string({ error: 'msg:admin.invalid_number' })
      .trim()
      .regex(new RegExp(`^\\d{1,${18 - places}}(\\.\\d{1,${places}})?$`), 'msg:admin.invalid_number'),
  );
/** An exact decimal that may be negative (swap rates: negative is a charge). */
const signedDecimal = (places: number) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z
      .string({ error: 'msg:admin.invalid_number' })
      .trim()
      .regex(new RegExp(`^-?\\d{1,12}(\\.\\d{1,${places}})?$`), 'msg:admin.invalid_number'),
  );
/** JSON arrays may arrive as arrays (JSON body) or as JSON text (form body). */
const jsonArray = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    },
    z.array(item, { error: 'msg:admin.invalid_list' }),
  );

export { PageInput, pageOf };
export const IdInput = z.object({ id: id('not_found') });

// ---------------------------------------------------------------- staff and TOTP
const roleList = jsonArray(z.enum(STAFF_ROLES, { error: 'msg:admin.invalid_role' })).refine(
  (r) => r.length > 0,
  'msg:admin.roles_required',
);
const rolesField = z.preprocess(
  (v) =>
    typeof v === 'string' && !v.trim().startsWith('[')
      ? v
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean)
      : v,
  roleList,
);

export const StaffSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  totp_enabled: z.boolean(),
  status: z.number().int(),
  created_at: z.string(),
});
export type Staff = z.infer<typeof StaffSchema>;
export const StaffCreateInput = z.object({
  email: z.string({ error: 'msg:input_full' }).trim().toLowerCase().email('msg:admin.invalid_email').max(200),
  name: requiredText(100),
  password: z.string({ error: 'msg:input_full' }).min(10, 'msg:admin.password_too_short').max(200),
  roles: rolesField,
});
export const StaffRolesInput = z.object({ id: id('not_found'), roles: rolesField });
export const StaffStatusInput = z.object({ id: id('not_found'), status: intIn(0, 1) });
export const TotpSetupSchema = z.object({ secret: z.string(), otpauth_url: z.string() });
/** One-time recovery codes: shown once, when two-factor sign-in is turned on or the codes are renewed. */
export const RecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export const StaffLoginAnswer = z.object({
  token: z.string(),
  staff: z.object({ id: z.number(), email: z.string(), name: z.string(), roles: z.array(z.string()) }),
  /** Present once, at the sign-in that turned two-factor on. */
  recovery_codes: z.array(z.string()).optional(),
});
export const TotpEnableInput = z.object({
  code: z
    .string({ error: 'msg:admin.totp_code_required' })
    .trim()
    .regex(/^\d{6}$/, 'msg:admin.totp_code_required'),
});

// ---------------------------------------------------------------- dashboard
export const ExposureSchema = z.object({
  symbol_id: z.number().int(),
  code: z.string(),
  positions: z.number().int(),
  buy_lots: z.string(),
  sell_lots: z.string(),
  net_lots: z.string(),
  /** Net units (lots x contract size, buys minus sells) x current mid, in USD. */
  notional: z.string(),
});
export const DashboardSchema = z.object({
  users: z.object({ real: z.number().int(), demo: z.number().int(), verified: z.number().int() }),
  deposits_waiting: z.number().int(),
  withdrawals_waiting: z.number().int(),
  open_positions: z.number().int(),
  exposure: z.array(ExposureSchema),
  /** Real money today (UTC): what the house earned as counterparty and in fees. */
  house_profit_today: z.string(),
  fees_today: z.string(),
  margin_calls_today: z.number().int(),
  stop_outs_today: z.number().int(),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

// ---------------------------------------------------------------- dealer's desk
export const DeskExposureInput = z.object({ demo: optionalChoiceField([0, 1]) });
/** One symbol's open client positions, seen from the house (the counterparty of each). */
export const DeskSymbolSchema = z.object({
  symbol_id: z.number().int(),
  code: z.string(),
  positions: z.number().int(),
  long_lots: z.string(),
  short_lots: z.string(),
  /** Long lots less short lots. */
  net_lots: z.string(),
  /** Units (lots x contract size) x current mid, converted to USD: longs, shorts, and longs less shorts. */
  long_usd: z.string(),
  short_usd: z.string(),
  net_usd: z.string(),
  /** The house's floating profit in USD: the negative of the clients' floating profit at current quotes. */
  house_floating: z.string(),
  /** The desk's limit on the clients' net lots in the symbol either way (null: none set). */
  limit_lots: z.string().nullable().optional(),
  /** 1 when the net lots pass the limit either way. */
  over_limit: z.number().int().optional(),
});
const DeskTotalsSchema = z.object({
  positions: z.number().int(),
  long_usd: z.string(),
  short_usd: z.string(),
  net_usd: z.string(),
  house_floating: z.string(),
});
/** One account group's share of the book: its clients' positions per symbol (each with the group's own limit), and its execution book. */
export const DeskGroupSchema = z.object({
  group_id: z.number().int(),
  name: z.string(),
  /** The group's execution book: B (the house keeps the risk), A (hedged at the provider) or hybrid. */
  book: z.enum(['B', 'A', 'hybrid']),
  symbols: z.array(DeskSymbolSchema),
  totals: DeskTotalsSchema,
});
export const DeskExposureSchema = z.object({
  is_demo: z.number().int(),
  /** Where the open positions were read: the engine's live books, or the database (a server not running the engine). */
  source: z.enum(['engine', 'database']),
  /** When the figures were computed (Unix milliseconds). */
  time: z.number().int(),
  symbols: z.array(DeskSymbolSchema),
  totals: DeskTotalsSchema,
  /** The same figures per account group with open positions (by name); each symbol's limit is the group's own. */
  groups: z.array(DeskGroupSchema),
  /** The house's realised result as counterparty today (UTC), in USD. */
  house_realised_today: z.string(),
});
export type DeskExposure = z.infer<typeof DeskExposureSchema>;

/**
 * The hedge book (docs/fix.md#hedging): per symbol, the A-book and hybrid groups' clients' net lots,
 * what the providers should hold (their target) and what they hold; per provider session and symbol,
 * the position; the newest hedge orders; the mismatches between clients' positions and hedges.
 * Lots are signed (buys positive).
 */
export const DeskHedgesSchema = z.object({
  time: z.number().int(),
  /** 1 when hedge orders can be sent now: a FIX session of this server (the leader) is logged on, or this server hands them to the leader. */
  connected: z.number().int(),
  symbols: z.array(
    z.object({
      symbol_id: z.number().int(),
      code: z.string(),
      clients_net_lots: z.string(),
      target_lots: z.string(),
      hedged_lots: z.string(),
      /** Target minus held: what the next reconciler pass sends (0: they agree). */
      difference_lots: z.string(),
    }),
  ),
  positions: z.array(
    z.object({ session: z.string(), symbol_id: z.number().int(), code: z.string(), net_lots: z.string(), updated_at: z.string() }),
  ),
  orders: z.array(
    z.object({
      id: z.number().int(),
      cl_ord_id: z.string(),
      session: z.string(),
      code: z.string(),
      side: z.enum(['buy', 'sell']),
      lots: z.string(),
      /** sent, new, partial, filled, cancelled, rejected, timeout. */
      status: z.string(),
      filled_lots: z.string(),
      avg_price: z.string().nullable(),
      /** a_open, a_close, hybrid, unwind. */
      reason: z.string(),
      client_order_ids: z.array(z.number().int()),
      /** rejected, timeout, partial, late_fill, unwind_failed, target_not_reached; null: none. */
      mismatch: z.string().nullable(),
      text: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  /** Hedge orders marked with a mismatch over the last 24 hours. */
  mismatches: z.number().int(),
});
export type DeskHedges = z.infer<typeof DeskHedgesSchema>;

/** The clients who move the house's book (one account kind). */
const DeskClientBase = { user_id: z.number().int(), email: z.string() };
export const DeskClientsSchema = z.object({
  is_demo: z.number().int(),
  source: z.enum(['engine', 'database']),
  time: z.number().int(),
  /** The largest open positions by USD value at current mids. */
  largest_positions: z.array(
    z.object({
      ...DeskClientBase,
      order_id: z.number().int(),
      code: z.string(),
      /** 1 buy, 2 sell. */
      type: z.number().int(),
      lots: z.string(),
      usd: z.string(),
      floating: z.string(),
    }),
  ),
  /** Accounts with the largest floating profit now. */
  top_floating: z.array(z.object({ ...DeskClientBase, positions: z.number().int(), floating: z.string(), equity: z.string() })),
  /** Accounts with the largest realised profit over the last 30 days (closed positions' profit, before fees). */
  top_30d: z.array(z.object({ ...DeskClientBase, trades: z.number().int(), profit: z.string() })),
  /**
   * Accounts at or within 50% above their margin-call level: margin level (percent), whether a margin
   * call is in force, and since when (the last margin-call event, ISO time; null when none recorded).
   */
  near_margin: z.array(
    z.object({
      ...DeskClientBase,
      margin_level: z.string(),
      margin_call: z.number().int(),
      stop_out_level: z.string(),
      since: z.string().nullable(),
    }),
  ),
  /**
   * Flow quality over the last 30 days, per client with closed trades: average holding time, the share
   * of trades closed within `quick_seconds` in profit, and `toxic` 1 when that share is at least
   * `toxic_share` over at least `toxic_min_trades` trades.
   */
  flow: z.array(
    z.object({
      ...DeskClientBase,
      trades: z.number().int(),
      avg_hold_seconds: z.number().int(),
      quick_wins: z.number().int(),
      quick_win_share: z.string(),
      toxic: z.number().int(),
    }),
  ),
  rules: z.object({ quick_seconds: z.number().int(), toxic_share: z.string(), toxic_min_trades: z.number().int() }),
});
export type DeskClients = z.infer<typeof DeskClientsSchema>;

/** A limit on the clients' net lots in a symbol: of every client (group_id null), or of one account group's clients. */
export const DeskLimitSchema = z.object({
  symbol_id: z.number().int(),
  code: z.string(),
  max_net_lots: z.string(),
  group_id: z.number().int().nullable(),
  group_name: z.string().nullable(),
});
/** A symbol's limit on the clients' net lots (with `group_id`, on that group's clients only); empty or 0 removes it. */
export const DeskLimitSaveInput = z.object({
  symbol_id: id('not_found'),
  group_id: optionalIdField('not_found'),
  max_net_lots: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z
      .string({ error: 'msg:admin.invalid_number' })
      .trim()
      .regex(/^(\d{1,10}(\.\d{1,2})?)?$/, 'msg:admin.invalid_number'),
  ),
});

// ---------------------------------------------------------------- users
export const UserSearchInput = PageInput.extend({ q: optionalText(200).default('') });
export const AdminUserSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  email: z.string(),
  mobile: z.string(),
  is_demo: z.number().int(),
  status: z.number().int(),
  invite_code: z.string(),
  review_status: z.number().int(),
  balance: z.string(),
  lock_balance: z.string(),
  created_at: z.string(),
  /** The user's account group (GET /api/admin/groups/list). */
  group_id: z.number().int(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;
export const UserIdInput = z.object({ user_id: id('not_found') });
export const UserApiKeyRevokeInput = z.object({ user_id: id('not_found'), id: id('not_found') });
export const UserPageInput = PageInput.extend({ user_id: id('not_found') });
export const UserOrdersInput = UserPageInput.extend({ status: optionalChoiceField([0, 1, 3, 4]) });
export const UserSessionSchema = z.object({
  id: z.number().int(),
  ip: z.string(),
  user_agent: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
/** Without session_id every session of the user ends. */
export const EndSessionsInput = z.object({ user_id: id('not_found'), session_id: optionalIdField('not_found', MAX_BIG_ID) });
export const UserStatusInput = z.object({ user_id: id('not_found'), status: intIn(0, 1) });
export const LedgerEntrySchema = z.object({
  id: z.number().int(),
  account: z.string(),
  amount: z.string(),
  type: z.string(),
  memo: z.string(),
  created_at: z.string(),
});

/** A signed amount: "-12.5" takes money away, "12.5" adds it; never zero. */
export const signedAmountField = z.unknown().transform((raw, ctx) => {
  if (blank(raw)) {
    ctx.addIssue({ code: 'custom', message: 'msg:amount_required' });
    return z.NEVER;
  }
  // Only text or a number is an amount: an array (["10"]) or an object is refused, never turned to text.
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    ctx.addIssue({ code: 'custom', message: 'msg:amount_format' });
    return z.NEVER;
  }
  const s = String(raw).trim();
  const negative = s.startsWith('-');
  const parsed = parseAmount(negative || s.startsWith('+') ? s.slice(1) : s, MONEY_SCALE);
  if (!parsed.ok) {
    // The sign is already taken off: a second one is a format error.
    ctx.addIssue({ code: 'custom', message: `msg:amount_${parsed.reason === 'negative' ? 'format' : parsed.reason}` });
    return z.NEVER;
  }
  return (negative ? parsed.value.negated() : parsed.value).toString();
});
export const AdjustBalanceInput = z.object({
  user_id: id('not_found'),
  amount: signedAmountField,
  reason: requiredText(500),
  /** The client's key for this request: a repeated request never posts twice. */
  key: z.string({ error: 'msg:input_full' }).trim().min(8, 'msg:input_full').max(100),
});
export const AdjustBalanceSchema = z.object({ balance: z.string(), lock_balance: z.string(), duplicate: z.boolean() });

// ---------------------------------------------------------------- trading setup
export const ScheduleItemSchema = z.object({
  day: intField(0, 6, 'admin.invalid_list'),
  open: z.string().regex(/^([01]\d|2[0-4]):[0-5]\d$/),
  close: z.string().regex(/^([01]\d|2[0-4]):[0-5]\d$/),
});
export const AdminSymbolSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  show_code: z.string(),
  category_id: z.number().int(),
  price_precision: z.number().int(),
  contract_size: z.string(),
  min_lots: z.string(),
  max_lots: z.string(),
  step: z.string(),
  spread: z.string(),
  /** Deviation filter threshold, percent of the last accepted mid. */
  deviation_pct: z.string(),
  /** Not tradable when the newest live quote is older than this. */
  max_quote_age_sec: z.number().int(),
  fee_rate: z.string(),
  margin_mode: z.number().int(),
  fixed_margin: z.string(),
  leverages: z.array(z.number().int()),
  timezone: z.string(),
  schedule: z.array(ScheduleItemSchema),
  holidays: z.array(z.string()),
  visible: z.boolean(),
  tradable: z.boolean(),
  sort: z.number().int(),
  /** Swaps: 0 none, 1 points per lot, 2 percent a year; per rollover, negative is a charge; triple day 0-6 (Sunday 0), -1 none (every day once). */
  swap_type: z.number().int(),
  swap_long: z.string(),
  swap_short: z.string(),
  swap_triple_day: z.number().int(),
});
export type AdminSymbol = z.infer<typeof AdminSymbolSchema>;
/** Fields left out keep their value. */
export const SymbolSaveInput = z.object({
  id: id('not_found'),
  show_code: optionalText(50).optional(),
  category_id: optionalId,
  price_precision: intIn(0, 10).optional(),
  contract_size: decimalField(6).optional(),
  min_lots: decimalField(6).optional(),
  max_lots: decimalField(6).optional(),
  step: decimalField(6).optional(),
  spread: decimalField(10).optional(),
  deviation_pct: decimalField(4).optional(),
  max_quote_age_sec: intIn(1, 86_400).optional(),
  fee_rate: decimalField(8).optional(),
  margin_mode: intIn(1, 2).optional(),
  fixed_margin: z.preprocess(orUndefined, decimalField(6).optional()),
  leverages: z
    .preprocess(
      (v) =>
        typeof v === 'string' && !v.trim().startsWith('[')
          ? v
              .split(',')
              .map((x) => x.trim())
              .filter(Boolean)
          : v,
      jsonArray(intField(1, 10_000, 'admin.invalid_list')),
    )
    .optional(),
  schedule: jsonArray(ScheduleItemSchema).optional(),
  holidays: jsonArray(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'msg:admin.invalid_list')).optional(),
  visible: flag.optional(),
  tradable: flag.optional(),
  sort: intIn(-1_000_000, 1_000_000).optional(),
  swap_type: intIn(0, 2).optional(),
  swap_long: signedDecimal(6).optional(),
  swap_short: signedDecimal(6).optional(),
  swap_triple_day: intIn(-1, 6).optional(),
});
/** One symbol's feed (GET /api/admin/feed-health): live, stale, no live tick since start, or outside its sessions. */
export const FeedHealthSchema = z.object({
  symbolId: z.number().int(),
  code: z.string(),
  state: z.enum(['live', 'stale', 'no_tick', 'closed']),
  lastTickAgeMs: z.number().int().nullable(),
  suspectTicks: z.number().int(),
});
export type FeedHealthRow = z.infer<typeof FeedHealthSchema>;
/** One FIX 4.4 price session (PRICE_SOURCE=fix; docs/fix.md) as the leader runs it. */
export const FixSessionSchema = z.object({
  name: z.string(),
  primary: z.boolean(),
  loggedOn: z.boolean(),
  /** Epoch milliseconds of the newest message received (heartbeats included). */
  lastMessageAt: z.number().int().nullable(),
  inSeqNum: z.number().int(),
  outSeqNum: z.number().int(),
  gaps: z.number().int(),
  reconnects: z.number().int(),
  quotes: z.number().int(),
});
/** GET /api/admin/fix-feed: the routing mode, each session's state and, per symbol, the sessions its bid and ask come from (null: no live provider). */
export const FixFeedSchema = z.object({
  mode: z.enum(['failover', 'best']).nullable(),
  sessions: z.array(FixSessionSchema),
  symbols: z.array(z.object({ code: z.string(), bid: z.string().nullable(), ask: z.string().nullable() })),
});
export type FixFeed = z.infer<typeof FixFeedSchema>;
export const AdminCategorySchema = z.object({ id: z.number().int(), key: z.string(), sort: z.number().int() });
export const CategorySaveInput = z.object({
  id: optionalId,
  key: z
    .string({ error: 'msg:input_full' })
    .trim()
    .regex(/^[a-z0-9_]{1,40}$/, 'msg:admin.invalid_key'),
  sort: intIn(-1_000_000, 1_000_000).default(0),
});
export const PositionListInput = PageInput.extend({ user_id: optionalId, symbol_id: optionalId });

// ---------------------------------------------------------------- trading fees
/** Highest ForexFeeRate per trade_fee_type: 1 USD per lot, 2 a fraction of the margin (0.05 = 5%). */
export const FEE_RATE_MAX: Record<number, string> = { 1: '100', 2: '0.05' };
/** A change of the fee type and of any symbols' fee rates (symbols left out keep theirs). */
export const FeeChangeInput = z.object({
  trade_fee_type: intIn(1, 2),
  rates: jsonArray(z.object({ id: id('not_found'), fee_rate: decimalField(8) })).default([]),
});
export const FeePreviewRowSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  /** The 1-lot trade is priced at the current mid and the symbol's lowest leverage (the largest margin). */
  leverage: z.number().int(),
  fee_rate_before: z.string(),
  fee_rate: z.string(),
  /** USD a 1-lot trade pays now and after the change ('' without a quote). */
  fee_before: z.string(),
  fee_after: z.string(),
  in_range: z.boolean(),
});
export const FeePreviewSchema = z.object({
  trade_fee_type_before: z.number().int(),
  trade_fee_type: z.number().int(),
  max_rate: z.string(),
  rows: z.array(FeePreviewRowSchema),
});
export type FeePreview = z.infer<typeof FeePreviewSchema>;

// ---------------------------------------------------------------- funding setup
export const AdminDepositNetworkSchema = z.object({
  id: z.number().int(),
  currency_code: z.string(),
  protocol_code: z.string(),
  address: z.string(),
  /** USD credited per unit deposited. */
  usd_per_unit: z.string(),
  enabled: z.boolean(),
});
export const DepositNetworkSaveInput = z.object({
  id: optionalId,
  currency_code: requiredText(20),
  protocol_code: requiredText(40),
  address: requiredText(200),
  usd_per_unit: decimalField(10),
  enabled: flag.default(true),
});
/** A bank wire account as traders see it, plus what only staff see. */
export const AdminBankWireSchema = BankWireSchema.extend({ usd_per_unit: z.string(), enabled: z.boolean() });
export const BankWireSaveInput = z.object({
  id: optionalId,
  bank_name: requiredText(200),
  bank_address: optionalText(300).default(''),
  bank_swift: optionalText(40).default(''),
  payee_name: requiredText(200),
  payee_account: requiredText(100),
  bank_remark: optionalText(500).default(''),
  currency: requiredText(20),
  usd_per_unit: decimalField(10),
  enabled: flag.default(true),
});
/** A withdrawal currency as traders see it, plus what only staff see. */
export const AdminWithdrawCurrencySchema = WithdrawCurrencySchema.omit({ usd_price: true }).extend({
  /** The spec's usd_price, named by its direction. */
  units_per_usd: z.string(),
  address_pattern: z.string(),
  enabled: z.boolean(),
});
export const WithdrawCurrencySaveInput = z.object({
  id: optionalId,
  code: requiredText(20),
  protocol: optionalText(40).default(''),
  type: intIn(1, 2),
  draw_rate: decimalField(6),
  fee_type: intIn(1, 2),
  /** Units of the currency paid per USD (BTC about 0.0000105, EUR about 0.92). */
  units_per_usd: decimalField(10),
  decimals: intIn(0, 8).default(2),
  min_amount: decimalField(6),
  max_amount: decimalField(6),
  address_pattern: optionalText(300).default(''),
  enabled: flag.default(true),
});

// ---------------------------------------------------------------- audit log
export const AuditListInput = PageInput.extend({
  staff_id: optionalId,
  action: optionalText(100).default(''),
  target_type: optionalText(50).default(''),
  target_id: optionalText(50).default(''),
});
export const AuditRowSchema = z.object({
  id: z.number().int(),
  staff_id: z.number().int(),
  staff_email: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: z.string(),
});
export type AuditRow = z.infer<typeof AuditRowSchema>;

// ---------------------------------------------------------------- orders (staff view)
export const AdminOrderSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  user: z.string(),
  symbol: z.string(),
  is_demo: z.number().int(),
  /** 1 buy, 2 sell. */
  order_type: z.number().int(),
  /** 0 pending, 1 open, 3 closed, 4 cancelled. */
  status: z.number().int(),
  quantity: z.string(),
  multiple: z.number().int(),
  origin_price: z.string(),
  price: z.string(),
  update_price: z.string(),
  caution_money: z.string(),
  trade_fee: z.string(),
  fact_profits: z.string(),
  closed_type: z.number().int(),
  created_at: z.string(),
  completed_at: z.string(),
  /** A closed trade staff reversed (its profit/loss and fee taken back): when ('' never) and why. */
  reversed_at: z.string(),
  reversal_reason: z.string(),
});
export type AdminOrder = z.infer<typeof AdminOrderSchema>;

// ---------------------------------------------------------------- account groups (risk)
/**
 * Account groups: every user belongs to one. A group sets account-wide terms (margin-call and stop-out
 * levels, stop-out policy, limits on open positions and pending orders, negative balance protection,
 * execution book, regulatory profile) and, per symbol, the terms its members trade on. A symbol with no
 * row in the group is enabled on the symbol's own terms.
 */
export const GROUP_KINDS = ['demo', 'real'] as const;
export const GROUP_PROFILES = ['none', 'esma_retail', 'professional'] as const;
export const STOP_OUT_POLICIES = ['largest_loss', 'largest_margin', 'partial'] as const;
export const GROUP_BOOKS = ['B', 'A', 'hybrid'] as const;
export const COMMISSION_TYPES = ['per_lot', 'per_million', 'percent_of_margin'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];
export type GroupProfile = (typeof GROUP_PROFILES)[number];
export type StopOutPolicy = (typeof STOP_OUT_POLICIES)[number];
export type GroupBook = (typeof GROUP_BOOKS)[number];
export type CommissionType = (typeof COMMISSION_TYPES)[number];

/** One leverage tier: positions in the symbol up to `up_to_lots` (cumulative; null: beyond the last) at most at `leverage`. */
export const LeverageTierSchema = z.object({
  up_to_lots: z.string().nullable(),
  leverage: z.number().int(),
});
/** A group's terms for one symbol. Nulls and empty lists take the symbol's own value. */
export const GroupSymbolSchema = z.object({
  symbol_id: z.number().int(),
  code: z.string(),
  /** false: the group's members may not open new positions or orders on it. */
  enabled: z.boolean(),
  /** Points added to the symbol's spread (half on each side). */
  spread_markup_points: z.number().int(),
  /** The leverages offered; empty: the symbol's list. */
  leverages: z.array(z.number().int()),
  /** The largest order, in lots; null: the symbol's. */
  max_lots: z.string().nullable(),
  /** Commission per side: per lot (USD), per million USD notional, or percent of the margin; null: the symbol's fee on the house's fee type. */
  commission_type: z.enum(COMMISSION_TYPES).nullable(),
  commission_rate: z.string(),
  swap_free: z.boolean(),
  /** Swap overrides in the symbol's swap type; null: the symbol's. */
  swap_long: z.string().nullable(),
  swap_short: z.string().nullable(),
  /** The default deviation in points for market orders; null: the symbol's. */
  deviation_points: z.number().int().nullable(),
  /** Hybrid book: net lots of the group's clients the house keeps in the symbol; the excess is hedged with the provider (null: the house keeps it all; docs/fix.md#hedging). */
  hedge_threshold_lots: z.string().nullable(),
  /** Leverage tiers, ascending by up_to_lots; empty: none. */
  leverage_tiers: z.array(LeverageTierSchema),
});
export type GroupSymbol = z.infer<typeof GroupSymbolSchema>;
export const AccountGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(GROUP_KINDS),
  profile: z.enum(GROUP_PROFILES),
  /** Percent (equity / margin); an account at or below is in margin call. '': the house's setting. */
  margin_call_level: z.string(),
  /** Percent; an account at or below is stopped out (positions closed by the policy). '': the house's setting (an ESMA retail group: at least 50). */
  stop_out_level: z.string(),
  stop_out_policy: z.enum(STOP_OUT_POLICIES),
  /** 0: the house's setting. */
  max_open_positions: z.number().int(),
  /** 0: the house's setting. */
  max_pending_orders: z.number().int(),
  /** null: the house's setting (an ESMA retail group: always on). */
  negative_balance_protection: z.boolean().nullable(),
  book: z.enum(GROUP_BOOKS),
  /** The group new real users join (exactly one real group is). */
  is_default: z.boolean(),
  /** Increases with every save. */
  version: z.number().int(),
  /** How many users are in the group. */
  members: z.number().int(),
  symbols: z.array(GroupSymbolSchema),
});
export type AccountGroup = z.infer<typeof AccountGroupSchema>;

const levelField = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : v),
  z
    .string({ error: 'msg:admin.invalid_number' })
    .trim()
    .regex(/^(\d{1,6}(\.\d{1,2})?)?$/, 'msg:admin.invalid_number'),
);
const nullableDecimal = (places: number) => z.preprocess((v) => (v === '' ? null : v), decimalField(places).nullable());
export const GroupSymbolInput = z.object({
  symbol_id: id('not_found'),
  enabled: flag.default(true),
  spread_markup_points: intIn(0, 1_000_000).default(0),
  leverages: jsonArray(intField(1, 10_000, 'admin.invalid_list')).default([]),
  max_lots: nullableDecimal(6).default(null),
  commission_type: z
    .preprocess((v) => (v === '' ? null : v), z.enum(COMMISSION_TYPES, { error: 'msg:admin.invalid_list' }).nullable())
    .default(null),
  commission_rate: decimalField(8).default('0'),
  swap_free: flag.default(false),
  swap_long: z.preprocess((v) => (v === '' ? null : v), signedDecimal(6).nullable()).default(null),
  swap_short: z.preprocess((v) => (v === '' ? null : v), signedDecimal(6).nullable()).default(null),
  deviation_points: z.preprocess((v) => (v === '' ? null : v), intIn(0, 1_000_000).nullable()).default(null),
  hedge_threshold_lots: nullableDecimal(6).default(null),
  leverage_tiers: jsonArray(
    z.object({
      up_to_lots: nullableDecimal(6).default(null),
      leverage: intField(1, 10_000, 'admin.invalid_list'),
    }),
  ).default([]),
});
export type GroupSymbolSave = z.infer<typeof GroupSymbolInput>;
/**
 * Creates a group (no id: name and kind needed) or updates one (fields left out keep their value;
 * `symbols`, when given, replaces every row of the group). A level of '', a cap of 0 and a
 * negative_balance_protection of null take the house's setting.
 */
export const GroupSaveInput = z.object({
  id: optionalId,
  name: optionalText(100).optional(),
  kind: z.enum(GROUP_KINDS, { error: 'msg:admin.invalid_list' }).optional(),
  profile: z.enum(GROUP_PROFILES, { error: 'msg:admin.invalid_list' }).optional(),
  margin_call_level: levelField.optional(),
  stop_out_level: levelField.optional(),
  stop_out_policy: z.enum(STOP_OUT_POLICIES, { error: 'msg:admin.invalid_list' }).optional(),
  max_open_positions: intIn(0, 1_000_000).optional(),
  max_pending_orders: intIn(0, 1_000_000).optional(),
  negative_balance_protection: z.preprocess((v) => (v === '' ? null : v), flag.nullable()).optional(),
  book: z.enum(GROUP_BOOKS, { error: 'msg:admin.invalid_list' }).optional(),
  /** true makes this (real) group the default for new real users (the previous default stops being it). */
  is_default: flag.optional(),
  symbols: jsonArray(GroupSymbolInput).optional(),
});
export type GroupSave = z.infer<typeof GroupSaveInput>;
/** A staff reversal of a closed trade: the order and why (audited). */
export const PositionReverseInput = IdInput.extend({ reason: requiredText(500) });
export const SetGroupInput = z.object({ user_id: id('not_found'), group_id: id('not_found') });

// ---------------------------------------------------------------- four-eyes changes to money rules
/**
 * With four-eyes on (the server's FOUR_EYES), a save of money rules (symbol terms, fee type and
 * rates, margin-call and stop-out levels) changes nothing yet: `data` is this, the change waiting for
 * a second risk or admin member's approval.
 */
export const PendingChangeAnswer = z.object({ pending_change_id: z.number().int() });
export const PENDING_CHANGE_KINDS = ['symbol', 'fees', 'settings', 'group', 'reversal'] as const;
export const PENDING_CHANGE_STATUSES = ['pending', 'approved', 'rejected', 'superseded'] as const;
export const ChangeDecisionInput = IdInput;
export const ChangeRejectInput = IdInput.extend({ reason: optionalText(500).default('') });
/** A 1-lot trade on a symbol at the current mid, with the terms in force and with the proposed ones ('' before its first quote). */
export const ChangePreviewSymbolSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  mid: z.string(),
  leverage_before: z.number().int(),
  leverage_after: z.number().int(),
  fee_before: z.string(),
  fee_after: z.string(),
  margin_before: z.string(),
  margin_after: z.string(),
  /** An account group's change: what the group's spread markup costs a 1-lot round trip, in USD ('' before a first quote). */
  spread_cost_before: z.string().optional(),
  spread_cost_after: z.string().optional(),
});
export const ChangePreviewSchema = z.object({
  symbols: z.array(ChangePreviewSymbolSchema),
  /**
   * Symbol changes of leverages, contract size or margin terms: the open accounts whose margin level
   * (percent) changes with the symbol's open positions margined under the proposed terms at the current
   * quotes, and the smallest and largest change in percentage points ('' when none); null otherwise.
   */
  margin_accounts: z.number().int().nullable(),
  level_change_min: z.string(),
  level_change_max: z.string(),
  /** Setting changes: the open accounts at or below the proposed stop-out level now (null when it is not changed). */
  below_stop_out: z.number().int().nullable(),
  /** Setting changes: the open accounts at or below the proposed margin-call level now (null when it is not changed). */
  below_margin_call: z.number().int().nullable(),
});
export const PendingChangeSchema = z.object({
  id: z.number().int(),
  kind: z.enum(PENDING_CHANGE_KINDS),
  /** The symbol's id, or the setting keys (comma-separated). */
  target: z.string(),
  /** The symbol's code, or the setting keys. */
  target_label: z.string(),
  /** The fields the change sets, each as it was when proposed and as proposed. */
  before: z.record(z.string(), z.unknown()),
  after: z.record(z.string(), z.unknown()),
  proposed_by: z.number().int(),
  proposer_email: z.string(),
  created_at: z.string(),
  status: z.enum(PENDING_CHANGE_STATUSES),
  decided_by: z.number().int().nullable(),
  decider_email: z.string(),
  decided_at: z.string(),
  reason: z.string(),
  /** What the change would do now; null once decided. */
  preview: ChangePreviewSchema.nullable(),
});
export type PendingChange = z.infer<typeof PendingChangeSchema>;
export type ChangePreview = z.infer<typeof ChangePreviewSchema>;
