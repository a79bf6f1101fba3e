import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ServerMessageOf } from '@tp/contract/pushes';
import type { Bus } from './bus.ts';
import { BusChannels } from './bus-channels.ts';

/** The user pushes a reconnecting client can ask for again (an event it must not miss), with their `seq`. */
export type JournaledPush = ServerMessageOf<'NOTICE' | 'FOREX_CLOSED'>;

export interface ReplayBatch {
  /** The kept pushes after the client's seq, oldest first, each with its seq. */
  pushes: JournaledPush[];
  /** False when pushes after the client's seq are no longer kept (or the seq is not one we gave): refetch. */
  complete: boolean;
}

export interface JournalLimits {
  /** How long a push is kept for replay. */
  windowMs: number;
  /** The most pushes kept per user. */
  maxEntries: number;
}

/**
 * How long a user's last seq is remembered after their last push: a client that has seen it missed
 * nothing, however quiet the account was since.
 */
const LAST_SEQ_TTL_MS = 24 * 3600_000;

/**
 * A new numbering (a restarted lone server, or a Redis that forgot the user) starts from the clock in
 * milliseconds: above every seq of an earlier one (a user gets far fewer than one push a millisecond),
 * and exact in JavaScript and in Redis's Lua.
 */
const freshBase = (now: number): number => now;

/**
 * Per user, the last few minutes of the pushes a client must not miss. Each gets the user's next
 * `seq` (increasing, one by one); a client that reconnects names the last seq it saw and gets what
 * followed. In memory for a lone server; in Redis when several servers share one (a client may come
 * back on another server).
 */
export interface PushJournal {
  /** Gives the push the user's next seq and keeps it; the seq (null: not kept, the push goes out without one). */
  append(userId: number, push: JournaledPush): number | Promise<number | null>;
  replay(userId: number, after: number): Promise<ReplayBatch>;
}

/** Publishes a NOTICE or FOREX_CLOSED on the user's channel with its seq, once the journal has kept it. */
export function publishJournaled(bus: Bus, journal: PushJournal, userId: number, push: JournaledPush): void {
  const channel = BusChannels.userChannel(userId);
  const seq = journal.append(userId, push);
  if (typeof seq === 'number') {
    bus.publish(channel, { ...push, seq });
    return;
  }
  // Replies of one Redis connection come back in the order sent, so one server's pushes keep their order.
  void seq.then((s) => bus.publish(channel, s === null ? push : { ...push, seq: s }));
}

interface Entry {
  seq: number;
  at: number;
  push: JournaledPush;
}

/** What a replay answers from a user's kept entries (oldest first) and the last seq given. */
function replayOf(entries: Entry[], last: number | null, after: number, now: number, windowMs: number): ReplayBatch {
  const fresh = entries.filter((e) => now - e.at <= windowMs);
  const pushes = fresh.filter((e) => e.seq > after).map((e) => ({ ...e.push, seq: e.seq }));
  // Seqs follow one another: nothing is missing when the client saw the last one, or the oldest kept one is next to its seq.
  const complete = last !== null && after <= last && (after === last || (fresh.length > 0 && fresh[0]!.seq <= after + 1));
  return { pushes, complete };
}

/** One server: the journal in this process (a restart forgets it; the client then refetches). */
export class MemoryPushJournal implements PushJournal {
  private readonly users = new Map<number, { last: number; lastAt: number; entries: Entry[] }>();
  private sweptAt = 0;

  constructor(
    private readonly limits: JournalLimits,
    private readonly now: () => number = Date.now,
  ) {}

  append(userId: number, push: JournaledPush): number {
    const now = this.now();
    this.sweep(now);
    let user = this.users.get(userId);
    if (!user) this.users.set(userId, (user = { last: freshBase(now), lastAt: now, entries: [] }));
    const seq = ++user.last;
    user.lastAt = now;
    user.entries.push({ seq, at: now, push });
    this.prune(user.entries, now);
    return seq;
  }

