import { dec, fixed, moneyStr } from '@tp/contract/decimal';
import { pushMessage } from '@tp/contract/pushes';
import type { DeskClients, DeskExposure } from '@tp/contract/schemas/admin';
import type { AppContext } from '../../context.ts';
import { invalid } from '../../http/errors.ts';
import type { AuthStaff } from '../../context.ts';
import { BusChannels } from '../../platform/bus-channels.ts';
import { userContacts } from '../auth/index.ts';
import { houseTotalsSince } from '../ledger/index.ts';
import { readSetting, writeSetting } from './setup-repository.ts';

/** The desk push's period: about twice a second. */
const PUSH_MS = 500;
/** Desk sockets say they are there every second; after this long without word, the pushes stop. */
const WANTED_FOR_MS = 3_000;

/** Flow quality: a trade closed in profit within this many seconds of opening is a quick win. */
const QUICK_SECONDS = 60;
/** A client whose quick wins are at least this share of their trades (over at least TOXIC_MIN_TRADES) is flagged. */
const TOXIC_SHARE = '0.3';
const TOXIC_MIN_TRADES = 10;
const FLOW_DAYS = 30;
/**
 * The desk's limits on the clients' net lots: one setting, {"symbolId": lots} for every client's and
 * {"groupId:symbolId": lots} for one account group's clients.
 */
const LIMITS_KEY = 'desk_limits';
/** How long a server trusts its copy of the limits (another server may have saved new ones). */
const LIMITS_TTL_MS = 5_000;

const startOfTodayUtc = () => {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  return d;
};

/**
 * The dealer's desk: the house's book as the engine holds it, and its realised result today. The
 * server running the engine pushes it on a timer of its own (never per tick), and only while some
 * server has a staff socket subscribed to DESK.
 */
export class DealerDesk {
  private wantedUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private publishing = false;
  private offWanted: (() => void) | null = null;

  constructor(private readonly ctx: AppContext) {}

  private limitsCache: { at: number; limits: Map<string, string> } | null = null;
  /** Symbols over their limit at the last push, so a breach is counted once as it starts. */
  private overLimit = new Set<string>();

  /** Real or demo accounts' figures now, each symbol with its limit and whether its net lots pass it. */
  async exposure(isDemo: boolean): Promise<DeskExposure> {
    const [book, house, limits] = await Promise.all([
      this.ctx.services.trading.deskBook(isDemo),
      houseTotalsSince(this.ctx.db, ['counterparty'], startOfTodayUtc(), isDemo),
      this.limits(),
    ]);
    const withLimits = (symbols: DeskExposure['symbols'], groupId: number | null) =>
      symbols.map((s) => {
        const limit = limits.get(limitKey(groupId, s.symbol_id)) ?? null;
        return { ...s, limit_lots: limit, over_limit: limit !== null && dec(s.net_lots).abs().gt(limit) ? 1 : 0 };
      });
    return {
      ...book,
      symbols: withLimits(book.symbols, null),
      groups: book.groups.map((g) => ({ ...g, symbols: withLimits(g.symbols, g.group_id) })),
      house_realised_today: moneyStr(house.get('counterparty') ?? 0),
    };
  }

