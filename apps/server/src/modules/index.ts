import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { adminModule } from './admin/index.ts';
import { authModule } from './auth/index.ts';
import { contentModule } from './content/index.ts';
import { fundingModule } from './funding/index.ts';
import { identityModule } from './identity/index.ts';
import { ledgerModule } from './ledger/index.ts';
import { marketModule } from './market/index.ts';
import { partnersModule } from './partners/index.ts';
import { socialModule } from './social/index.ts';
import { supportModule } from './support/index.ts';
import { tradingModule } from './trading/index.ts';
import { webPushModule } from './web-push/index.ts';

export interface ServerModule {
  name: string;
  register(app: FastifyInstance, ctx: AppContext): Promise<void> | void;
}

/** Registration order: a module may use the services of the modules before it. */
export const modules: ServerModule[] = [
  authModule,
  webPushModule,
  ledgerModule,
  adminModule,
  marketModule,
  tradingModule,
  identityModule,
  fundingModule,
  contentModule,
  socialModule,
  supportModule,
  partnersModule,
];