  async replay(userId: number, after: number): Promise<ReplayBatch> {
    const user = this.users.get(userId);
    if (user) this.prune(user.entries, this.now());
    return replayOf(user?.entries ?? [], user?.last ?? null, after, this.now(), this.limits.windowMs);
  }

  private prune(entries: Entry[], now: number): void {
    let drop = Math.max(0, entries.length - this.limits.maxEntries);
    while (drop < entries.length && now - entries[drop]!.at > this.limits.windowMs) drop++;
    if (drop) entries.splice(0, drop);
  }

  /** Now and then, forgets the users whose last push is older than a day (their entries are long gone). */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [id, user] of this.users) {
      this.prune(user.entries, now);
      if (now - user.lastAt > LAST_SEQ_TTL_MS) this.users.delete(id);
    }
  }
}

/**
 * KEYS: the entries (sorted set by seq; member "seq|time|json"), the last seq. ARGV: a fresh base,
 * now, the window, the most entries, the last seq's lifetime, the push's JSON. Answers the seq.
 */
const APPEND_SCRIPT = `
if redis.call('exists', KEYS[2]) == 0 then redis.call('set', KEYS[2], ARGV[1]) end
local seq = redis.call('incr', KEYS[2])
redis.call('zadd', KEYS[1], seq, seq .. '|' .. ARGV[2] .. '|' .. ARGV[6])
redis.call('zremrangebyrank', KEYS[1], 0, -1 - tonumber(ARGV[4]))
redis.call('pexpire', KEYS[1], ARGV[3])
redis.call('pexpire', KEYS[2], ARGV[5])
return seq
`;

type JournalRedis = Redis & {
  pushJournalAppend(entries: string, last: string, ...args: (string | number)[]): Promise<number>;
};

/** Several servers: the journal in Redis, so a client that comes back on another server gets what it missed. */
export class RedisPushJournal implements PushJournal {
  private readonly redis: JournalRedis;
  private failureLoggedAt = 0;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly limits: JournalLimits,
    private readonly log?: Logger,
  ) {
    redis.defineCommand('pushJournalAppend', { numberOfKeys: 2, lua: APPEND_SCRIPT });
    this.redis = redis as JournalRedis;
  }

  private keys(userId: number): [string, string] {
    return [`${this.prefix}push-journal:${userId}`, `${this.prefix}push-journal:${userId}:seq`];
  }

  async append(userId: number, push: JournaledPush): Promise<number | null> {
    const now = Date.now();
    try {
      const seq = await this.redis.pushJournalAppend(
        ...this.keys(userId),
        freshBase(now),
        now,
        this.limits.windowMs,
        this.limits.maxEntries,
        LAST_SEQ_TTL_MS,
        JSON.stringify(push),
      );
      return Number(seq);
    } catch (err) {
      // Fails open: the push still goes out, without a seq (a client that missed it refetches on reconnect).
      if (now - this.failureLoggedAt > 10_000) {
        this.failureLoggedAt = now;
        this.log?.warn(
          { err: { message: (err as Error).message }, userId },
          'push not journaled (further failures in the next 10 s not logged)',
        );
      }
      return null;
    }
  }

  async replay(userId: number, after: number): Promise<ReplayBatch> {
    const [entriesKey, lastKey] = this.keys(userId);
    const [members, last] = await Promise.all([this.redis.zrange(entriesKey, '0', '-1'), this.redis.get(lastKey)]);
    const entries: Entry[] = [];
    for (const member of members) {
      const [seq, at] = member.split('|', 2);
      const json = member.slice(seq!.length + at!.length + 2);
      entries.push({ seq: Number(seq), at: Number(at), push: JSON.parse(json) as JournaledPush });
    }
    return replayOf(entries, last === null ? null : Number(last), after, Date.now(), this.limits.windowMs);
  }
}
