import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export const identityModule = {
  name: 'identity',
  register(_app: FastifyInstance, _ctx: AppContext) {},
};
