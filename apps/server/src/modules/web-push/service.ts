import { Counter } from 'prom-client';
import webpush from 'web-push';
import type { Alert, Notice } from '@tp/contract/schemas/trading';
import { isIP } from 'node:net';
import type { z } from 'zod';
import { PUSH_EVENTS, type PushSettings, type PushSettingsInput, type PushSubscribeInput } from '@tp/contract/schemas/web-push';
import type { AppContext } from '../../context.ts';
import { fail, invalid } from '../../http/errors.ts';
import { alertMessage, noticeMessage, type PushMessage } from './messages.ts';
import {
  countSubscriptions,
  deleteSubscription,
  deleteSubscriptionById,
  ensureSetting,
  findSubscription,
  preferencesOf,
  preferencesOfUsers,
  type PushPreferences,
  savePreferences,
  subscriptionsOfUsers,
  type SubscriptionRow,
  upsertSubscription,
} from './repository.ts';

const VAPID_SETTING = 'web_push_vapid_keys';
/** Notifications waiting to be sent on this server; beyond it new ones are dropped (counted), the engine never waits. */
const MAX_QUEUED = 10_000;
/** How long a push service may take to answer one message. */
const SEND_TIMEOUT_MS = 10_000;
/** How long a push service keeps a message for a device that is off (a stale close is not worth a day). */
const TTL_SECONDS = 4 * 3600;

/**
 * Notices looked up together, at most: a burst of closes reads its traders' devices and preferences
 * in one query each, not one or two per notice (most traders have no device at all).
 */
const LOOKUP_BATCH = 500;

type Job = { userId: number; message: (lang: string) => PushMessage };
/** A notice of a trader with devices, as looked up: sent to each device. */
type Delivery = { job: Job; devices: SubscriptionRow[]; prefs: PushPreferences | undefined };
type Result = 'sent' | 'gone' | 'failed' | 'dropped' | 'off';

/**
 * Web Push: devices subscribe through the user centre, and the trader's notices and fired price alerts
 * are sent to each of them (encrypted for the device, RFC 8291, signed with the server's VAPID key).
 * The trading engine only appends to a queue once the change is committed; after the engine's turn the
 * queued notices' devices are read together, and a few messages at a time (WEB_PUSH_CONCURRENCY) go
 * out, so neither the database reads nor a slow push service slow a close.
 */
export class WebPushService {
  private vapid: Promise<{ publicKey: string; privateKey: string }> | null = null;
  /** Notices waiting for their traders' devices to be read. */
  private readonly queue: Job[] = [];
  /** Notices of traders with devices, waiting to be sent. */
  private readonly ready: Delivery[] = [];
  private looking = false;
  private running = 0;
  private idle: (() => void)[] = [];
  private readonly results: Counter<'result'>;
  private readonly testOrigins: string[];

  constructor(private readonly ctx: AppContext) {
    this.results = new Counter({
      name: 'tp_web_push_messages_total',
      help: 'Web Push notifications by result: sent, gone (device unsubscribed, removed), failed, dropped (queue full), off (event switched off)',
      labelNames: ['result'] as const,
      registers: [ctx.metrics.registry],
    });
    this.testOrigins =
      ctx.config.NODE_ENV === 'production'
        ? []
        : ctx.config.WEB_PUSH_TEST_ORIGINS.split(',')
            .map((o) => o.trim())
            .filter(Boolean);
  }

  async vapidPublicKey(): Promise<string> {
    return (await this.keys()).publicKey;
  }

  async subscribe(userId: number, input: z.output<typeof PushSubscribeInput>, lang: string): Promise<PushSettings> {
    this.checkEndpoint(input.endpoint);
    checkKeys(input.keys);
    const known = await findSubscription(this.ctx.db, input.endpoint);
    const max = this.ctx.config.WEB_PUSH_MAX_DEVICES;
    if (known?.userId !== userId && (await countSubscriptions(this.ctx.db, userId)) >= max) throw fail('push_too_many_devices', { max });
    await this.ctx.db.transaction(async (tx) => {
      await upsertSubscription(tx, { userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth });
      await savePreferences(tx, userId, { lang });
    });
    return this.settings(userId);
  }

