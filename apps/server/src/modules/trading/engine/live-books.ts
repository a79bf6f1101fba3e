import { OrderStatus } from '@tp/contract/constants';
import type { Dec } from '@tp/contract/decimal';
import { ZERO, dec } from '@tp/contract/decimal';
import type { Markup } from '@tp/contract/formulas';
import type { PositionTerms } from './figures.ts';
import { markupOfRow, termsOf } from '../views/order-view.ts';
import type { OrderRow } from '../db/repository.ts';
import { DeskTotals } from './desk-totals.ts';
import { SymbolBook, type Trigger, type TriggerHeap, TriggerKind, placementOf } from './trigger-book.ts';

export interface Armed {
  heap: TriggerHeap;
  trigger: Trigger;
}
export interface LivePosition extends PositionTerms {
  row: OrderRow;
  stops: Armed[];
  closing: boolean;
  /** The account group the desk's sums count it in. */
  deskGroup: number;
}
export interface LivePending {
  row: OrderRow;
  armed: Armed | null;
  filling: boolean;
}
export interface LiveAccount {
  userId: number;
  isDemo: boolean;
  cash: Dec;
  locked: Dec;
  /** Bumped by every committed change, so an older balance read never overwrites a newer one. */
  version: number;
  positions: Map<number, LivePosition>;
  pendings: Set<number>;
  lines: Armed[];
  marginCall: boolean;
  riskQueued: boolean;
  /** A tick found the account at the stop-out level while its risk job was under way (that job may have read older prices). */
  recheck: boolean;
}

/**
 * The engine's memory: open positions, pending orders and accounts, each with its triggers armed
 * in the symbol books. A cache of the database, kept in step by the committed changes.
 */
export class LiveBooks {
  readonly books = new Map<number, SymbolBook>();
  readonly positions = new Map<number, LivePosition>();
  readonly pendings = new Map<number, LivePending>();
  readonly accounts = new Map<number, LiveAccount>();
  /** The open positions' sums per symbol and side, for the dealer's desk. */
  readonly deskTotals = new DeskTotals();
  /** Accounts whose figures changed since the last sweep. */
  readonly dirty = new Set<number>();
  /**
   * Orders closed or cancelled lately, with their last version and when: a copy of an older version
   * arriving late (a delayed message, a log row read twice) never brings one back into the books.
   */
  readonly finished = new Map<number, { version: number; at: number }>();

  /** `groupOf`: the account group of a user as this server knows it now (the desk's sums are per group). */
  constructor(private readonly groupOf: (userId: number, isDemo: boolean) => number = () => 0) {}

  /** Files the account's positions under its group as known now (after a move, or once its group has been read). */
  regroup(acc: LiveAccount): void {
    const groupId = this.groupOf(acc.userId, acc.isDemo);
    for (const pos of acc.positions.values()) {
      if (pos.deskGroup === groupId) continue;
      this.deskTotals.remove(acc.isDemo, pos.deskGroup, pos);
      pos.deskGroup = groupId;
      this.deskTotals.add(acc.isDemo, groupId, pos);
    }
  }

  /** The newest version of an order the books know (open, pending, or finished lately). */
  versionOf(id: number): number | undefined {
    return this.positions.get(id)?.row.version ?? this.pendings.get(id)?.row.version ?? this.finished.get(id)?.version;
  }

  /**
   * An order row as committed, whatever changed in it: its terms replace the books' (quantity,
   * margin, stops, status). An older version than the books hold, or any copy of an order that has
   * finished, changes nothing (null). `gap` tells that versions were skipped: something about the
   * account may have been missed.
   */
  put(row: OrderRow): { acc: LiveAccount | undefined; gap: boolean } | null {
    const known = this.versionOf(row.id);
    if (this.finished.has(row.id) || (known !== undefined && row.version < known)) return null;
    const gap = known !== undefined && row.version > known + 1;
    if (row.status === OrderStatus.PENDING || row.status === OrderStatus.OPEN) return { acc: this.track(row), gap };
    this.finished.set(row.id, { version: row.version, at: Date.now() });
    return { acc: this.untrack(row.id), gap };
  }

  /** Forgets finished orders older than `before` (ms since the epoch). */
  pruneFinished(before: number): void {
    for (const [id, f] of this.finished) if (f.at < before) this.finished.delete(id);
  }

  stats() {
    let triggers = 0;
    for (const b of this.books.values()) triggers += b.size();
    return { positions: this.positions.size, pendings: this.pendings.size, accounts: this.accounts.size, triggers };
  }

  accountOf(row: OrderRow): LiveAccount {
    let acc = this.accounts.get(row.userId);
    if (!acc) {
      acc = {
        userId: row.userId,
        isDemo: row.isDemo,
        cash: ZERO,
        locked: ZERO,
        version: 0,
        positions: new Map(),
        pendings: new Set(),
        lines: [],
        marginCall: false,
        riskQueued: false,
        recheck: false,
      };
      this.accounts.set(row.userId, acc);
      this.dirty.add(row.userId);
    }
    return acc;
  }