  /** The clients who move the book: largest positions and floating profits, best 30 days, near margin call, flow quality. */
  async clients(isDemo: boolean): Promise<DeskClients> {
    const trading = this.ctx.services.trading;
    const since = new Date(Date.now() - FLOW_DAYS * 86_400_000);
    const [live, flow] = await Promise.all([trading.deskClients(isDemo), trading.closedFlowSince(isDemo, since, QUICK_SECONDS)]);
    const top30 = [...flow].sort((a, b) => dec(b.profit).cmp(a.profit) || a.userId - b.userId).slice(0, 10);
    const share = (quick: number, trades: number) => (trades ? dec(quick).div(trades) : dec(0));
    const flowRows = [...flow]
      .sort((a, b) => share(b.quickWins, b.trades).cmp(share(a.quickWins, a.trades)) || b.trades - a.trades || a.userId - b.userId)
      .slice(0, 20);
    const calls = await trading.lastMarginCalls(live.near.filter((n) => n.marginCall).map((n) => n.userId));
    const ids = [
      ...live.largest.map((r) => r.userId),
      ...live.floating.map((r) => r.userId),
      ...live.near.map((r) => r.userId),
      ...top30.map((r) => r.userId),
      ...flowRows.map((r) => r.userId),
    ];
    const contacts = await userContacts(this.ctx.db, ids);
    const email = (userId: number) => {
      const c = contacts.get(userId);
      return c?.email ?? c?.mobile ?? c?.uid ?? String(userId);
    };
    return {
      is_demo: isDemo ? 1 : 0,
      source: live.source,
      time: Date.now(),
      largest_positions: live.largest.map(({ usdValue: _, userId, orderId, ...r }) => ({
        user_id: userId,
        email: email(userId),
        order_id: orderId,
        ...r,
      })),
      top_floating: live.floating.map((r) => ({
        user_id: r.userId,
        email: email(r.userId),
        positions: r.positions,
        floating: moneyStr(r.floating),
        equity: moneyStr(r.equity),
      })),
      top_30d: top30.map((r) => ({ user_id: r.userId, email: email(r.userId), trades: r.trades, profit: moneyStr(dec(r.profit)) })),
      near_margin: live.near.map((r) => ({
        user_id: r.userId,
        email: email(r.userId),
        margin_level: fixed(r.marginLevel, 2),
        margin_call: r.marginCall ? 1 : 0,
        stop_out_level: fixed(r.stopOutLevel, 2),
        since: r.marginCall ? (calls.get(r.userId)?.toISOString() ?? null) : null,
      })),
      flow: flowRows.map((r) => {
        const s = share(r.quickWins, r.trades);
        return {
          user_id: r.userId,
          email: email(r.userId),
          trades: r.trades,
          avg_hold_seconds: r.avgHoldSeconds,
          quick_wins: r.quickWins,
          quick_win_share: fixed(s, 4),
          toxic: r.trades >= TOXIC_MIN_TRADES && s.gte(TOXIC_SHARE) ? 1 : 0,
        };
      }),
      rules: { quick_seconds: QUICK_SECONDS, toxic_share: TOXIC_SHARE, toxic_min_trades: TOXIC_MIN_TRADES },
    };
  }

  /** The limits on the clients' net lots by limitKey (cached for a few seconds). */
  async limits(): Promise<Map<string, string>> {
    if (this.limitsCache && Date.now() - this.limitsCache.at < LIMITS_TTL_MS) return this.limitsCache.limits;
    const limits = parseLimits(await readSetting(this.ctx.db, LIMITS_KEY));
    this.limitsCache = { at: Date.now(), limits };
    return limits;
  }

  async limitList() {
    const limits = await this.limits();
    const market = this.ctx.services.market;
    const groups = this.ctx.services.trading.settings.groups;
    return [...limits.entries()]
      .map(([key, lots]) => {
        const { groupId, symbolId } = parseKey(key);
        return {
          symbol_id: symbolId,
          code: market.symbol(symbolId)?.showCode ?? String(symbolId),
          max_net_lots: lots,
          group_id: groupId,
          group_name: groupId === null ? null : (groups.group(groupId)?.name ?? String(groupId)),
        };
      })
      .sort((a, b) => a.code.localeCompare(b.code) || (a.group_name ?? '').localeCompare(b.group_name ?? ''));
  }

  /** Sets (or, with an empty or zero value, removes) a symbol's limit, of every client or of one group's; audited. */
  async saveLimit(who: AuthStaff, symbolId: number, raw: string, groupId: number | null = null) {
    if (!this.ctx.services.market.symbol(symbolId)) throw invalid('admin.not_found');
    if (groupId !== null) {
      await this.ctx.services.trading.settings.groups.reload(this.ctx.db);
      if (!this.ctx.services.trading.settings.groups.group(groupId)) throw invalid('admin.not_found');
    }
    const lots = raw.trim() === '' ? null : dec(raw);
    const key = limitKey(groupId, symbolId);
    await this.ctx.db.transaction(async (tx) => {
      const before = parseLimits(await readSetting(tx, LIMITS_KEY));
      const after = new Map(before);
      if (lots === null || lots.isZero()) after.delete(key);
      else after.set(key, fixed(lots, 2));
      await writeSetting(tx, LIMITS_KEY, JSON.stringify(Object.fromEntries(after)));
      await this.ctx.services.staff.audit(
        tx,
        who,
        'desk.limit',
        { type: 'symbol', id: symbolId },
        { group_id: groupId, max_net_lots: before.get(key) ?? null },
        { group_id: groupId, max_net_lots: after.get(key) ?? null },
      );
    });
    this.limitsCache = null;
    return this.limitList();
  }

