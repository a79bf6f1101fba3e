import { z } from 'zod';
import { amountField } from './funding.ts';
import { PageInput, boundedText, idField, optionalChoiceField, optionalIdField, requiredText, whole } from './fields.ts';

/** Introducing brokers (partners): a verified trader applies, staff approve with a commission plan. */

export const PARTNER_STATUSES = ['none', 'applied', 'approved', 'refused'] as const;
export const PAYOUT_STATUSES = ['requested', 'paid', 'refused'] as const;

/** A rate or percent: plain digits, at most 6 decimals. */
const rate = z
  .string({ error: 'msg:invalid_number' })
  .trim()
  .regex(/^\d{1,12}(\.\d{1,6})?$/, 'msg:invalid_number');
const percent = rate.refine((v) => Number(v) <= 100, 'msg:invalid_number');

/** A commission plan, as staff save it and partners see it. */
export const PartnerPlanSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** USD per lot traded by a referred client, by symbol category key ('*': any other category). */
  per_lot: z.record(z.string(), z.string()),
  /** Percent of the trade fee the client paid. */
  fee_share: z.string(),
  /** Paid once per client on their first deposit of at least cpa_threshold USD. */
  cpa_amount: z.string(),
  cpa_threshold: z.string(),
  /** Percent of the plan's rates paid at each tier of the tree, tier 1 (the direct partner) first; its length is the depth. */
  tier_shares: z.array(z.string()),
});
export type PartnerPlan = z.infer<typeof PartnerPlanSchema>;

export const PartnerPlanSaveInput = z.object({
  id: whole(z.number().int().min(1).max(2_147_483_647).optional()),
  name: requiredText(100),
  per_lot: z
    .record(z.string().trim().min(1).max(40), rate)
    .refine((r) => Object.keys(r).length <= 50, 'msg:invalid_number')
    .default({}),
  fee_share: percent.default('0'),
  cpa_amount: rate.default('0'),
  cpa_threshold: rate.default('0'),
  tier_shares: z.array(percent).min(1, 'msg:input_full').max(10, 'msg:invalid_number'),
});

export const PartnerApplySchema = z.object({ status: z.enum(PARTNER_STATUSES) });

export const PartnerSummarySchema = z.object({
  status: z.enum(PARTNER_STATUSES),
  /** The invite code and its registration link: registrations with it are the partner's clients. */
  code: z.string(),
  link: z.string(),
  clients: z.number().int(),
  sub_partners: z.number().int(),
  /** Lots closed by the partner's clients. */
  volume_lots: z.string(),
  /** USD: every commission earned, what is earned and not paid out yet, and what was paid to the trading balance. */
  commission_total: z.string(),
  commission_payable: z.string(),
  paid_out: z.string(),
  /** Commissions by UTC day over the last 30 days, newest first. */
  by_day: z.array(z.object({ day: z.string(), amount: z.string() })),
  plan: PartnerPlanSchema.nullable(),
  /** The scheduled payouts that apply to the partner (their plan's, else the global one), and when the running period ends (null: off). */
  payout_schedule: z.object({
    schedule: z.enum(['off', 'weekly', 'monthly']),
    minimum: z.string(),
    auto_approve: z.boolean(),
    next_at: z.string().nullable(),
  }),
});
export type PartnerSummary = z.infer<typeof PartnerSummarySchema>;

export const PartnerClientSchema = z.object({
  uid: z.string(),
  /** Masked e-mail (or mobile): enough to recognise, not to contact. */
  email: z.string(),
  volume_lots: z.string(),
  /** USD the partner earned on this client. */
  commission: z.string(),
  /** The client is an approved partner too (a sub-partner). */
  sub_partner: z.boolean(),
  created_at: z.string(),
});
export type PartnerClient = z.infer<typeof PartnerClientSchema>;

export const PartnerCommissionSchema = z.object({
  id: z.number().int(),
  client: z.string(),
  /** 1: the partner's own client; 2 and up: a client of a sub-partner. */
  tier: z.number().int(),
  /** 'lot' per lot, 'fee' share of the fee, 'cpa' on a first deposit, 'clawback' taken back. */
  kind: z.string(),
  source_type: z.string(),
  source_id: z.number().int(),
  lots: z.string(),
  amount: z.string(),
  created_at: z.string(),
});
export type PartnerCommission = z.infer<typeof PartnerCommissionSchema>;