  bookOf(symbolId: number): SymbolBook {
    let book = this.books.get(symbolId);
    if (!book) this.books.set(symbolId, (book = new SymbolBook()));
    return book;
  }

  /**
   * Arms a trigger at `level` as the order sees prices; with a group's markup the heap holds the level
   * the market's price must reach (the bid side's level raised by the bid's markup, the ask side's
   * lowered by the ask's), worked out in exact decimals before parsing so no crossing is missed.
   */
  arm(
    symbolId: number,
    kind: TriggerKind,
    orderType: number,
    id: number,
    level: string | null,
    pendingKind?: string | null,
    markup?: Markup | null,
  ): Armed | null {
    if (level == null || +level === 0) return null;
    const at = placementOf(kind, orderType, pendingKind);
    const heap = this.bookOf(symbolId).heap(at.side, at.rising);
    const raw = !markup ? +level : at.side === 'bid' ? +dec(level).plus(markup.bid).toString() : +dec(level).minus(markup.ask).toString();
    const trigger: Trigger = { level: raw, kind, id, live: true };
    heap.push(trigger);
    return { heap, trigger };
  }

  disarm(armed: Armed[]): void {
    for (const a of armed) a.heap.kill(a.trigger);
    armed.length = 0;
  }

  armStops(pos: LivePosition): void {
    this.disarm(pos.stops);
    const { row } = pos;
    const tp = this.arm(row.symbolId, TriggerKind.TAKE_PROFIT, row.orderType, row.id, row.takeProfit, null, markupOfRow(row));
    const sl = this.arm(row.symbolId, TriggerKind.STOP_LOSS, row.orderType, row.id, row.stopLoss, null, markupOfRow(row));
    if (tp) pos.stops.push(tp);
    if (sl) pos.stops.push(sl);
  }

  /** Puts a pending or open order in the books (again), as the database has it: every term replaced. */
  track(row: OrderRow): LiveAccount {
    const acc = this.accountOf(row);
    if (row.status === OrderStatus.OPEN) {
      this.dropPending(row.id, acc);
      let pos = this.positions.get(row.id);
      if (!pos) {
        pos = { ...termsOf(row), row, stops: [], closing: false, deskGroup: this.groupOf(row.userId, row.isDemo) };
        this.positions.set(row.id, pos);
        acc.positions.set(row.id, pos);
        const holders = this.bookOf(row.symbolId).holders;
        holders.set(row.userId, (holders.get(row.userId) ?? 0) + 1);
      } else this.deskTotals.remove(row.isDemo, pos.deskGroup, pos);
      // A partial close or any later change replaces the terms the figures are computed from.
      Object.assign(pos, termsOf(row));
      this.deskTotals.add(row.isDemo, pos.deskGroup, pos);
      pos.row = row;
      pos.closing = false;
      this.armStops(pos);
      return acc;
    }
    let p = this.pendings.get(row.id);
    if (!p) {
      p = { row, armed: null, filling: false };
      this.pendings.set(row.id, p);
      acc.pendings.add(row.id);
    }
    if (p.armed) this.disarm([p.armed]);
    p.row = row;
    p.filling = false;
    p.armed = this.arm(row.symbolId, TriggerKind.FILL, row.orderType, row.id, row.originPrice, row.pendingKind, markupOfRow(row));
    return acc;
  }

  dropPending(id: number, acc: LiveAccount | undefined): void {
    const p = this.pendings.get(id);
    if (!p) return;
    if (p.armed) this.disarm([p.armed]);
    this.pendings.delete(id);
    acc?.pendings.delete(id);
  }

  untrack(id: number): LiveAccount | undefined {
    const pos = this.positions.get(id);
    const userId = pos?.row.userId ?? this.pendings.get(id)?.row.userId;
    const acc = userId === undefined ? undefined : this.accounts.get(userId);
    this.dropPending(id, acc);
    if (pos) {
      this.disarm(pos.stops);
      this.deskTotals.remove(pos.row.isDemo, pos.deskGroup, pos);
      this.positions.delete(id);
      acc?.positions.delete(id);
      const holders = this.bookOf(pos.symbolId).holders;
      const n = (holders.get(pos.row.userId) ?? 1) - 1;
      if (n > 0) holders.set(pos.row.userId, n);
      else holders.delete(pos.row.userId);
    }
    return acc;
  }

  armRisk(userId: number, symbolId: number, level: number, rising: boolean): Armed {
    const heap = this.bookOf(symbolId).heap('mid', rising);
    const trigger: Trigger = { level, kind: TriggerKind.RISK, id: userId, live: true };
    heap.push(trigger);
    return { heap, trigger };
  }

  clear(): void {
    for (const map of [this.books, this.positions, this.pendings, this.accounts, this.finished]) map.clear();
    this.deskTotals.clear();
    this.dirty.clear();
  }

  /** Forgets an account that has nothing open or pending any more. */
  dropAccount(acc: LiveAccount): void {
    this.disarm(acc.lines);
    this.accounts.delete(acc.userId);
  }
}
