import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ChatService } from './chat-service.ts';
import { FeedbackService } from './feedback-service.ts';
import { registerSupportRoutes } from './routes.ts';

declare module '../../context.ts' {
  interface Services {
    support: ChatService;
    feedback: FeedbackService;
  }
}

export const supportModule = {
  name: 'support',
  register(app: FastifyInstance, ctx: AppContext) {
    ctx.services.support = new ChatService(ctx);
    ctx.services.feedback = new FeedbackService(ctx);
    registerSupportRoutes(app, ctx);
  },
};
