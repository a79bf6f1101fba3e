import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../../context.ts';
import type { TradingEngine } from '../engine/engine.ts';
import type { OrderChange } from '../settlement/order-ops.ts';
import { noticeOf } from '../views/notice-view.ts';
import { publishClosed, publishNotice } from './pushes.ts';

const CHANNEL = 'trading:changes';

/**
 * Where committed order changes go: FOREX_CLOSED and NOTICE at once from the server that committed,
 * and this server's engine. When several servers share the database, the elected leader's engine
 * learns of the others' changes from the database's change log (written in each change's own
 * transaction); the bus only tells it to read the log now, so a lost message costs a polling
 * interval, never a change.
 */
export class ChangeFeed {
  private readonly origin = randomUUID();
  /** A test of the change log loses every notification of this server, as a bus outage would. */
  private readonly lose: boolean;
  /** Told after each commit here (the users whose orders or balances changed) and on another server's notice (null). */
  private readonly listeners = new Set<(userIds: number[] | null) => void>();

  constructor(
    private readonly ctx: AppContext,
    private readonly engine: () => TradingEngine,
  ) {
    this.lose = ctx.config.TRADING_TEST_CONTROLS && ctx.config.TRADING_TEST_LOSE_CHANGE_NOTICES && ctx.config.NODE_ENV !== 'production';
    if (ctx.clustered) ctx.bus.subscribe(CHANNEL, (m) => this.receive(m as { origin: string }));
  }

  publish(changes: OrderChange[]): void {
    this.ctx.metrics.orderChanges(changes);
    for (const c of changes) {
      if (c.type === 'closed' && c.orders.length)
        publishClosed(
          this.ctx,
          c.userId,
          c.orders.map((o) => o.id),
        );
      // Closes and fills the trader did not make themselves are announced (NOTICE), from the server that committed them.
      const events = c.type === 'closed' ? c.orders : c.type === 'opened' ? [c.order] : [];
      for (const order of events) {
        const notice = noticeOf(order, this.ctx.services.market);
        // A fill is announced when it happens, never again when the position closes.
        if (notice && (notice.kind === 'pending_filled') === (c.type === 'opened')) publishNotice(this.ctx, order.userId, notice);
      }
    }
    this.engine().apply(changes);
    if (this.ctx.clustered && !this.lose) this.ctx.bus.publish(CHANNEL, { origin: this.origin });
    if (this.listeners.size) {
      const users = [...new Set(changes.map((c) => ('userId' in c ? c.userId : c.order?.userId)).filter((u) => u !== undefined))];
      for (const listener of this.listeners) listener(users);
    }
  }

  /** Listens to committed order changes (copy trading): a hint to look now, never the only way to learn of one. */
  listen(listener: (userIds: number[] | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private receive(message: { origin: string }): void {
    if (message.origin === this.origin) return;
    void this.engine().pollChanges();
    for (const listener of this.listeners) listener(null);
  }
}
