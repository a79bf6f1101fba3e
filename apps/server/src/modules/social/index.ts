import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export const socialModule = {
  name: 'social',
  register(_app: FastifyInstance, _ctx: AppContext) {},
};
