import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { LedgerService } from './ledger-service.ts';

/** What other modules may use of the ledger, besides `ctx.services.ledger`. */
export { HOUSE_SHARDS, InsufficientFundsError, LeadNotWrittenError, type LeadStatement, type Posting } from './ledger-service.ts';
export { houseTotalsSince, tradingResultsSince, userAccountBalance, userLedgerEntries, userStatementEntries } from './read-model.ts';

declare module '../../context.ts' {
  interface Services {
    ledger: LedgerService;
  }
}

export const ledgerModule = {
  name: 'ledger',
  async register(_app: FastifyInstance, ctx: AppContext) {
    ctx.services.ledger = new LedgerService(ctx);
    await ctx.services.ledger.openHouseAccounts();
  },
};