  async unsubscribe(userId: number, endpoint: string, lang: string): Promise<void> {
    await deleteSubscription(this.ctx.db, userId, endpoint);
    await savePreferences(this.ctx.db, userId, { lang });
  }

  async settings(userId: number): Promise<PushSettings> {
    const [prefs, devices] = await Promise.all([preferencesOf(this.ctx.db, userId), countSubscriptions(this.ctx.db, userId)]);
    const off = new Set(prefs?.offEvents ?? []);
    const events = Object.fromEntries(PUSH_EVENTS.map((e) => [e, off.has(e) ? 0 : 1])) as PushSettings['events'];
    return { events, devices, max_devices: this.ctx.config.WEB_PUSH_MAX_DEVICES };
  }

  async updateSettings(userId: number, input: z.output<typeof PushSettingsInput>, lang: string): Promise<PushSettings> {
    const off = new Set((await preferencesOf(this.ctx.db, userId))?.offEvents ?? []);
    for (const event of PUSH_EVENTS) {
      const value = input.events[event];
      if (value === 1) off.delete(event);
      else if (value === 0) off.add(event);
    }
    await savePreferences(this.ctx.db, userId, { offEvents: [...off].sort(), lang });
    return this.settings(userId);
  }

  /** A committed NOTICE, to the trader's devices (queued; returns at once). */
  notice(userId: number, notice: Notice): void {
    this.enqueue({ userId, message: (lang) => noticeMessage(lang, notice) });
  }

  /** A fired price alert, to the trader's devices (queued; returns at once). */
  alert(userId: number, alert: Alert): void {
    this.enqueue({ userId, message: (lang) => alertMessage(lang, alert) });
  }

