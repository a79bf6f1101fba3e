import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export const fundingModule = {
  name: 'funding',
  register(_app: FastifyInstance, _ctx: AppContext) {},
};
