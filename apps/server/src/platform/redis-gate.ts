import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { isRedisConnectionError } from './redis-bus.ts';
import { MemoryThrottle, type Throttle, type ThrottleResult } from './throttle.ts';

const PROBE_EVERY_MS = 250;

/**
 * Remembers that Redis stopped answering: after one command fails for want of Redis, callers
 * skip it (and take their fallback at once) until a PING is answered again, so a hung Redis
 * costs one command timeout, not one per request.
 */
export class RedisGate {
  private down = false;
  private probe: NodeJS.Timeout | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly log?: Logger,
  ) {}

  get open(): boolean {
    return !this.down;
  }

  /** Told of a failed command: a Redis that is away closes the gate until it answers a PING. */
  failed(err: unknown): void {
    if (this.down || !isRedisConnectionError(err)) return;
    this.down = true;
    this.log?.warn(
      { err: { message: (err as Error).message } },
      'redis not answering: rate limits pass, throttles count on this server, until it answers again',
    );
    this.probe = setInterval(() => {
      this.redis.ping().then(
        () => this.reopen(),
        () => undefined,
      );
    }, PROBE_EVERY_MS);
    this.probe.unref();
  }

  close(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }

  private reopen(): void {
    if (!this.down) return;
    this.down = false;
    this.close();
    this.log?.info('redis answers again');
  }
}

type Callback = (err: Error | null, result?: unknown) => void;

/**
 * The Redis client the rate limiter counts on, behind the gate: while Redis does not answer, its
 * counting command fails at once and the limiter (skipOnError) lets the request pass. Rate limits
 * fail open: they protect capacity, and an API stopped by its own limiter is the outage they guard against.
 */
export function gatedRateLimitClient(redis: Redis, gate: RedisGate): Redis {
  return new Proxy(redis, {
    get(target, prop, receiver) {
      if (prop !== 'rateLimit') return Reflect.get(target, prop, receiver) as unknown;
      const command = Reflect.get(target, prop, receiver) as ((...args: unknown[]) => unknown) | undefined;
      if (!command) return undefined;
      return (...args: unknown[]) => {
        const cb = args[args.length - 1] as Callback;
        if (!gate.open) return cb(new Error('redis unavailable'));
        args[args.length - 1] = (err: Error | null, result?: unknown) => {
          if (err) gate.failed(err);
          cb(err, result);
        };
        return command.apply(target, args);
      };
    },
  });
}

/**
 * Login and code throttles guard secrets, so they never simply let everything through: while
 * Redis does not answer, each server counts on its own (an attacker gets at most one limit per
 * server for the outage), and the shared counts take over again when Redis answers.
 */
export class FallbackThrottle implements Throttle {
  private readonly local = new MemoryThrottle();

  constructor(
    private readonly shared: Throttle,
    private readonly gate: RedisGate,
  ) {}

  hit(key: string, limit: number, windowMs: number): Promise<ThrottleResult> {
    return this.either((t) => t.hit(key, limit, windowMs));
  }

  check(key: string, limit: number, windowMs: number): Promise<ThrottleResult> {
    return this.either((t) => t.check(key, limit, windowMs));
  }

  async reset(key: string): Promise<void> {
    await this.local.reset(key);
    await this.either((t) => t.reset(key));
  }

  undo(key: string): Promise<void> {
    return this.either((t) => t.undo(key));
  }

  count(key: string): Promise<number> {
    return this.either((t) => t.count(key));
  }

  private async either<T>(fn: (t: Throttle) => Promise<T>): Promise<T> {
    if (!this.gate.open) return fn(this.local);
    try {
      return await fn(this.shared);
    } catch (err) {
      if (!isRedisConnectionError(err)) throw err;
      this.gate.failed(err);
      return fn(this.local);
    }
  }
}
