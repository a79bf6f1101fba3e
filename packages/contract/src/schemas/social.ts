import { z } from 'zod';
import { amountField } from './funding.ts';
import { flagParam } from './content.ts';
import { idField } from './fields.ts';

/** One trader of the ranking (GET /api/follow/list). Rates are percents with 2 decimals, as strings. */
export const RankingItemSchema = z.object({
  /** The trader's provider id: GET /api/follow/profile?id= and POST /api/follow/subscribe take it. */
  id: z.number().int(),
  /** Display name, else a masked email ('jo***@gm***.com') or mobile ('138****5678'). */
  user: z.string(),
  /** The leverage used most in the window. */
  multiple: z.number().int(),
  /** Sum of profits / sum of margin x 100 over the window. */
  three_week_rate: z.string(),
  /** Winning closed orders / closed orders x 100 over the window. */
  three_week_win: z.string(),
  /** Sum of profits over the window, 6 decimals. */
  three_week_profit: z.string(),
  /** Profit rate over all real closed orders. */
  total_rate: z.string(),
  total_trade_num: z.number().int(),
  /** ShowCode of the symbol traded most in the window. */
  code: z.string(),
  /** Followers copying the trader now (active or paused subscriptions). */
  followers: z.number().int(),
  /** Whether the trader opted in as a strategy provider (can be copied). */
  copyable: z.boolean(),
  /** Largest fall of the closed-trade equity curve from a previous peak, percent of that peak (2 decimals). */
  max_drawdown: z.string(),
  /** Average holding time of the closed trades, in seconds. */
  avg_hold_seconds: z.number().int(),
});
export type RankingItem = z.infer<typeof RankingItemSchema>;

/** A percent from 0 to `max` with at most 2 decimals, as a canonical decimal string. */
const percentUpTo = (max: number, key: string) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => /^\d{1,3}(\.\d{1,2})?$/.test(v) && Number(v) <= max, `msg:${key}`)
    .transform((v) => String(Number(v)));
const percentField = percentUpTo(100, 'follow.percent_range');
/** The subscription fee: USD per 30 days, 0 (none) to 10,000, at most 2 decimals, as a canonical decimal string. */
export const MAX_SUB_FEE = 10_000;
const subFeeField = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,5}(\.\d{1,2})?$/.test(v) && Number(v) <= MAX_SUB_FEE, 'msg:follow.sub_fee_range')
  .transform((v) => String(Number(v)));
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

export const ProviderEnableInput = z.object({
  /** Performance fee: percent of new profit above the follower's high-water mark (0 to 50). */
  fee_pct: optional(percentUpTo(50, 'follow.fee_range')),
  /** Subscription fee in USD per 30 days (0 none), charged at subscription and each 30 days after; applies to new subscriptions. */
  sub_fee: optional(subFeeField),
  /** false stops being copied (existing followers are stopped). Default true. */
  enabled: optional(flagParam),
});

/** What a provider sees of their own copying: counts and money, never the followers' identities. */
export const ProviderSummarySchema = z.object({
  provider_id: z.number().int(),
  enabled: z.boolean(),
  fee_pct: z.string(),
  followers: z.number().int(),
  /** Sum of the followers' allocations (amount mode) or equity at the start (ratio mode), USD. */
  follower_assets: z.string(),
  /** Performance fees received, USD. */
  fees_earned: z.string(),
  /** Subscription fee, USD per 30 days (0.00 none). */
  sub_fee: z.string(),
  /** Subscription fees received, USD. */
  sub_fees_earned: z.string(),
  /** Staff suspended the provider: followers do not copy them until staff resume it. */
  suspended: z.boolean(),
});
export type ProviderSummary = z.infer<typeof ProviderSummarySchema>;

export const SubscribeInput = z.object({
  provider_id: idField('follow.provider_not_found'),
  /** Amount of the balance allocated: provider lots x amount / provider equity. Give this or ratio. */
  amount: optional(amountField(2)),
  /** Follower lots per provider lot. */
  ratio: optional(amountField(4)),
  /** Percent fall of the copy's equity that stops copying and closes the copied positions. */
  copy_stop_loss: optional(percentField),
  /** Largest lots of one copied order. */
  max_lot: optional(amountField(6)),
  /**
   * The subscription fee (USD per 30 days) the follower confirmed; refused (follow.sub_fee_changed) when
   * the provider's fee is now different, so nobody pays a fee they did not see.
   */
  accept_sub_fee: optional(subFeeField),
});

export const UnsubscribeInput = z.object({
  provider_id: idField('follow.provider_not_found'),
  /** true closes the copied positions now; false keeps them as the follower's own. */
  close_positions: optional(flagParam),
});

export const PauseInput = z.object({
  provider_id: idField('follow.provider_not_found'),
  /** true pauses (no new copies; closes and stop changes still follow), false resumes. */
  paused: flagParam,
});

