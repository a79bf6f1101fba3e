import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export const marketModule = {
  name: 'market',
  register(_app: FastifyInstance, _ctx: AppContext) {},
};
