import type { AppContext } from '../context.ts';
import { APPLIED_MIGRATION_QUERY, latestMigration, queryRaw } from '../platform/db/client.ts';
import { type FeedSummary, feedSummary, fixModeOf, fixRoutesOf, fixSessionsOf } from './feed-health.ts';
import type { FixMode, FixSymbolRoute } from '../modules/market/index.ts';

/** A readiness poll every second costs at most one query a second. */
const DB_CHECK_CACHE_MS = 1_000;
const DB_CHECK_TIMEOUT_MS = 1_000;
/** A Redis that does not answer a PING within this time is not ready, even with its connections up. */
export const BUS_PING_TIMEOUT_MS = 1_000;

interface FixSessionReport {
  name: string;
  primary: boolean;
  loggedOn: boolean;
  lastMessageAt: string | null;
  inSeqNum: number;
  outSeqNum: number;
  gaps: number;
  reconnects: number;
}

interface DatabaseCheck {
  database: { ok: boolean; kind: 'pglite' | 'postgres'; latencyMs: number; error?: string };
  migrations: { ok: boolean; expected: string; appliedAt: string | null };
}

export interface ReadyReport {
  status: 'ready' | 'not_ready';
  role: 'leader' | 'follower';
  checks: DatabaseCheck & {
    feed: FeedSummary;
    /** PRICE_SOURCE=fix on the leader: each session's state; shown, not counted (the feed check covers the prices). */
    fix?: { ok: boolean; mode: FixMode; sessions: FixSessionReport[]; symbols: FixSymbolRoute[] };
    bus: { ok: boolean; kind: 'memory' | 'redis'; detail?: Record<string, string> };
  };
}

/**
 * Readiness for a load balancer: the database answers and has this build's migrations, the price
 * feed is fresh, the bus is connected. The database check is shared by polls within a second.
 */
export class Health {
  private readonly expected = latestMigration();
  private cached: { at: number; check: Promise<DatabaseCheck> } | null = null;
  private busPing: { at: number; check: Promise<boolean> } | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly isLeader: () => boolean,
  ) {}

  async ready(now = Date.now()): Promise<ReadyReport> {
    const [db, answers] = await Promise.all([this.databaseCheck(now), this.busCheck(now)]);
    const feed = feedSummary(this.ctx, now);
    const bus = this.ctx.bus.state?.() ?? { kind: 'memory' as const, connected: true };
    const detail = { ...bus.detail, ...(answers ? {} : { ping: `no answer within ${BUS_PING_TIMEOUT_MS} ms` }) };
    const fixSessions = fixSessionsOf(this.ctx);
    const fix = fixSessions.length
      ? {
          fix: {
            ok: fixSessions.some((s) => s.loggedOn),
            mode: fixModeOf(this.ctx) ?? 'failover',
            sessions: fixSessions.map((s) => ({
              name: s.name,
              primary: s.primary,
              loggedOn: s.loggedOn,
              lastMessageAt: s.lastMessageAt === null ? null : new Date(s.lastMessageAt).toISOString(),
              inSeqNum: s.inSeqNum,
              outSeqNum: s.outSeqNum,
              gaps: s.gaps,
              reconnects: s.reconnects,
            })),
            symbols: fixRoutesOf(this.ctx),
          },
        }
      : {};
    const checks = {
      ...db,
      feed,
      ...fix,
      bus: { ok: bus.connected && answers, kind: bus.kind, ...(Object.keys(detail).length ? { detail } : {}) },
    };
    const ok = checks.database.ok && checks.migrations.ok && feed.ok && checks.bus.ok;
    return { status: ok ? 'ready' : 'not_ready', role: this.isLeader() ? 'leader' : 'follower', checks };
  }

  private databaseCheck(now: number): Promise<DatabaseCheck> {
    if (!this.cached || now - this.cached.at >= DB_CHECK_CACHE_MS) this.cached = { at: now, check: this.queryDatabase() };
    return this.cached.check;
  }

  private busCheck(now: number): Promise<boolean> {
    const bus = this.ctx.bus;
    if (!bus.ping) return Promise.resolve(true);
    if (!this.busPing || now - this.busPing.at >= DB_CHECK_CACHE_MS) this.busPing = { at: now, check: bus.ping(BUS_PING_TIMEOUT_MS) };
    return this.busPing.check;
  }

  private async queryDatabase(): Promise<DatabaseCheck> {
    const kind = this.ctx.dbKind;
    const expected = this.expected.tag;
    const start = performance.now();
    try {
      const [row] = await withTimeout(queryRaw(this.ctx.db, APPLIED_MIGRATION_QUERY, []), DB_CHECK_TIMEOUT_MS);
      const newest = row?.newest == null ? null : Number(row.newest);
      return {
        database: { ok: true, kind, latencyMs: Math.round(performance.now() - start) },
        migrations: {
          ok: newest !== null && newest >= this.expected.when,
          expected,
          appliedAt: newest === null ? null : new Date(newest).toISOString(),
        },
      };
    } catch (err) {
      return {
        database: { ok: false, kind, latencyMs: Math.round(performance.now() - start), error: (err as Error).message },
        migrations: { ok: false, expected, appliedAt: null },
      };
    }
  }
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
