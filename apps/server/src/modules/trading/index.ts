import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export const tradingModule = {
  name: 'trading',
  register(_app: FastifyInstance, _ctx: AppContext) {},
};
