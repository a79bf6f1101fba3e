import { randomUUID } from 'node:crypto';
import { dec } from '@tp/contract/decimal';
import type { AppContext } from '../../context.ts';
import type { TradingEngine } from './engine.ts';
import type { OrderChange } from './order-ops.ts';
import { noticeOf } from './position-tools.ts';
import { publishClosed, publishNotice } from './pushes.ts';
import type { OrderRow } from './repository.ts';

const CHANNEL = 'trading:changes';
type WireChange = Record<string, unknown> & { type: OrderChange['type'] };

/**
 * Where committed order changes go: FOREX_CLOSED at once from the server that committed, this
 * server's engine, and, when several servers share the database, the engine of the elected leader.
 */
export class ChangeFeed {
  private readonly origin = randomUUID();

  constructor(
    private readonly ctx: AppContext,
    private readonly engine: () => TradingEngine,
  ) {
    if (ctx.clustered) ctx.bus.subscribe(CHANNEL, (m) => this.receive(m as { origin: string; changes: WireChange[] }));
  }

  publish(changes: OrderChange[]): void {
    this.ctx.metrics.orderChanges(changes);
    for (const c of changes) {
      if (c.type === 'closed' && c.orders.length)
        publishClosed(
          this.ctx.bus,
          c.userId,
          c.orders.map((o) => o.id),
        );
      // Closes and fills the trader did not make themselves are announced (NOTICE), from the server that committed them.
      const events = c.type === 'closed' ? c.orders : c.type === 'opened' ? [c.order] : [];
      for (const order of events) {
        const notice = noticeOf(order, this.ctx.services.market);
        // A fill is announced when it happens, never again when the position closes.
        if (notice && (notice.kind === 'pending_filled') === (c.type === 'opened')) publishNotice(this.ctx.bus, order.userId, notice);
      }
    }
    this.engine().apply(changes);
    if (this.ctx.clustered) this.ctx.bus.publish(CHANNEL, { origin: this.origin, changes: changes.map(toWire) });
  }

  private receive(message: { origin: string; changes: WireChange[] }): void {
    if (message.origin === this.origin) return;
    this.engine().apply(message.changes.map(fromWire));
  }
}

const DATES = ['createdAt', 'openedAt', 'completedAt'] as const;

function reviveRow(row: OrderRow): OrderRow {
  const out = { ...row };
  for (const key of DATES) if (out[key] != null) out[key] = new Date(out[key] as unknown as string);
  return out;
}

function toWire(c: OrderChange): WireChange {
  if (c.type === 'balances') return { ...c, cash: c.cash.toString(), locked: c.locked.toString() };
  return c as unknown as WireChange;
}

function fromWire(w: WireChange): OrderChange {
  const c = w as unknown as OrderChange;
  if (c.type === 'balances') return { ...c, cash: dec(w.cash as string), locked: dec(w.locked as string) };
  if (c.type === 'closed') return { ...c, orders: c.orders.map(reviveRow) };
  if (c.type === 'sync') return { ...c, order: c.order && reviveRow(c.order) };
  if (c.type === 'review') return c;
  return { ...c, order: reviveRow(c.order) };
}