  /** Resolves when every queued notification has been sent or given up (shutdown, tests). */
  settled(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private isIdle(): boolean {
    return !this.queue.length && !this.ready.length && !this.running && !this.looking;
  }

  private wakeIdle(): void {
    if (this.isIdle()) for (const resolve of this.idle.splice(0)) resolve();
  }

  private enqueue(job: Job): void {
    if (this.queue.length + this.ready.length >= MAX_QUEUED) {
      this.results.inc({ result: 'dropped' });
      return;
    }
    this.queue.push(job);
    this.lookUp();
  }

  /** Reads the devices of the queued notices' traders, a batch at a time, after the engine's turn. */
  private lookUp(): void {
    if (this.looking || !this.queue.length) return;
    this.looking = true;
    // The engine's turn ends before any database read: the notices of one tick are read together.
    setImmediate(() => {
      const jobs = this.queue.splice(0, LOOKUP_BATCH);
      this.resolve(jobs)
        .catch((err: unknown) => {
          this.results.inc({ result: 'failed' }, jobs.length);
          this.ctx.log.warn({ err, notices: jobs.length }, 'web push not sent');
        })
        .finally(() => {
          this.looking = false;
          this.lookUp();
          this.pump();
          this.wakeIdle();
        });
    });
  }

  private async resolve(jobs: Job[]): Promise<void> {
    const devices = await subscriptionsOfUsers(this.ctx.db, [...new Set(jobs.map((j) => j.userId))]);
    if (!devices.length) return;
    const byUser = new Map<number, SubscriptionRow[]>();
    for (const device of devices) {
      const mine = byUser.get(device.userId);
      if (mine) mine.push(device);
      else byUser.set(device.userId, [device]);
    }
    const prefs = await preferencesOfUsers(this.ctx.db, [...byUser.keys()]);
    for (const job of jobs) {
      const mine = byUser.get(job.userId);
      if (mine) this.ready.push({ job, devices: mine, prefs: prefs.get(job.userId) });
    }
  }

  private pump(): void {
    while (this.running < this.ctx.config.WEB_PUSH_CONCURRENCY && this.ready.length) {
      const delivery = this.ready.shift()!;
      this.running++;
      this.deliver(delivery)
        .catch((err: unknown) => {
          this.results.inc({ result: 'failed' });
          this.ctx.log.warn({ err, userId: delivery.job.userId }, 'web push not sent');
        })
        .finally(() => {
          this.running--;
          this.pump();
          this.wakeIdle();
        });
    }
  }

  private async deliver({ job, devices, prefs }: Delivery): Promise<void> {
    const message = job.message(prefs?.lang ?? '');
    if (prefs?.offEvents.includes(message.event)) {
      this.results.inc({ result: 'off' });
      return;
    }
    const payload = JSON.stringify({ title: message.title, body: message.body, tag: message.tag, url: message.url, event: message.event });
    await Promise.all(devices.map(async (device) => this.results.inc({ result: await this.send(device, payload) })));
  }

  private async send(device: SubscriptionRow, payload: string): Promise<Result> {
    const keys = await this.keys();
    const request = webpush.generateRequestDetails(
      { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
      payload,
      {
        vapidDetails: { subject: this.subject(), publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: TTL_SECONDS,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
      },
    );
    const headers = Object.fromEntries(
      Object.entries(request.headers as Record<string, string | number>)
        .filter(([name]) => name.toLowerCase() !== 'content-length')
        .map(([name, value]) => [name, String(value)]),
    );
    try {
      const res = await fetch(request.endpoint, {
        method: request.method,
        headers,
        body: request.body as Buffer<ArrayBuffer>,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        redirect: 'error',
      });
      await res.body?.cancel();
      if (res.status === 404 || res.status === 410) {
        await deleteSubscriptionById(this.ctx.db, device.id, device.endpoint);
        return 'gone';
      }
      if (res.ok) return 'sent';
      this.ctx.log.warn({ status: res.status, host: new URL(device.endpoint).host, userId: device.userId }, 'web push refused');
      return 'failed';
    } catch (err) {
      this.ctx.log.warn(
        { err: { message: (err as Error).message, name: (err as Error).name }, host: new URL(device.endpoint).host, userId: device.userId },
        'web push not delivered',
      );
      return 'failed';
    }
  }

  private subject(): string {
    return this.ctx.config.WEB_PUSH_SUBJECT ?? `mailto:${this.ctx.config.SMTP_FROM}`;
  }

  /** The VAPID key pair: made once at random and kept in the settings (every server of the cluster signs with it). */
  private keys(): Promise<{ publicKey: string; privateKey: string }> {
    this.vapid ??= (async () => {
      const made = webpush.generateVAPIDKeys();
      return JSON.parse(await ensureSetting(this.ctx.db, VAPID_SETTING, JSON.stringify(made))) as { publicKey: string; privateKey: string };
    })();
    this.vapid.catch(() => (this.vapid = null));
    return this.vapid;
  }

  /** An https push service, or (tests, development) one of WEB_PUSH_TEST_ORIGINS. */
  private checkEndpoint(endpoint: string): void {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw invalid('push_endpoint_invalid');
    }
    if (url.username || url.password) throw invalid('push_endpoint_invalid');
    if (this.testOrigins.includes(url.origin)) return;
    // Push services are public hosts: an address or name of this network is refused (the server would post to it).
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (url.protocol !== 'https:' || host === 'localhost' || host.endsWith('.localhost') || isIP(host))
      throw invalid('push_endpoint_invalid');
  }
}

/** The device's P-256 public key (an uncompressed point) and its 16-byte authentication secret. */
function checkKeys(keys: { p256dh: string; auth: string }): void {
  const point = Buffer.from(keys.p256dh, 'base64url');
  const secret = Buffer.from(keys.auth, 'base64url');
  if (point.length !== 65 || point[0] !== 4 || secret.length !== 16) throw invalid('push_keys_invalid');
}
