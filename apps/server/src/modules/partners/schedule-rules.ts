import { inArray } from 'drizzle-orm';
import { dec } from '@tp/contract/decimal';
import type { AppContext } from '../../context.ts';
import { partnerPayoutSchedules } from './schema.ts';

/** Scheduled payouts' rules: the periods of a schedule, and which schedule applies to a partner. */

export const PAYOUT_SCHEDULES = ['off', 'weekly', 'monthly'] as const;
export type PayoutSchedule = (typeof PAYOUT_SCHEDULES)[number];
/** The schedule row of every plan without its own. */
export const GLOBAL_SCHEDULE = 0;

type ScheduleRow = typeof partnerPayoutSchedules.$inferSelect;

/**
 * The last period of a schedule that has ended at `now`, its key and its end: a week runs from
 * Monday 00:00 UTC to the next Monday, a month from the 1st 00:00 UTC to the next 1st.
 */
export function lastEndedPeriod(schedule: PayoutSchedule, now: Date): { key: string; endsAt: Date } | null {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (schedule === 'weekly') {
    const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
    const endsAt = new Date(day - sinceMonday * 86_400_000);
    const start = new Date(endsAt.getTime() - 7 * 86_400_000);
    return { key: `W${start.toISOString().slice(0, 10)}`, endsAt };
  }
  if (schedule === 'monthly') {
    const endsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    return { key: `M${start.toISOString().slice(0, 7)}`, endsAt };
  }
  return null;
}

/** When the period running at `now` ends (the next scheduled payout), or null when off. */
export function nextPeriodEnd(schedule: PayoutSchedule, now: Date): Date | null {
  if (schedule === 'weekly') return new Date(lastEndedPeriod('weekly', now)!.endsAt.getTime() + 7 * 86_400_000);
  if (schedule === 'monthly') return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return null;
}

export const scheduleView = (row: ScheduleRow | undefined, planId: number) => ({
  plan_id: planId,
  schedule: (row?.schedule ?? 'off') as PayoutSchedule,
  minimum: dec(row?.minimum ?? 0).toFixed(2),
  auto_approve: row?.autoApprove ?? false,
});

/** Staff: the global schedule and every plan's own. */
export async function listSchedules(ctx: AppContext) {
  const rows = await ctx.db.select().from(partnerPayoutSchedules);
  const byPlan = new Map(rows.map((r) => [r.planId, r]));
  return [
    scheduleView(byPlan.get(GLOBAL_SCHEDULE), GLOBAL_SCHEDULE),
    ...rows.filter((r) => r.planId !== GLOBAL_SCHEDULE).map((r) => scheduleView(r, r.planId)),
  ];
}

/** The schedule that applies to a partner on a plan (its own, else the global one). */
export async function scheduleFor(ctx: AppContext, planId: number | null) {
  const ids = planId ? [planId, GLOBAL_SCHEDULE] : [GLOBAL_SCHEDULE];
  const rows = await ctx.db.select().from(partnerPayoutSchedules).where(inArray(partnerPayoutSchedules.planId, ids));
  const own = rows.find((r) => r.planId === planId && planId !== GLOBAL_SCHEDULE);
  const row = own ?? rows.find((r) => r.planId === GLOBAL_SCHEDULE);
  return scheduleView(row, row?.planId ?? GLOBAL_SCHEDULE);
}
