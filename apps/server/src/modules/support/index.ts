import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export const supportModule = {
  name: 'support',
  register(_app: FastifyInstance, _ctx: AppContext) {},
};
