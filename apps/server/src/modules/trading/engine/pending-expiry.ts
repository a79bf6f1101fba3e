import type { AppContext } from '../../../context.ts';
import type { OrderOps } from '../settlement/order-ops.ts';
import { expiredPendings, ownPendingCondition } from '../db/repository.ts';

const SWEEP_MS = 1_000;
const BATCH = 200;

/**
 * Cancels pending orders whose expiry (end of day, or a date) has passed, on the leader: each in its
 * user's money transaction like a trader's cancel (the reservation goes back, cancel reason `expired`,
 * announced with a NOTICE). Guarded like every cancel: a fill racing it wins or loses once.
 */
export class PendingExpiry {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly ops: OrderOps,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.sweep()).catch((err: unknown) => this.ctx.log.error({ err }, 'pending expiry failed'));
    }, SWEEP_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Cancels what has expired by `now`; the number cancelled. */
  async sweep(now = new Date()): Promise<number> {
    let cancelled = 0;
    for (const due of await expiredPendings(this.ctx.db, now, BATCH)) {
      const done = await this.ops.forUser(
        due.userId,
        due.isDemo,
        async (tx, w, changes, [row]) => {
          if (!row) return false;
          const gone = await this.ops.cancel(tx, w, row, 'expired');
          if (gone) changes.push({ type: 'closed', userId: due.userId, orders: [gone] });
          return Boolean(gone);
        },
        { read: ownPendingCondition(due.userId, due.id) },
      );
      if (done) cancelled++;
    }
    return cancelled;
  }
}