/** A copied (or skipped) provider position. */
export const CopyLinkSchema = z.object({
  provider_order_id: z.number().int(),
  follower_order_id: z.number().int().nullable(),
  lots: z.string(),
  /** open | closed | detached (the follower's own now) | skipped. */
  state: z.enum(['open', 'closed', 'detached', 'skipped']),
  /** Why a copy was skipped (a message key, e.g. trading.insufficient_margin or follow.below_min_lot). */
  reason: z.string().nullable(),
  created_at: z.string(),
});

export const SubscriptionSchema = z.object({
  provider_id: z.number().int(),
  provider: z.string(),
  mode: z.enum(['amount', 'ratio']),
  value: z.string(),
  copy_stop_loss: z.string().nullable(),
  max_lot: z.string().nullable(),
  status: z.enum(['active', 'paused', 'stopped']),
  /**
   * Why it stopped: unfollowed, copy_stop_loss, provider_disabled; or why it is paused by the platform:
   * fee_unpaid (the subscription fee of a period could not be paid: resuming pays it), provider_suspended.
   */
  stop_reason: z.string().nullable(),
  fee_pct: z.string(),
  start_equity: z.string(),
  /** Start equity + realised and floating profit of the copies. */
  copy_equity: z.string(),
  /** Realised profit of closed copies (net of fees and swaps). */
  realised: z.string(),
  high_water_mark: z.string(),
  fees_paid: z.string(),
  /** The subscription fee agreed (USD per 30 days, 0.00 none), the fees paid and the end of the period paid (ISO, null none). */
  sub_fee: z.string(),
  sub_fees_paid: z.string(),
  paid_until: z.string().nullable(),
  started_at: z.string(),
  copies: z.array(CopyLinkSchema),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

export const FollowMineSchema = z.object({
  following: z.array(SubscriptionSchema),
  /** The caller as a provider, or null when they never enabled copying. */
  provider: ProviderSummarySchema.nullable(),
});

export const ProfileInput = z.object({ id: idField('follow.provider_not_found') });

export const ProfileSchema = z.object({
  stats: RankingItemSchema,
  fee_pct: z.string(),
  /** Subscription fee, USD per 30 days (0.00 none). */
  sub_fee: z.string(),
  /** Cumulative profit after each closed trade (USD), oldest first: time in Unix seconds. */
  equity_curve: z.array(z.object({ time: z.number().int(), value: z.string() })),
  /** Whether the caller follows this trader now (false when not signed in). */
  following: z.boolean(),
});

export const SettleFeesInput = z.object({
  /** The period settled, e.g. a date 2026-11-27: each subscription is charged at most once per period. */
  period: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z:_-]{1,32}$/, 'msg:input_full'),
});
export const SettleFeesSchema = z.object({ charged: z.number().int(), total: z.string() });

// ---------------------------------------------------------------- the back office: copy providers

/** A strategy provider as staff see them: who, their fees and what they earned, their followers' count and assets. */
export const AdminCopyProviderSchema = z.object({
  provider_id: z.number().int(),
  uid: z.string(),
  email: z.string().nullable(),
  /** The provider offers copying (they may stop themselves). */
  enabled: z.boolean(),
  /** Staff suspended them: followers' copying is paused until staff resume it. */
  suspended: z.boolean(),
  suspended_at: z.string().nullable(),
  /** Live (active or paused) subscriptions. */
  followers: z.number().int(),
  /** The followers' allocations (amount mode) or equity at the start (ratio mode), USD. */
  assets_copied: z.string(),
  fee_pct: z.string(),
  /** USD per 30 days (0.00 none). */
  sub_fee: z.string(),
  /** Performance fees received, USD. */
  fees_earned: z.string(),
  /** Subscription fees received, USD. */
  sub_fees_earned: z.string(),
  created_at: z.string(),
});
export type AdminCopyProvider = z.infer<typeof AdminCopyProviderSchema>;

/** Closed trades a trader needs before opting in as a provider (setting copy_provider_min_trades; 0 none). */
export const MinTradesField = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,4}$/.test(v) && Number(v) <= 1000, 'msg:follow.min_trades_range')
  .transform((v) => Number(v));

export const AdminCopyProvidersSchema = z.object({
  data: z.array(AdminCopyProviderSchema),
  total: z.number().int(),
  /** The minimum track record now (0 on a fresh install: anyone real may opt in). */
  min_trades: z.number().int(),
});

export const AdminCopySuspendInput = z.object({
  provider_id: idField('follow.provider_not_found'),
  /** true suspends (followers' copying pauses), false resumes it. */
  suspended: flagParam,
});

export const AdminCopySettingsInput = z.object({ min_trades: MinTradesField });
export const AdminCopySettingsSchema = z.object({ min_trades: z.number().int() });
