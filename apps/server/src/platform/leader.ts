import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type { Logger } from 'pino';

/** Retry turns a leader that lost its lease waits before it competes again. */
const LOST_LEADER_HOLD_OFF_TURNS = 3;

/** The advisory lock every server of one database competes for (an arbitrary constant). */
export const LEADER_LOCK_KEY = 7_320_514_611;

export interface LeaderCallbacks {
  /** Starts the leader-only work (price feed, engine). */
  onElected(): Promise<void>;
  /** Stops it; also called when leadership is lost. */
  onDeposed(): Promise<void>;
}

export interface LeaderElector {
  readonly isLeader: boolean;
  /** The lease's epoch, where the lead is a lease (absent: a lone server, nothing to fence). */
  readonly epoch?: number;
  /** Makes a first attempt (so a lone server is leader when this resolves), then keeps trying. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** One process on its own database (PGlite): always the leader. */
export class SoleLeader implements LeaderElector {
  isLeader = false;

  constructor(private readonly callbacks: LeaderCallbacks) {}

  async start(): Promise<void> {
    this.isLeader = true;
    await this.callbacks.onElected();
  }

  async stop(): Promise<void> {
    if (!this.isLeader) return;
    this.isLeader = false;
    await this.callbacks.onDeposed();
  }
}

export interface PgLeaderOptions {
  url: string;
  log: Logger;
  /** Shown in pg_stat_activity, to tell which server leads. */
  name: string;
  /** How often a follower tries to lead, and the leader renews its lease. */
  retryMs?: number;
  /** How long a renewed lease lasts; a leader that cannot renew stops acting before it ends. */
  leaseMs?: number;
  /** A query on the election connection that gets no answer within this time has failed. */
  pingTimeoutMs?: number;
  key?: number;
}

/**
 * The epoch of the lease under which the current async call runs (the engine's jobs): every
 * transaction begun under it checks first, under a share lock on the lease row, that the epoch is
 * still current, so a leader that was paused or cut off and resumes cannot write once another
 * server has taken the lead.
 */
export const leaderFence = new AsyncLocalStorage<number>();

/** The statement that refuses (SQLSTATE TPF01) a transaction of a superseded leader. */
export const fenceStatement = (epoch: number): string => {
  if (!Number.isSafeInteger(epoch)) throw new Error(`leader: bad epoch ${String(epoch)}`);
  return `select leader_fence(${epoch})`;
};

/** Whether an error is the database refusing a superseded leader's write. */
export const isFenced = (err: unknown): boolean => {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === 'TPF01') return true;
  }
  return false;
};

/**
 * Leader election on PostgreSQL with a lease and a fence. The leader holds a lease row (epoch,
 * expiry by the database's clock) that it renews every `retryMs`; a follower takes the lead when
 * the lease has expired (a paused, frozen or partitioned leader) or at once when it wins the
 * leader's session lock (`pg_try_advisory_lock`: the old leader's connection is gone, e.g. its
 * process died). Taking the lead bumps the epoch. A leader that cannot renew stops acting before
 * its lease ends by its own clock; one that resumes after a pause finds its epoch superseded on
 * the first renewal and steps down, and any write it attempts in between is refused by the
 * database (leaderFence). Losing the connection is no reason to step down while the lease holds:
 * a lone server that reconnects keeps leading.
 */
export class PgLeaderElector implements LeaderElector {
  private leading = false;
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private stopped = false;
  private chain: Promise<void> = Promise.resolve();
  private readonly retryMs: number;
  private readonly leaseMs: number;
  private readonly pingTimeoutMs: number;
  private readonly key: number;
  /** The epoch of the lease this server holds or last held. */
  private heldEpoch: number | undefined;
  /** By this server's clock: the moment it must stop acting unless it renews first. */
  private actUntil = 0;
  private holdsLock = false;
  /** After losing its lease, this server lets the others try first until then. */
  private holdOffUntil = 0;

  constructor(
    private readonly opts: PgLeaderOptions,
    private readonly callbacks: LeaderCallbacks,
  ) {
    this.retryMs = opts.retryMs ?? 1_000;
    this.leaseMs = Math.max(opts.leaseMs ?? 3_000, 2 * this.retryMs);
    this.pingTimeoutMs = Math.min(opts.pingTimeoutMs ?? this.retryMs, this.retryMs);
    this.key = opts.key ?? LEADER_LOCK_KEY;
  }

  /** Leading, and within the lease by this server's clock. */
  get isLeader(): boolean {
    return this.leading && Date.now() < this.actUntil;
  }

  /** The epoch of the lease this server holds (or held last): what the engine's writes carry. */
  get epoch(): number | undefined {
    return this.heldEpoch;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.step();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.serially(async () => {
      const wasLeading = this.leading;
      await this.stepDown('stopping');
      // A graceful stop hands over at once: the lease ends now.
      if (wasLeading) await this.releaseLease();
      await this.closeClient();
    });
  }

  /** Election steps never overlap: a step-down finishes before the next try for the lead. */
  private serially(fn: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(fn).catch((err: unknown) => this.opts.log.error({ err }, 'leader election step failed'));
    return this.chain;
  }

  /** One turn: try for the lead while following, renew while leading; then plan the next turn. */
  private async step(): Promise<void> {
    await this.serially(() => (this.leading ? this.renew() : this.tryToLead()));
    if (!this.stopped) {
      this.timer = setTimeout(() => void this.step(), this.retryMs);
      this.timer.unref();
    }
  }

