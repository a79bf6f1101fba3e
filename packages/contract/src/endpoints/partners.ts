import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { PageInput, pageOf } from '../schemas/fields.ts';
import {
  AdminCommissionListInput,
  AdminPartnerApproveInput,
  AdminPartnerCommissionSchema,
  AdminPartnerListInput,
  AdminPartnerSchema,
  AdminPartnerSetPlanInput,
  AdminPartnerTreeSchema,
  AdminPayoutListInput,
  AdminPayoutReviewInput,
  PartnerApplySchema,
  PartnerClientSchema,
  PartnerCommissionSchema,
  PartnerPayoutInput,
  PartnerPayoutSchema,
  PartnerPlanSaveInput,
  PartnerPlanSchema,
  PartnerSummarySchema,
  PayoutScheduleSaveInput,
  PayoutScheduleSchema,
} from '../schemas/partners.ts';

/**
 * Introducing brokers (partners): a real, identity-verified trader applies, staff approve with a
 * commission plan; registrations with the partner's invite code or link are their clients, and every
 * close of a client's position (and a client's first qualifying deposit) pays the partner and the
 * partners above them, through the ledger, once. Commission is paid to the trading balance on request.
 */
const partner = { auth: 'user', realOnly: true, tags: ['partners'] } as const;
const staffPartners = { auth: 'staff', tags: ['admin'], body: 'json', roles: ['finance', 'support'] } as const;
const financeOnly = { auth: 'staff', tags: ['admin'], body: 'json', roles: ['finance'] } as const;

export const apply = endpoint({
  ...partner,
  method: 'POST',
  path: '/api/partner/apply',
  output: PartnerApplySchema,
  summary: 'Applies to become a partner (identity verified real accounts); staff approve. Answers the application status',
});

export const summary = endpoint({
  ...partner,
  method: 'GET',
  path: '/api/partner/summary',
  output: PartnerSummarySchema,
  summary: 'The partner area: status, invite code and link, clients, their volume, commission totals (USD) by day, and the plan',
});

export const clients = endpoint({
  ...partner,
  method: 'GET',
  path: '/api/partner/clients',
  input: PageInput,
  output: pageOf(PartnerClientSchema),
  summary: "The partner's referred clients, newest first: masked e-mail, lots closed, commission earned on each, sub-partner or not",
});

export const commissions = endpoint({
  ...partner,
  method: 'GET',
  path: '/api/partner/commissions',
  input: PageInput,
  output: pageOf(PartnerCommissionSchema),
  summary: "The partner's commissions, newest first: per lot, share of fee or CPA, with the tier and the close or deposit that paid it",
});

export const payouts = endpoint({
  ...partner,
  method: 'GET',
  path: '/api/partner/payouts',
  input: PageInput,
  output: pageOf(PartnerPayoutSchema),
  summary: "The partner's payout requests, newest first",
});

export const requestPayout = endpoint({
  ...partner,
  method: 'POST',
  path: '/api/partner/payouts/request',
  input: PartnerPayoutInput,
  output: PartnerPayoutSchema,
  summary: 'Asks for commission (at most the payable, one open request at a time) to be paid to the trading balance; staff approve',
  rateLimit: { max: 10, timeWindow: 60_000 },
});

export const adminList = endpoint({
  ...staffPartners,
  method: 'GET',
  path: '/api/admin/partners/list',
  input: AdminPartnerListInput,
  output: pageOf(AdminPartnerSchema),
  summary: 'Partners and applications, newest first (status 0 applied, 1 approved, 2 refused)',
});

export const adminApprove = endpoint({
  ...staffPartners,
  method: 'POST',
  path: '/api/admin/partners/approve',
  input: AdminPartnerApproveInput,
  output: AdminPartnerSchema,
  summary:
    "Approves (approve 1, with a plan_id) or refuses (approve 0) an application; the partner's parent is the approved partner whose code they registered with",
});

export const adminPlans = endpoint({
  ...staffPartners,
  method: 'GET',
  path: '/api/admin/partners/plans',
  output: z.array(PartnerPlanSchema),
  summary: 'Commission plans',
});

export const adminSavePlan = endpoint({
  ...financeOnly,
  method: 'POST',
  path: '/api/admin/partners/plans/save',
  input: PartnerPlanSaveInput,
  output: PartnerPlanSchema,
  summary:
    'Creates (no id) or changes a commission plan: per lot by symbol category, share of fee, CPA and threshold, tier shares (the depth)',
});

export const adminSetPlan = endpoint({
  ...financeOnly,
  method: 'POST',
  path: '/api/admin/partners/set_plan',
  input: AdminPartnerSetPlanInput,
  output: AdminPartnerSchema,
  summary: "Sets a partner's commission plan (closes from now on accrue under it)",
});

export const adminTree = endpoint({
  ...staffPartners,
  method: 'GET',
  path: '/api/admin/partners/tree',
  output: AdminPartnerTreeSchema,
  summary: 'Approved partners with their parent links (the tree)',
});

export const adminCommissions = endpoint({
  ...staffPartners,
  method: 'GET',
  path: '/api/admin/partners/commissions',
  input: AdminCommissionListInput,
  output: pageOf(AdminPartnerCommissionSchema),
  summary:
    "Partners' commissions, newest first, optionally of one partner or only clawbacks (kind 'clawback', negative: taken back when staff reversed a referred client's trade)",
});

export const adminPayouts = endpoint({
  ...staffPartners,
  method: 'GET',
  path: '/api/admin/partners/payouts',
  input: AdminPayoutListInput,
  output: pageOf(PartnerPayoutSchema),
  summary: 'Payout requests, newest first (status 0 requested, 1 paid, 2 refused)',
});

export const adminReviewPayout = endpoint({
  ...financeOnly,
  method: 'POST',
  path: '/api/admin/partners/payouts/review',
  input: AdminPayoutReviewInput,
  output: PartnerPayoutSchema,
  summary:
    "Pays (approve 1: the payable moves to the partner's trading balance in one ledger transaction) or refuses (approve 0) a payout request, once",
});

export const adminSchedules = endpoint({
  ...staffPartners,
  method: 'GET',
  path: '/api/admin/partners/payout_schedules',
  output: z.array(PayoutScheduleSchema),
  summary: 'Scheduled payouts: the global schedule (plan_id 0) first, then the plans that have their own',
});

export const adminSaveSchedule = endpoint({
  ...financeOnly,
  method: 'POST',
  path: '/api/admin/partners/payout_schedules/save',
  input: PayoutScheduleSaveInput,
  output: PayoutScheduleSchema,
  summary:
    "Sets the scheduled payouts globally (plan_id 0) or for one plan: off, weekly or monthly, a minimum, and auto-approve (paid at the period's end) or not (a request finance approve)",
});
