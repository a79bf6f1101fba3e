import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export const contentModule = {
  name: 'content',
  register(_app: FastifyInstance, _ctx: AppContext) {},
};
