import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerDepositRoutes } from './deposit-routes.ts';
import { DepositService } from './deposit-service.ts';
import { registerFundingNotices } from './notices.ts';
import { registerDrawMethodRoutes } from './draw-method-routes.ts';
import { DrawMethodService } from './draw-method-service.ts';
import { registerWithdrawalRoutes } from './withdrawal-routes.ts';
import { WithdrawalService } from './withdrawal-service.ts';

/** Read model for other modules' screens. */
export { countWaitingReviews, finishedDepositsOf } from './read-model.ts';
/** The back office's funding setup (admin module). */
export {
  deleteRow,
  depositRatesByCurrency,
  type FundingTable,
  findRow,
  isReferenced,
  listRows,
  saveRow,
  withdrawRatesByCurrency,
} from './setup-repository.ts';

export interface FundingServices {
  deposits: DepositService;
  withdrawals: WithdrawalService;
  drawMethods: DrawMethodService;
}

declare module '../../context.ts' {
  interface Services {
    funding: FundingServices;
  }
}

export const fundingModule = {
  name: 'funding',
  register(app: FastifyInstance, ctx: AppContext) {
    const funding: FundingServices = {
      deposits: new DepositService(ctx),
      withdrawals: new WithdrawalService(ctx),
      drawMethods: new DrawMethodService(ctx),
    };
    ctx.services.funding = funding;
    registerDepositRoutes(app, ctx, funding.deposits);
    registerWithdrawalRoutes(app, ctx, funding.withdrawals);
    registerDrawMethodRoutes(app, ctx, funding.drawMethods);
    registerFundingNotices(ctx);
  },
};
