import { z } from 'zod';
import { ACCOUNT_NOTICE_KINDS, type NoticeKind } from './trading.ts';

/**
 * What a trader may have pushed to their devices, each switched on or off in the user centre (all on
 * by default): the closes and fills of their orders, a margin call, a fired price alert, a close by
 * staff or by copy trading, and the account's own events (deposits, withdrawals, identity, support, a demo reset).
 */
export const PUSH_EVENTS = [
  'take_profit',
  'stop_loss',
  'trailing_stop',
  'stop_out',
  'margin_call',
  'pending_filled',
  'pending_cancelled',
  'price_alert',
  'staff_close',
  'copy_close',
  'account',
] as const;
export type PushEvent = (typeof PUSH_EVENTS)[number];

const ACCOUNT_KINDS: ReadonlySet<string> = new Set<string>([...ACCOUNT_NOTICE_KINDS, 'demo_reset']);

/** The switch a NOTICE of this kind is pushed under. */
export const pushEventOf = (kind: NoticeKind): PushEvent => (ACCOUNT_KINDS.has(kind) ? 'account' : (kind as PushEvent));

/** A device's push subscription as the browser gives it (`PushSubscription.toJSON()`). */
export const PushSubscribeInput = z.object({
  endpoint: z.string({ error: 'msg:push_endpoint_invalid' }).max(2048, 'msg:push_endpoint_invalid'),
  keys: z.object(
    {
      /** The device's P-256 public key, uncompressed point, base64url (65 bytes). */
      p256dh: z.string().regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, 'msg:push_keys_invalid'),
      /** The device's authentication secret, base64url (16 bytes). */
      auth: z.string().regex(/^[A-Za-z0-9_-]{22,24}={0,2}$/, 'msg:push_keys_invalid'),
    },
    { error: 'msg:push_keys_invalid' },
  ),
  expirationTime: z.number().nullable().optional(),
});

export const PushUnsubscribeInput = z.object({
  endpoint: z.string({ error: 'msg:push_endpoint_invalid' }).max(2048, 'msg:push_endpoint_invalid'),
});

export const VapidKeySchema = z.object({
  /** The server's application server key (VAPID, P-256 public key, base64url): `applicationServerKey` of `pushManager.subscribe`. */
  public_key: z.string(),
});

const onOff = z.union([z.literal(0), z.literal(1)]);
const flag = z.preprocess((v) => (v === true || v === '1' || v === 'true' ? 1 : v === false || v === '0' || v === 'false' ? 0 : v), onOff);

export const PushSettingsSchema = z.object({
  /** 1: pushed to the trader's devices; 0: not. */
  events: z.object(Object.fromEntries(PUSH_EVENTS.map((e) => [e, onOff])) as Record<PushEvent, typeof onOff>),
  /** Devices subscribed now, and at most how many one account may have. */
  devices: z.number().int(),
  max_devices: z.number().int(),
});
export type PushSettings = z.infer<typeof PushSettingsSchema>;

/** The switches to change (others stay as they are). */
export const PushSettingsInput = z.object({
  events: z.object(Object.fromEntries(PUSH_EVENTS.map((e) => [e, flag.optional()])) as Record<PushEvent, z.ZodOptional<typeof flag>>),
});
