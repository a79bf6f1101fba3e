import type { Redis } from 'ioredis';

/**
 * Counts events per key in fixed time windows: login failures, code sends. In memory for one
 * server; a Redis implementation of the same interface shares the counts between servers.
 */
export interface ThrottleResult {
  allowed: boolean;
  /** How long until the window resets, when refused; 0 when allowed. */
  retryAfterMs: number;
  /** From `hit`: the key's count with this event, read in the same atomic step. */
  count?: number;
}

export interface Throttle {
  /** Counts one event; refused once more than `limit` events fall in the window. */
  hit(key: string, limit: number, windowMs: number): Promise<ThrottleResult>;
  /** Whether one more event would be allowed, without counting it. */
  check(key: string, limit: number, windowMs: number): Promise<ThrottleResult>;
  reset(key: string): Promise<void>;
  /** Takes back one event counted in advance (an attempt that turned out well); never below zero. */
  undo(key: string): Promise<void>;
  /** Events counted in the key's current window (0 when none). */
  count(key: string): Promise<number>;
}

interface Window {
  count: number;
  resetAt: number;
}

const SWEEP_AT = 10_000;

export class MemoryThrottle implements Throttle {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowMs: number): Promise<ThrottleResult> {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (this.windows.size >= SWEEP_AT) this.sweep(now);
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return w.count <= limit
      ? { allowed: true, retryAfterMs: 0, count: w.count }
      : { allowed: false, retryAfterMs: w.resetAt - now, count: w.count };
  }

  async check(key: string, limit: number, _windowMs: number): Promise<ThrottleResult> {
    const now = this.now();
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now || w.count < limit) return { allowed: true, retryAfterMs: 0 };
    return { allowed: false, retryAfterMs: w.resetAt - now };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async undo(key: string): Promise<void> {
    const w = this.windows.get(key);
    if (w && w.count > 0) w.count--;
  }

  async count(key: string): Promise<number> {
    const w = this.windows.get(key);
    return w && w.resetAt > this.now() ? w.count : 0;
  }

  private sweep(now: number) {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}

const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;

const UNDO_SCRIPT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return n`;

const CHECK_SCRIPT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
return {n, redis.call('PTTL', KEYS[1])}`;

type ThrottleRedis = Redis & {
  throttleHit(key: string, windowMs: number): Promise<[number, number]>;
  throttleCheck(key: string): Promise<[number, number]>;
  throttleUndo(key: string): Promise<number>;
};

/** The same fixed windows as MemoryThrottle, counted in Redis (one atomic script per event), so they hold across servers. */
export class RedisThrottle implements Throttle {
  private readonly redis: ThrottleRedis;

  constructor(
    redis: Redis,
    private readonly prefix = '',
  ) {
    redis.defineCommand('throttleHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    redis.defineCommand('throttleCheck', { numberOfKeys: 1, lua: CHECK_SCRIPT });
    redis.defineCommand('throttleUndo', { numberOfKeys: 1, lua: UNDO_SCRIPT });
    this.redis = redis as ThrottleRedis;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<ThrottleResult> {
    const [count, ttl] = await this.redis.throttleHit(this.key(key), windowMs);
    return count <= limit ? { allowed: true, retryAfterMs: 0, count } : { allowed: false, retryAfterMs: Math.max(ttl, 1), count };
  }

  async check(key: string, limit: number, _windowMs: number): Promise<ThrottleResult> {
    const [count, ttl] = await this.redis.throttleCheck(this.key(key));
    if (count < limit || ttl <= 0) return { allowed: true, retryAfterMs: 0 };
    return { allowed: false, retryAfterMs: ttl };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.key(key));
  }

  async undo(key: string): Promise<void> {
    await this.redis.throttleUndo(this.key(key));
  }

  async count(key: string): Promise<number> {
    return Number((await this.redis.get(this.key(key))) ?? 0);
  }

  private key(key: string): string {
    return `${this.prefix}throttle:${key}`;
  }
}
