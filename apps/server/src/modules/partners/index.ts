import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { PartnerAccrual } from './accrual.ts';
import { PartnerPayoutScheduler } from './payout-schedule.ts';
import { registerPartnerRoutes } from './routes.ts';
import { PartnerService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    /** Introducing brokers: applications, plans, the partner area, payouts. */
    partners: PartnerService;
    /** Accrues partner commissions from committed closes and first deposits, once each. */
    partnerAccrual: PartnerAccrual;
    /** Creates (and with auto-approve pays) each partner's payout at the end of each scheduled period, once. */
    partnerPayouts: PartnerPayoutScheduler;
  }
}

export const partnersModule = {
  name: 'partners',
  register(app: FastifyInstance, ctx: AppContext) {
    const partners = new PartnerService(ctx);
    const accrual = new PartnerAccrual(ctx);
    ctx.services.partners = partners;
    ctx.services.partnerAccrual = accrual;
    const payouts = new PartnerPayoutScheduler(ctx);
    ctx.services.partnerPayouts = payouts;
    registerPartnerRoutes(app, ctx, partners);
    // On the leader; a pass on any other server would pay nothing twice either (each source is marked once).
    // On the leader too; another server's pass would create nothing twice (a period's payout is unique per partner).
    ctx.background.push({ name: 'partner-payouts', leaderOnly: true, start: () => payouts.start(), stop: () => payouts.stop() });
    ctx.background.push({ name: 'partner-accrual', leaderOnly: true, start: () => accrual.start(), stop: () => accrual.stop() });
  },
};
