import { endpoint } from '../endpoint.ts';
import { PageInput, pageOf } from '../schemas/content.ts';
import {
  AdminCopyProviderSchema,
  AdminCopyProvidersSchema,
  AdminCopySettingsInput,
  AdminCopySettingsSchema,
  AdminCopySuspendInput,
  FollowMineSchema,
  PauseInput,
  ProfileInput,
  ProfileSchema,
  ProviderEnableInput,
  ProviderSummarySchema,
  RankingItemSchema,
  SettleFeesInput,
  SettleFeesSchema,
  SubscribeInput,
  SubscriptionSchema,
  UnsubscribeInput,
} from '../schemas/social.ts';

/** The trader ranking (copy-trading list). */
export const followList = endpoint({
  method: 'GET',
  path: '/api/follow/list',
  auth: 'none',
  input: PageInput,
  output: pageOf(RankingItemSchema),
  summary:
    'Trader ranking (copy-trading list) over the last three weeks of real closed orders, best profit rate first, with followers, maximum drawdown and average holding time; refreshed every minute',
  tags: ['social'],
});

export const followProviderEnable = endpoint({
  method: 'POST',
  path: '/api/follow/provider/enable',
  auth: 'user',
  realOnly: true,
  input: ProviderEnableInput,
  output: ProviderSummarySchema,
  body: 'json',
  summary:
    'Opts in (or out, enabled=0) as a strategy provider with a performance fee (fee_pct of new profit above each follower’s high-water mark) and an optional subscription fee (sub_fee USD per 30 days, for new subscriptions); answers the followers’ count and assets, never who they are',
  tags: ['social'],
  rateLimit: { max: 30, timeWindow: 60_000 },
});

export const followSubscribe = endpoint({
  method: 'POST',
  path: '/api/follow/subscribe',
  auth: 'user',
  realOnly: true,
  input: SubscribeInput,
  output: SubscriptionSchema,
  body: 'json',
  summary:
    'Copies a provider from now on: amount (lots scaled by amount / provider equity) or ratio (lots x ratio), at most max_lot per order, stopped with its copies closed when the copy’s equity falls by copy_stop_loss percent. A provider’s subscription fee must be confirmed (accept_sub_fee) and is charged now and each 30 days after, once per period; refused when the balance or free margin does not cover it. Again for the same provider changes the terms',
  tags: ['social'],
  rateLimit: { max: 30, timeWindow: 60_000 },
});

export const followUnsubscribe = endpoint({
  method: 'POST',
  path: '/api/follow/unsubscribe',
  auth: 'user',
  realOnly: true,
  input: UnsubscribeInput,
  output: SubscriptionSchema,
  body: 'json',
  summary: 'Stops copying a provider; close_positions=1 closes the open copies now, otherwise they stay open as the follower’s own',
  tags: ['social'],
  rateLimit: { max: 30, timeWindow: 60_000 },
});

export const followPause = endpoint({
  method: 'POST',
  path: '/api/follow/pause',
  auth: 'user',
  realOnly: true,
  input: PauseInput,
  output: SubscriptionSchema,
  body: 'json',
  summary:
    'Pauses (paused=1: no new copies, closes and stop changes still mirrored) or resumes copying a provider; resuming a subscription paused for an unpaid fee (stop_reason fee_unpaid) pays the period first',
  tags: ['social'],
  rateLimit: { max: 30, timeWindow: 60_000 },
});

export const followMine = endpoint({
  method: 'GET',
  path: '/api/follow/mine',
  auth: 'user',
  output: FollowMineSchema,
  summary:
    'The providers the caller copies (terms, copy equity, copies and skipped copies) and, for a provider, their followers’ count and assets',
  tags: ['social'],
});

export const followProfile = endpoint({
  method: 'GET',
  path: '/api/follow/profile',
  auth: 'optional',
  input: ProfileInput,
  output: ProfileSchema,
  summary:
    'A trader’s statistics (three-week and total return, win rate, maximum drawdown, followers, trades, average holding time) and equity curve of closed trades',
  tags: ['social'],
});

export const adminSettleCopyFees = endpoint({
  method: 'POST',
  path: '/api/admin/follow/settle_fees',
  auth: 'staff',
  roles: ['finance'],
  input: SettleFeesInput,
  output: SettleFeesSchema,
  body: 'json',
  summary:
    'Settles the copy-trading performance fees of a period now (the periodic job does it daily): each subscription at most once per period',
  tags: ['admin'],
});

/** The back office's copy providers: any of these roles (admin always passes) sees them; risk suspends and sets the minimum. */
const copyStaff = { auth: 'staff', tags: ['admin'], roles: ['risk', 'finance', 'support'] } as const;
const copyRisk = { auth: 'staff', tags: ['admin'], body: 'json', roles: ['risk'] } as const;

export const adminCopyProviders = endpoint({
  ...copyStaff,
  method: 'GET',
  path: '/api/admin/follow/providers',
  input: PageInput,
  output: AdminCopyProvidersSchema,
  summary:
    'Strategy providers, newest first: followers, assets copied, performance and subscription fees and what they earned, suspended or not; with the minimum track record to become one',
});

export const adminCopySuspend = endpoint({
  ...copyRisk,
  method: 'POST',
  path: '/api/admin/follow/providers/suspend',
  input: AdminCopySuspendInput,
  output: AdminCopyProviderSchema,
  summary:
    "Suspends (suspended=1) or resumes a provider: suspended, they cannot be subscribed to and their followers' copying is paused (copies already open still follow the provider's closes); resumed, it goes on",
});

export const adminCopySettings = endpoint({
  ...copyRisk,
  method: 'POST',
  path: '/api/admin/follow/settings',
  input: AdminCopySettingsInput,
  output: AdminCopySettingsSchema,
  summary: 'Sets the minimum track record (closed trades) a trader needs to become a provider; 0 (a fresh install) none',
});
