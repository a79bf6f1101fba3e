import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Bus, BusHandler, BusState } from './bus.ts';

export interface RedisBusOptions {
  url: string;
  /** Prepended to every channel name, so that several deployments (or test runs) share one Redis. */
  prefix?: string;
  log?: Logger;
}

const ORIGIN_LENGTH = 16;
/** A message Redis has not taken within this time is dropped (the bus fails open). */
const PUBLISH_TIMEOUT_MS = 2_000;

/** Every Redis command answers or fails within this time: a hung Redis must not hold a request. */
export const REDIS_COMMAND_TIMEOUT_MS = 300;

export interface RedisClientOptions {
  /**
   * Queue commands sent while disconnected (default): they still fail by the command timeout,
   * so no call waits out the reconnection; false fails them at once.
   */
  offlineQueue?: boolean;
  /** The command deadline (default REDIS_COMMAND_TIMEOUT_MS); null: none (a subscriber's commands must not be dropped). */
  commandTimeoutMs?: number | null;
}

/** Errors a Redis connection gives when Redis is away, slow or restarting: the work fails, never the process. */
export function isRedisConnectionError(err: unknown): boolean {
  const e = err as { name?: unknown; message?: unknown; code?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (
    typeof e.message === 'string' &&
    /^Command timed out|^Stream isn't writeable|^Connection is closed|^Reached the max retries/.test(e.message)
  )
    return true;
  return false;
}

/** A Redis connection with the options every server connection uses; errors are logged, never thrown. */
export function redisClient(url: string, log?: Logger, name = 'redis', opts: RedisClientOptions = {}): Redis {
  const client = new Redis(url, {
    // One retry of a command cut by a reconnect; a command that gets no answer fails by the timeout.
    maxRetriesPerRequest: 1,
    ...(opts.commandTimeoutMs === null ? {} : { commandTimeout: opts.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS }),
    enableOfflineQueue: opts.offlineQueue ?? true,
    enableAutoPipelining: true,
    connectionName: name,
    // A lost connection is tried again soon and often: at most 500 ms between attempts.
    retryStrategy: (times) => Math.min(50 * times, 500),
  });
  let lastLogged = 0;
  client.on('error', (err: Error) => {
    // ioredis retries on its own; one line per 10 s is enough for the operator.
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    log?.error({ err: { message: err.message } }, `${name} connection error`);
  });
  return client;
}

/**
 * The bus across servers on Redis pub/sub. Local handlers get this server's own messages at once
 * (same order and latency as the in-process bus); the copy that comes back from Redis carries this
 * bus's origin id and is skipped. Each message is JSON-encoded once.
 */
export class RedisBus implements Bus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly origin = randomBytes(ORIGIN_LENGTH / 2).toString('hex');
  private readonly prefix: string;
  private readonly handlers = new Map<string, Set<BusHandler>>();
  private pending = new Set<Promise<unknown>>();
  private readonly log: Logger | undefined;

  constructor(opts: RedisBusOptions) {
    this.prefix = opts.prefix ?? '';
    this.log = opts.log;
    // A publish waits a little longer than a request's command: under load an answer can be late
    // without Redis being away, and a dropped message costs more than a skipped count.
    this.pub = redisClient(opts.url, opts.log, 'bus-publisher', { commandTimeoutMs: PUBLISH_TIMEOUT_MS });
    // Subscriptions are never given up: one timed out would leave its channel deaf.
    this.sub = redisClient(opts.url, opts.log, 'bus-subscriber', { commandTimeoutMs: null });
    this.sub.on('message', (channel: string, raw: string) => this.receive(channel, raw));
  }

  publish(channel: string, message: unknown): void {
    this.deliver(channel, message);
    const raw = this.origin + JSON.stringify(message);
    // Fails open: the bus carries notifications; a message Redis cannot take now is dropped (and
    // what depends on it is read again from the database), never waited for.
    this.pub.publish(this.prefix + channel, raw).catch((err: unknown) => this.publishFailed(err, channel));
  }

  private lastPublishFailureLog = 0;
  private publishFailed(err: unknown, channel: string): void {
    if (Date.now() - this.lastPublishFailureLog < 10_000) return;
    this.lastPublishFailureLog = Date.now();
    this.log?.warn(
      { err: { message: (err as Error).message }, channel },
      'bus publish failed (further failures in the next 10 s not logged)',
    );
  }

  /** Whether Redis answers a PING within `timeoutMs` (readiness): a connection can be 'ready' on a Redis that hangs. */
  async ping(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        this.pub.ping(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer')), timeoutMs);
        }),
      ]);
      return answer === 'PONG';
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  subscribe(channel: string, handler: BusHandler): () => void {
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      this.track(this.sub.subscribe(this.prefix + channel));
    }
    set.add(handler);
    return () => {
      if (!set.delete(handler) || set.size > 0 || this.handlers.get(channel) !== set) return;
      this.handlers.delete(channel);
      this.track(this.sub.unsubscribe(this.prefix + channel));
    };
  }

  /** ioredis connection states: both must be 'ready' for messages to cross servers. */
  state(): BusState {
    const detail = { publisher: this.pub.status, subscriber: this.sub.status };
    return { kind: 'redis', connected: detail.publisher === 'ready' && detail.subscriber === 'ready', detail };
  }

  /** Resolves once every subscribe and unsubscribe sent so far has been answered by Redis. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }

  private track(p: Promise<unknown>): void {
    const tracked = p
      .catch((err: unknown) => this.log?.warn({ err }, 'bus subscription change failed'))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private receive(prefixed: string, raw: string): void {
    if (raw.startsWith(this.origin)) return;
    const channel = prefixed.slice(this.prefix.length);
    if (!this.handlers.has(channel)) return;
    let message: unknown;
    try {
      message = JSON.parse(raw.slice(ORIGIN_LENGTH));
    } catch (err) {
      this.log?.warn({ err, channel }, 'bus message is not JSON');
      return;
    }
    this.deliver(channel, message);
  }

  private deliver(channel: string, message: unknown): void {
    const set = this.handlers.get(channel);
    if (!set) return;
    for (const h of set) {
      try {
        h(message);
      } catch (err) {
        this.log?.error({ err, channel }, 'bus handler failed');
      }
    }
  }
}