/** Staff: a commission (or clawback) with the partner it was paid to. */
export const AdminPartnerCommissionSchema = PartnerCommissionSchema.extend({
  partner_user_id: z.number().int(),
  partner_email: z.string().nullable(),
});
export type AdminPartnerCommission = z.infer<typeof AdminPartnerCommissionSchema>;

/** user_id: one partner's (all when left out); clawbacks 1: only clawbacks. */
export const AdminCommissionListInput = PageInput.extend({
  user_id: optionalIdField('not_found'),
  clawbacks: optionalChoiceField([0, 1]),
});

export const PartnerPayoutSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  /** The partner's e-mail (staff see whom they pay). */
  email: z.string().nullable(),
  amount: z.string(),
  status: z.enum(PAYOUT_STATUSES),
  /** A scheduled payout's period ('W2026-11-16': the week from that Monday; 'M2026-10': the month); null: asked for by the partner. */
  period: z.string().nullable(),
  created_at: z.string(),
  reviewed_at: z.string().nullable(),
});
export type PartnerPayout = z.infer<typeof PartnerPayoutSchema>;

export const PartnerPayoutInput = z.object({ amount: amountField(2) });

export const AdminPartnerSchema = z.object({
  user_id: z.number().int(),
  uid: z.string(),
  email: z.string().nullable(),
  status: z.enum(PARTNER_STATUSES),
  plan_id: z.number().int().nullable(),
  /** The partner above in the tree (whose code this partner registered with). */
  parent_user_id: z.number().int().nullable(),
  note: z.string(),
  approved_at: z.string().nullable(),
  created_at: z.string(),
});
export type AdminPartner = z.infer<typeof AdminPartnerSchema>;

/** status: 0 applied, 1 approved, 2 refused (all when left out). */
export const AdminPartnerListInput = PageInput.extend({ status: optionalChoiceField([0, 1, 2]) });

export const AdminPartnerApproveInput = z.object({
  user_id: idField('not_found'),
  /** 1 approve, 0 refuse. */
  approve: whole(z.union([z.literal(0), z.literal(1)])),
  plan_id: whole(z.number().int().min(1).max(2_147_483_647).optional()),
  note: boundedText(500).default(''),
});

export const AdminPartnerSetPlanInput = z.object({ user_id: idField('not_found'), plan_id: idField('not_found') });

export const AdminPartnerTreeSchema = z.array(
  z.object({
    user_id: z.number().int(),
    parent_user_id: z.number().int().nullable(),
    plan_id: z.number().int().nullable(),
    email: z.string().nullable(),
  }),
);

export const AdminPayoutListInput = PageInput.extend({ status: optionalChoiceField([0, 1, 2]) });
export const AdminPayoutReviewInput = z.object({ id: idField('not_found'), approve: whole(z.union([z.literal(0), z.literal(1)])) });

export const PAYOUT_SCHEDULES = ['off', 'weekly', 'monthly'] as const;

/** Scheduled payouts: plan_id 0 is the global schedule, any other a plan's own (overriding the global one). */
export const PayoutScheduleSchema = z.object({
  plan_id: z.number().int(),
  /** Weekly periods end on Monday 00:00 UTC, monthly ones on the 1st 00:00 UTC. */
  schedule: z.enum(PAYOUT_SCHEDULES),
  /** USD: a smaller payable waits for a later period. */
  minimum: z.string(),
  /** Paid at once at the period's end (true) or a request finance approve (false). */
  auto_approve: z.boolean(),
});
export type PayoutScheduleView = z.infer<typeof PayoutScheduleSchema>;

export const PayoutScheduleSaveInput = z.object({
  plan_id: whole(z.number().int().min(0).max(2_147_483_647)),
  schedule: z.enum(PAYOUT_SCHEDULES, { error: 'msg:invalid_number' }),
  minimum: rate.default('0'),
  auto_approve: z.boolean().default(false),
});
