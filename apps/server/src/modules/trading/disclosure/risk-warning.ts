import { eq } from 'drizzle-orm';
import { dec, fixed } from '@tp/contract/decimal';
import type { RiskWarning } from '@tp/contract/schemas/trading';
import type { AppContext } from '../../../context.ts';
import { settings } from '../../../platform/db/platform-schema.ts';
import { tradingResultsSince } from '../../ledger/index.ts';
import type { TradingSettings } from '../admission/settings.ts';
import { realTradersSince } from '../views/read-model.ts';

const SETTING = 'risk_warning';
/** ESMA's figure covers the last 12 months; it is recomputed daily (the rule asks for at least quarterly). */
const PERIOD_MONTHS = 12;
const RECOMPUTE_MS = 24 * 3_600_000;
const CHECK_MS = 3_600_000;

interface Stored {
  percent: string;
  accounts: number;
  lost: number;
  computed_at: string;
  period_from: string;
}

/**
 * The risk warning of the ESMA retail profile: the share of retail (real, not in a professional-profile
 * group) accounts that closed a position in the last 12 months and lost money over them, their
 * trading result taken from the ledger (closed positions' profit, trade fees and swaps). Kept in the
 * settings with the date it was computed; the leader recomputes it daily.
 */
export class RiskWarnings {
  private timer: NodeJS.Timeout | null = null;
  private cache: { at: number; value: Stored | null } | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly settings: TradingSettings,
  ) {}

  async compute(now = new Date()): Promise<Stored> {
    const db = this.ctx.db;
    const from = new Date(now);
    from.setUTCMonth(from.getUTCMonth() - PERIOD_MONTHS);
    const [traders, results] = await Promise.all([realTradersSince(db, from), tradingResultsSince(db, from)]);
    const groups = this.settings.groups;
    await groups.ensureUsers(db, traders);
    const retail = traders.filter((id) => groups.group(groups.groupIdOf(id, false) ?? -1)?.profile !== 'professional');
    const lost = retail.filter((id) => dec(results.get(id) ?? 0).isNegative()).length;
    const value: Stored = {
      percent: retail.length ? fixed(dec(lost).mul(100).div(retail.length), 2) : '0.00',
      accounts: retail.length,
      lost,
      computed_at: now.toISOString(),
      period_from: from.toISOString(),
    };
    const text = JSON.stringify(value);
    await db
      .insert(settings)
      .values({ key: SETTING, value: text })
      .onConflictDoUpdate({ target: settings.key, set: { value: text } });
    this.cache = { at: Date.now(), value };
    return value;
  }

  /** The last computed figure (read again from the database every minute: the leader may have recomputed it). */
  async current(): Promise<Stored | null> {
    if (this.cache && Date.now() - this.cache.at < 60_000) return this.cache.value;
    const [row] = await this.ctx.db.select({ value: settings.value }).from(settings).where(eq(settings.key, SETTING)).limit(1);
    let value: Stored | null;
    try {
      value = row ? (JSON.parse(row.value) as Stored) : null;
    } catch {
      value = null;
    }
    this.cache = { at: Date.now(), value };
    return value;
  }

  /** What a trader (or a guest: the default real group) is shown. */
  async forUser(user: { id: number; isDemo: boolean } | null): Promise<RiskWarning> {
    const groups = this.settings.groups;
    await groups.ensureUsers(this.ctx.db, user ? [user.id] : []);
    const groupId = user ? groups.groupIdOf(user.id, user.isDemo) : (groups.defaultGroup(false)?.id ?? null);
    const required = groupId !== null && groups.group(groupId)?.profile === 'esma_retail';
    const value = await this.current();
    return {
      show: required && value ? 1 : 0,
      percent: value?.percent ?? null,
      accounts: value?.accounts ?? 0,
      lost: value?.lost ?? 0,
      computed_at: value?.computed_at ?? null,
      period_from: value?.period_from ?? null,
    };
  }

  /** The leader: computes at start when the figure is missing or a day old, then checks every hour. */
  start(): void {
    if (this.timer) return;
    const due = async () => {
      const value = await this.current();
      if (!value || Date.now() - Date.parse(value.computed_at) >= RECOMPUTE_MS) await this.compute();
    };
    const run = () => void due().catch((err: unknown) => this.ctx.log.error({ err }, 'risk warning not computed'));
    run();
    this.timer = setInterval(run, CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