  private async query<R extends pg.QueryResultRow>(text: string, params: unknown[]): Promise<R[]> {
    const client = this.client ?? (await this.connect());
    if (!client) throw new Error('database not reachable');
    try {
      return (await withTimeout(client.query<R>(text, params), this.pingTimeoutMs)).rows;
    } catch (err) {
      // A connection that does not answer is not trusted again: the next turn opens a new one.
      await this.closeClient();
      throw err;
    }
  }

  private async tryToLead(): Promise<void> {
    if (this.stopped) return;
    const startedAt = Date.now();
    let epoch: number | undefined;
    try {
      // Holding off lets another server take over; a server alone takes the lead back at once.
      if (Date.now() < this.holdOffUntil && (await this.othersElecting())) return;
      const [lock] = await this.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [this.key]);
      this.holdsLock = lock?.locked === true;
      // With the lock the previous leader's session is gone: take over now; without it, only an expired lease.
      const [row] = await this.query<{ epoch: string }>(
        `update leader_lease set epoch = epoch + 1, holder = $1, expires_at = now() + $2 * interval '1 millisecond'
          where id = 1 and ($3 or expires_at < now()) returning epoch::text`,
        [this.opts.name, this.leaseMs, this.holdsLock],
      );
      if (!row) return;
      epoch = Number(row.epoch);
    } catch (err) {
      this.opts.log.warn({ err: { message: (err as Error).message } }, 'leader election: could not try for the lead');
      return;
    }
    if (this.stopped) return this.releaseLease();
    this.heldEpoch = epoch;
    this.leading = true;
    this.extend(startedAt);
    this.opts.log.info({ server: this.opts.name, epoch }, 'elected leader: starting the leader-only tasks');
    try {
      await this.callbacks.onElected();
    } catch (err) {
      // Let another server (or this one, a moment later) try.
      await this.stepDown('leader tasks failed to start', err);
      await this.releaseLease();
    }
  }

  /** Whether another server's election connection is open on this database. */
  private async othersElecting(): Promise<boolean> {
    const [row] = await this.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and application_name like 'tp-leader%'`,
      [],
    );
    return (row?.n ?? 0) > 0;
  }

  private async renew(): Promise<void> {
    const startedAt = Date.now();
    let renewed: boolean;
    try {
      if (!this.holdsLock) {
        const [lock] = await this.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [this.key]);
        this.holdsLock = lock?.locked === true;
      }
      const rows = await this.query(
        `update leader_lease set expires_at = now() + $2 * interval '1 millisecond' where id = 1 and epoch = $1 returning 1`,
        [this.heldEpoch, this.leaseMs],
      );
      renewed = rows.length === 1;
    } catch (err) {
      // Still leading until the lease ends by this clock (the watchdog steps down then).
      this.opts.log.warn({ err: { message: (err as Error).message } }, 'leader lease not renewed: trying again');
      return;
    }
    if (!renewed) return this.stepDown('lease taken over');
    this.extend(startedAt);
  }

  /**
   * A renewal sent at `sentAt` holds until sentAt + lease by the database's clock at the latest;
   * this server stops acting a margin before that by its own clock.
   */
  private extend(sentAt: number): void {
    this.actUntil = sentAt + this.leaseMs - Math.min(this.retryMs, this.leaseMs / 4);
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      if (this.leading && Date.now() >= this.actUntil) void this.serially(() => this.stepDown('lease not renewed in time'));
    }, this.actUntil - Date.now());
    this.watchdog.unref();
  }

  private async connect(): Promise<pg.Client | null> {
    const client = new pg.Client({
      connectionString: this.opts.url,
      application_name: this.opts.name,
      keepAlive: true,
      keepAliveInitialDelayMillis: 1_000,
      connectionTimeoutMillis: this.pingTimeoutMs,
    });
    const lost = (err: Error) => {
      if (this.client !== client) return;
      this.client = null;
      this.holdsLock = false;
      // The session lock went with the connection: a follower may win it now, so stop acting now.
      void this.serially(async () => {
        if (this.leading) await this.stepDown('lock connection lost', err);
      });
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('connection ended')));
    try {
      await client.connect();
    } catch (err) {
      this.opts.log.warn({ err: { message: (err as Error).message } }, 'leader election: database not reachable');
      client.end().catch(() => undefined);
      return null;
    }
    this.client = client;
    return client;
  }

  private async releaseLease(): Promise<void> {
    if (this.heldEpoch === undefined) return;
    await this.query(`update leader_lease set expires_at = now() where id = 1 and epoch = $1`, [this.heldEpoch]).catch(() => undefined);
  }

  private async closeClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.holdsLock = false;
    // Closing the connection releases the session lock if PostgreSQL still holds it for us.
    if (client) await withTimeout(client.end(), 1_000).catch(() => destroySocket(client));
  }

  private async stepDown(reason: string, err?: unknown): Promise<void> {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    if (!this.leading) return;
    this.leading = false;
    this.actUntil = 0;
    // A leader that lost its lease is the least likely to serve well: the others get a few turns first.
    this.holdOffUntil = Date.now() + LOST_LEADER_HOLD_OFF_TURNS * this.retryMs;
    this.opts.log.warn({ reason, err }, 'leadership lost: stopping the leader-only tasks');
    // The leader-only tasks stop first, then the session lock goes, so that a follower wins it:
    // never two servers acting as leader at once, even for a moment.
    await this.callbacks.onDeposed();
    await this.closeClient();
  }
}

function destroySocket(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
