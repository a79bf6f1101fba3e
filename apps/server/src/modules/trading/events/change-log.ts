import type { AppContext } from '../../../context.ts';
import { type ChangeCursor, type OrderRow, changeHorizon, changesAfter, ordersByIds, pruneChanges } from '../db/repository.ts';

/** Rows read per query, how often the log is read when no notification came, and how long rows are kept. */
const BATCH = 2_000;
export const CHANGE_POLL_MS = 250;
const PRUNE_EVERY_MS = 5_000;
const KEEP_MS = 10 * 60_000;

export interface ChangeLogTarget {
  /** False when the books already hold this version of the order (or a newer one): no need to read it. */
  needs(orderId: number, version: number | null): boolean;
  /** The orders read (as they are now) and the users whose balances moved, to be applied. */
  applyLogged(orders: OrderRow[], userIds: number[]): Promise<void>;
}

/**
 * The leader's reader of the change log (engine_changes). Every committed change of an order (and
 * every balance move outside the trading transactions) has a row there, written in its own
 * transaction; the bus only says "read the log now". The log is read from where the last read
 * stopped, on each notification and every CHANGE_POLL_MS, so a lost notification or a bus outage
 * delays the engine by one polling interval, never more.
 */
export class ChangeLogReader {
  private cursor: ChangeCursor | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  private lastPrune = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly target: ChangeLogTarget,
  ) {}

  /**
   * Where reading starts: call before the books are read from the database. Everything committed
   * by transactions older than this point is in that read; everything later is read from the log.
   */
  async mark(): Promise<void> {
    this.cursor = { xid: await changeHorizon(this.ctx.db), seq: -1 };
    this.lastPrune = Date.now();
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), CHANGE_POLL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.reading;
    this.cursor = null;
  }

  /** Reads the log up to now (one read at a time; a call during a read makes it read once more). */
  poll(): Promise<void> {
    if (!this.cursor) return Promise.resolve();
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      try {
        do {
          this.again = false;
          await this.drain();
        } while (this.again);
        if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
          this.lastPrune = Date.now();
          await pruneChanges(this.ctx.db, new Date(Date.now() - KEEP_MS), 10_000);
        }
      } catch (err) {
        this.ctx.log.error({ err }, 'trading change log read failed');
      } finally {
        this.reading = null;
      }
    })();
    return this.reading;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const cursor = this.cursor;
      if (!cursor) return;
      const rows = await changesAfter(this.ctx.db, cursor, BATCH);
      if (!rows.length) return;
      const ids = new Set<number>();
      const users = new Set<number>();
      for (const r of rows) {
        if (r.orderId === null) users.add(r.userId);
        else if (this.target.needs(r.orderId, r.version)) {
          ids.add(r.orderId);
          users.add(r.userId);
        }
      }
      if (users.size) await this.target.applyLogged(await ordersByIds(this.ctx.db, [...ids]), [...users]);
      const last = rows[rows.length - 1]!;
      // Only once applied: a failed read or apply is read again from the same place.
      if (this.cursor === cursor) this.cursor = { xid: last.xid, seq: last.seq };
      if (rows.length < BATCH) return;
    }
  }
}
