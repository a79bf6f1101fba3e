import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { PushSettingsInput, PushSettingsSchema, PushSubscribeInput, PushUnsubscribeInput, VapidKeySchema } from '../schemas/web-push.ts';

/**
 * Web Push (user centre, Notifications): a device subscribes with the browser's PushSubscription and
 * is sent the trader's notices (closes, fills, margin calls, price alerts, account events) while the
 * app is closed, in the language the trader last used with these calls.
 */
export const pushVapidKey = endpoint({
  method: 'GET',
  path: '/api/user/push/vapid_public_key',
  auth: 'user',
  output: VapidKeySchema,
  summary: "The server's VAPID public key, the applicationServerKey a browser subscribes with",
  tags: ['account'],
});

export const pushSubscribe = endpoint({
  method: 'POST',
  path: '/api/user/push/subscribe',
  auth: 'user',
  input: PushSubscribeInput,
  output: PushSettingsSchema,
  body: 'json',
  summary:
    "Subscribes this device to push notifications with the browser's PushSubscription JSON {endpoint, keys: {p256dh, auth}} (an https endpoint; again for a known endpoint refreshes it); answers the settings",
  tags: ['account'],
  rateLimit: { max: 30, timeWindow: 60_000 },
});

export const pushUnsubscribe = endpoint({
  method: 'POST',
  path: '/api/user/push/unsubscribe',
  auth: 'user',
  input: PushUnsubscribeInput,
  output: z.null(),
  body: 'json',
  summary: 'Stops push notifications to the device of this endpoint',
  tags: ['account'],
});

export const pushSettings = endpoint({
  method: 'GET',
  path: '/api/user/push/settings',
  auth: 'user',
  output: PushSettingsSchema,
  summary: 'Which events are pushed (1 on, 0 off; all on by default) and how many devices are subscribed',
  tags: ['account'],
});

export const pushSettingsUpdate = endpoint({
  method: 'POST',
  path: '/api/user/push/settings',
  auth: 'user',
  input: PushSettingsInput,
  output: PushSettingsSchema,
  body: 'json',
  summary: 'Switches push events on (1) or off (0): {events: {take_profit: 0, ...}}; the others stay as they are',
  tags: ['account'],
});