  /** Counts each symbol that passes its limit as it starts to (a metric and a log line for alerting). */
  private noteBreaches(kind: string, desk: DeskExposure): void {
    const note = (group: string, s: DeskExposure['symbols'][number]) => {
      const key = `${kind}:${group}:${s.code}`;
      seen.add(key);
      if (s.over_limit) {
        if (!this.overLimit.has(key)) {
          this.overLimit.add(key);
          this.ctx.metrics.deskLimitBreaches.inc({ symbol: s.code, accounts: kind, group });
          this.ctx.log.warn({ symbol: s.code, accounts: kind, group, net_lots: s.net_lots, limit_lots: s.limit_lots }, 'desk limit passed');
        }
      } else this.overLimit.delete(key);
    };
    const seen = new Set<string>();
    for (const s of desk.symbols) note('all', s);
    for (const g of desk.groups) for (const s of g.symbols) note(g.name, s);
    // A group or symbol with no position left is no longer over its limit.
    for (const key of this.overLimit) if (key.startsWith(`${kind}:`) && !seen.has(key)) this.overLimit.delete(key);
  }

  start(): void {
    this.offWanted ??= this.ctx.bus.subscribe(BusChannels.deskWanted, () => this.wanted());
  }

  stop(): void {
    this.offWanted?.();
    this.offWanted = null;
    this.stopPushing();
  }

  private wanted(): void {
    this.wantedUntil = Date.now() + WANTED_FOR_MS;
    if (this.timer) return;
    this.timer = setInterval(() => void this.publish(), PUSH_MS);
    this.timer.unref();
    void this.publish();
  }

  private stopPushing(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async publish(): Promise<void> {
    if (Date.now() > this.wantedUntil) return this.stopPushing();
    // Only the server whose engine holds the books pushes (in a cluster, the leader); a slow pass is not stacked on.
    if (this.publishing || !this.ctx.services.trading.engine.running) return;
    this.publishing = true;
    try {
      const [real, demo] = await Promise.all([this.exposure(false), this.exposure(true)]);
      this.noteBreaches('real', real);
      this.noteBreaches('demo', demo);
      this.ctx.bus.publish(BusChannels.staffDesk, pushMessage('DESK', { real, demo }));
    } catch (err) {
      this.ctx.log.warn({ err }, 'dealer desk push failed');
    } finally {
      this.publishing = false;
    }
  }
}

/** A limit's key in the setting: "symbolId" (every client), "groupId:symbolId" (one group's clients). */
const limitKey = (groupId: number | null, symbolId: number) => (groupId === null ? String(symbolId) : `${groupId}:${symbolId}`);

function parseKey(key: string): { groupId: number | null; symbolId: number } {
  const [a, b] = key.split(':');
  return b === undefined ? { groupId: null, symbolId: Number(a) } : { groupId: Number(a), symbolId: Number(b) };
}

/** The stored limits, skipping anything unreadable (a hand-edited setting never breaks the desk). */
function parseLimits(text: string | undefined): Map<string, string> {
  const limits = new Map<string, string>();
  if (!text) return limits;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object') {
      for (const [k, v] of Object.entries(parsed)) {
        if (/^(\d+:)?\d+$/.test(k) && typeof v === 'string' && /^\d{1,10}(\.\d{1,2})?$/.test(v) && !dec(v).isZero()) limits.set(k, v);
      }
    }
  } catch {
    // ignored: no limits
  }
  return limits;
}
