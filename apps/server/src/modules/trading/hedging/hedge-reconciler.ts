import { sql } from 'drizzle-orm';
import { OrderStatus, OrderType } from '@tp/contract/constants';
import { type Dec, D, ZERO, dec } from '@tp/contract/decimal';
import type { AppContext } from '../../../context.ts';
import type { TradingSettings } from '../admission/settings.ts';
import { orders } from '../db/schema.ts';
import type { HedgeService } from './hedge-service.ts';

/** What the provider should hold of a symbol, and why. */
export interface HedgeTarget {
  symbolId: number;
  /** Signed units (buys positive): the A-book clients' whole net plus each hybrid group's net beyond its threshold. */
  target: Dec;
  /** The A-book and hybrid groups' clients' net units. */
  clients: Dec;
}

/**
 * Brings the hedge book to its target (docs/fix.md#hedging), on the leader only: after committed
 * order changes (debounced) and every `reconcileSeconds`. Per symbol the target is the net of the
 * A-book groups' clients (which also covers their stop-outs, take-profits and stop-losses, which
 * the engine closes without asking the provider) plus, per hybrid group, the part of its clients'
 * net beyond the group's hedge_threshold_lots (none set: the house keeps it all); the hedge book's
 * net at the providers is moved to it by one market order. Everything is read again from the
 * database each pass, so it is safe across restarts and idempotent: a pass at target sends nothing.
 */
export class HedgeReconciler {
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private off: (() => void) | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly settings: TradingSettings,
    private readonly hedges: HedgeService,
    private readonly onOrderChanges: (listener: () => void) => () => void,
  ) {}

  get enabled(): boolean {
    return this.ctx.config.fix !== undefined;
  }

  start(): void {
    if (!this.enabled || this.timer) return;
    const every = (this.ctx.config.fix?.hedge?.reconcileSeconds ?? 5) * 1000;
    this.timer = setInterval(() => this.kick(), every);
    this.timer.unref();
    this.off = this.onOrderChanges(() => this.kick(50));
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.timer = this.soon = null;
    this.off?.();
    this.off = null;
  }

  /** Asks for a pass (soon, once however many changes come meanwhile). */
  kick(delayMs = 0): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      void this.pass();
    }, delayMs);
    this.soon.unref();
  }

  /** One pass; a pass asked for while one runs runs after it. Resolves when no pass is left to run. */
  async pass(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.reconcile();
        } catch (err) {
          this.ctx.log.error({ err }, 'hedge reconciler pass failed');
        }
      } while (this.again);
    })();
    try {
      await this.running;
    } finally {
      this.running = null;
    }
  }

  /** Per symbol, the units the providers should hold now. */
  async targets(): Promise<HedgeTarget[]> {
    const groups = this.settings.groups;
    await groups.ensureUsers(this.ctx.db, []);
    const aBook = new Set(groups.groupsOfBook('A').map((g) => g.id));
    const hybrid = new Set(groups.groupsOfBook('hybrid').map((g) => g.id));
    if (!aBook.size && !hybrid.size) return [];
    const rows = await this.ctx.db
      .select({
        userId: orders.userId,
        isDemo: orders.isDemo,
        symbolId: orders.symbolId,
        units: sql<string>`sum(case when ${orders.orderType} = ${OrderType.BUY} then ${orders.quantity} * ${orders.contractSize} else -${orders.quantity} * ${orders.contractSize} end)`,
      })
      .from(orders)
      .where(sql`${orders.status} = ${OrderStatus.OPEN}`)
      .groupBy(orders.userId, orders.isDemo, orders.symbolId);
    await groups.ensureUsers(this.ctx.db, [...new Set(rows.map((r) => r.userId))]);
    // Per group and symbol, the clients' net units.
    const net = new Map<string, { groupId: number; symbolId: number; units: Dec }>();
    for (const r of rows) {
      const groupId = groups.groupIdOf(r.userId, r.isDemo);
      if (groupId === null || (!aBook.has(groupId) && !hybrid.has(groupId))) continue;
      const key = `${groupId}:${r.symbolId}`;
      const at = net.get(key) ?? { groupId, symbolId: r.symbolId, units: ZERO };
      at.units = at.units.plus(r.units);
      net.set(key, at);
    }
    const target = new Map<number, Dec>();
    const clients = new Map<number, Dec>();
    for (const { groupId, symbolId, units } of net.values()) {
      clients.set(symbolId, (clients.get(symbolId) ?? ZERO).plus(units));
      let hedged = units;
      if (hybrid.has(groupId)) {
        const lots = groups.hedgeThreshold(groupId, symbolId);
        const size = this.ctx.services.market.symbol(symbolId)?.contractSize ?? dec(1);
        const keep = lots === null ? null : lots.mul(size);
        hedged = keep === null ? ZERO : D.max(ZERO, units.abs().minus(keep)).mul(units.isNegative() ? -1 : 1);
      }
      target.set(symbolId, (target.get(symbolId) ?? ZERO).plus(hedged));
    }
    return [...target.entries()].map(([symbolId, t]) => ({ symbolId, target: t, clients: clients.get(symbolId)! }));
  }

  private async reconcile(): Promise<void> {
    if (!this.hedges.gateway()) return;
    const started = this.hedges.generation();
    const targets = new Map((await this.targets()).map((t) => [t.symbolId, t.target]));
    const held = await this.hedges.netBySymbol();
    // An A-book order between its hedge and its client's commit would be seen half done: wait for the next pass.
    if (this.hedges.generation() !== started || this.hedges.inFlight.size > 0) {
      this.again = true;
      await new Promise((r) => setTimeout(r, 20));
      return;
    }
    for (const symbolId of new Set([...targets.keys(), ...held.keys()])) {
      const sym = this.ctx.services.market.symbol(symbolId);
      if (!sym) continue;
      const diff = (targets.get(symbolId) ?? ZERO).minus(held.get(symbolId) ?? ZERO);
      // In whole steps of the symbol's lots: a threshold between steps leaves the rest with the house.
      const step = sym.step.isZero() ? null : sym.step.mul(sym.contractSize);
      const units = step ? diff.abs().div(step).floor().mul(step) : diff.abs();
      if (units.isZero()) continue;
      if (!this.hedges.available(symbolId)) {
        await this.hedges.mismatch(null, 'target_not_reached', { symbol: sym.code, missing: diff.toString(), why: 'no session' });
        continue;
      }
      const res = await this.hedges.execute({ symbolId, side: diff.isPositive() ? 'buy' : 'sell', units, reason: 'hybrid' });
      if (res.status !== 'filled') {
        await this.hedges.mismatch(res.row, 'target_not_reached', {
          symbol: sym.code,
          wanted: units.toString(),
          filled: res.filled.toString(),
        });
      }
    }
  }
}
