import os from 'node:os';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { AppContext, BackgroundTask } from '../context.ts';
import type { Bus } from './bus.ts';
import { type LeaderElector, leaderFence, PgLeaderElector, SoleLeader } from './leader.ts';
import { RedisBus, redisClient } from './redis-bus.ts';
import { FallbackThrottle, gatedRateLimitClient, RedisGate } from './redis-gate.ts';
import { S3Storage } from './storage-s3.ts';
import { LocalStorage, type Storage } from './storage.ts';
import { type PushJournal, RedisPushJournal } from './push-journal.ts';
import { RedisThrottle, type Throttle } from './throttle.ts';

/**
 * What several servers share, chosen by configuration: with REDIS_URL the bus, the login and code
 * throttles and the rate limits live in Redis; uploads go to STORAGE_DRIVER's storage.
 */
export interface SharedPlatform {
  bus: Bus | null;
  /** Users' recent pushes for replay, shared by every server (null: in memory). */
  pushJournal: PushJournal | null;
  throttle: Throttle | null;
  storage: Storage;
  /** Options for @fastify/rate-limit that count in Redis (empty without Redis). */
  rateLimitStore: { redis?: Redis; nameSpace?: string; skipOnError?: boolean };
  close(): Promise<void>;
}

export const journalLimits = (config: Config) => ({ windowMs: config.WS_REPLAY_WINDOW_MS, maxEntries: config.WS_REPLAY_MAX_ENTRIES });

export function createSharedPlatform(config: Config, log: Logger): SharedPlatform {
  const storage: Storage =
    config.STORAGE_DRIVER === 's3'
      ? new S3Storage({
          endpoint: config.S3_ENDPOINT!,
          bucket: config.S3_BUCKET!,
          region: config.S3_REGION,
          accessKey: config.S3_ACCESS_KEY!,
          secretKey: config.S3_SECRET_KEY!,
          pathStyle: config.S3_PATH_STYLE,
        })
      : new LocalStorage(config.storageDir);
  if (!config.REDIS_URL) return { bus: null, pushJournal: null, throttle: null, storage, rateLimitStore: {}, close: async () => undefined };
  const prefix = config.REDIS_PREFIX;
  const commands = redisClient(config.REDIS_URL, log, 'commands');
  const gate = new RedisGate(commands, log);
  return {
    bus: new RedisBus({ url: config.REDIS_URL, prefix, log }),
    pushJournal: new RedisPushJournal(commands, prefix, journalLimits(config), log),
    throttle: new FallbackThrottle(new RedisThrottle(commands, prefix), gate),
    storage,
    // A Redis outage must not take the API down: requests then pass uncounted, at once.
    rateLimitStore: { redis: gatedRateLimitClient(commands, gate), nameSpace: `${prefix}rate-limit:`, skipOnError: true },
    async close() {
      gate.close();
      await commands.quit().catch(() => undefined);
    },
  };
}

/**
 * Runs the background tasks: every server runs the ordinary ones; the leader-only ones (price
 * feed, engine) run on the server elected through PostgreSQL, or always on a lone PGlite process.
 */
export class BackgroundRunner {
  private readonly elector: LeaderElector;
  private readonly running: BackgroundTask[] = [];
  private readonly leading: BackgroundTask[] = [];
  private started = false;

  constructor(private readonly ctx: AppContext) {
    const callbacks = {
      onElected: () => {
        ctx.metrics.leaderChanged();
        return this.startLeaderTasks();
      },
      onDeposed: () => {
        ctx.metrics.leaderChanged();
        return this.stopLeaderTasks();
      },
    };
    const { config } = ctx;
    this.elector =
      ctx.clustered && config.DATABASE_URL
        ? new PgLeaderElector(
            {
              url: config.DATABASE_URL,
              log: ctx.log,
              name: `tp-leader ${os.hostname()}:${config.PORT} pid ${process.pid}`,
              retryMs: config.LEADER_RETRY_MS,
              leaseMs: config.LEADER_LEASE_MS,
            },
            callbacks,
          )
        : new SoleLeader(callbacks);
    ctx.leaderEpoch = () => this.elector.epoch;
  }

  get isLeader(): boolean {
    return this.elector.isLeader;
  }

  async start(): Promise<void> {
    this.started = true;
    for (const task of this.ctx.background.filter((t) => !t.leaderOnly)) {
      await task.start();
      this.running.push(task);
      this.ctx.log.debug({ task: task.name }, 'background task started');
    }
    await this.elector.start();
    if (!this.elector.isLeader && !this.ctx.config.REDIS_URL)
      this.ctx.log.warn(
        'another server leads this database but REDIS_URL is unset: set it on every server, or prices and orders will not cross between them',
      );
  }

  async stop(): Promise<void> {
    // Never started (tests): every task still gets its stop, which settles work started by calls.
    if (!this.started) {
      for (const task of [...this.ctx.background].reverse()) await task.stop();
      return;
    }
    await this.elector.stop();
    for (const task of this.running.splice(0).reverse()) await task.stop();
  }

  private async startLeaderTasks(): Promise<void> {
    const epoch = this.elector.epoch;
    try {
      for (const task of this.ctx.background.filter((t) => t.leaderOnly)) {
        // Timers and callbacks the task sets up carry the epoch: their transactions are fenced.
        await (epoch === undefined ? task.start() : leaderFence.run(epoch, () => task.start()));
        this.leading.push(task);
        this.ctx.log.debug({ task: task.name }, 'leader task started');
      }
    } catch (err) {
      await this.stopLeaderTasks();
      throw err;
    }
  }

  private async stopLeaderTasks(): Promise<void> {
    for (const task of this.leading.splice(0).reverse()) {
      try {
        await task.stop();
      } catch (err) {
        this.ctx.log.error({ err, task: task.name }, 'leader task did not stop cleanly');
      }
    }
  }
}
