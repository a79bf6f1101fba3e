import type { FastifyInstance } from 'fastify';
import * as api from '@tp/contract/endpoints/web-push';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';

/** The user centre's push notifications: the server's key, subscribe and unsubscribe a device, which events. */
export function registerWebPushRoutes(app: FastifyInstance, ctx: AppContext) {
  const push = () => ctx.services.webPush;
  route(app, ctx, api.pushVapidKey, async () => ({ public_key: await push().vapidPublicKey() }));
  route(app, ctx, api.pushSubscribe, ({ user, input, lang }) => push().subscribe(user.id, input, lang));
  route(app, ctx, api.pushUnsubscribe, async ({ user, input, lang }) => {
    await push().unsubscribe(user.id, input.endpoint, lang);
    return null;
  });
  route(app, ctx, api.pushSettings, ({ user }) => push().settings(user.id));
  route(app, ctx, api.pushSettingsUpdate, ({ user, input, lang }) => push().updateSettings(user.id, input, lang));
}
