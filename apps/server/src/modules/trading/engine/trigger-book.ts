import { OrderType } from '@tp/contract/constants';
/**
 * In-memory books of the prices at which something must happen. Levels are doubles only to order
 * and pre-filter: a double comparison never misses a decimal crossing (parsing is monotonic), and
 * every crossing is confirmed in exact decimals before money moves.
 */
export const TriggerKind = { TAKE_PROFIT: 1, STOP_LOSS: 2, FILL: 3, RISK: 4 } as const;
export type TriggerKind = (typeof TriggerKind)[keyof typeof TriggerKind];

export interface Trigger {
  level: number;
  kind: TriggerKind;
  /** Order id, or the user id for RISK triggers. */
  id: number;
  live: boolean;
}

/** A binary heap: `rising` fires when the price reaches the level or above, `falling` at or below. */
export class TriggerHeap {
  private readonly items: Trigger[] = [];
  private dead = 0;

  constructor(readonly rising: boolean) {}

  get size(): number {
    return this.items.length - this.dead;
  }

  push(trigger: Trigger): void {
    this.items.push(trigger);
    this.up(this.items.length - 1);
  }

  /** True when the front trigger is crossed by `price` (it may be a dead one, removed on pop). */
  crossed(price: number): boolean {
    const top = this.items[0];
    return top !== undefined && (this.rising ? top.level <= price : top.level >= price);
  }

  /** Moves every live trigger crossed by `price` into `out`, nearest level first; they are consumed (no longer live). */
  popCrossed(price: number, out: Trigger[]): void {
    while (this.items.length && this.crossed(price)) {
      const top = this.pop();
      if (top.live) {
        top.live = false;
        out.push(top);
      } else this.dead--;
    }
  }

  /** Marks a trigger dead; it leaves the heap lazily (or at the next compaction). */
  kill(trigger: Trigger): void {
    if (!trigger.live) return;
    trigger.live = false;
    this.dead++;
    if (this.dead > 256 && this.dead * 2 > this.items.length) this.compact();
  }

  private before(a: Trigger, b: Trigger): boolean {
    if (a.level !== b.level) return this.rising ? a.level < b.level : a.level > b.level;
    return a.id < b.id;
  }

  private pop(): Trigger {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length) {
      items[0] = last;
      this.down(0);
    }
    return top;
  }

  private up(i: number): void {
    const items = this.items;
    const node = items[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(node, items[parent]!)) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = node;
  }

  private down(i: number): void {
    const items = this.items;
    const n = items.length;
    const node = items[i]!;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.before(items[right]!, items[left]!) ? right : left;
      if (!this.before(items[child]!, node)) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = node;
  }

  private compact(): void {
    const live = this.items.filter((t) => t.live);
    this.items.length = 0;
    this.dead = 0;
    for (const t of live) this.push(t);
  }
}

export type PriceSide = 'bid' | 'ask' | 'mid';

/** The six heaps of one symbol: per price side, one rising and one falling. */
export class SymbolBook {
  readonly bidRising = new TriggerHeap(true);
  readonly bidFalling = new TriggerHeap(false);
  readonly askRising = new TriggerHeap(true);
  readonly askFalling = new TriggerHeap(false);
  readonly midRising = new TriggerHeap(true);
  readonly midFalling = new TriggerHeap(false);
  /** Set by every tick, cleared by the engine's sweep. */
  ticked = false;
  /** Users with open positions in this symbol, with their position count. */
  readonly holders = new Map<number, number>();

  heap(side: PriceSide, rising: boolean): TriggerHeap {
    if (side === 'bid') return rising ? this.bidRising : this.bidFalling;
    if (side === 'ask') return rising ? this.askRising : this.askFalling;
    return rising ? this.midRising : this.midFalling;
  }

  /** The cheap test every tick pays: six comparisons, no allocation. */
  crossedAny(bid: number, ask: number, mid: number): boolean {
    return (
      this.bidRising.crossed(bid) ||
      this.bidFalling.crossed(bid) ||
      this.askRising.crossed(ask) ||
      this.askFalling.crossed(ask) ||
      this.midRising.crossed(mid) ||
      this.midFalling.crossed(mid)
    );
  }

  popCrossed(bid: number, ask: number, mid: number, out: Trigger[]): void {
    this.bidRising.popCrossed(bid, out);
    this.bidFalling.popCrossed(bid, out);
    this.askRising.popCrossed(ask, out);
    this.askFalling.popCrossed(ask, out);
    this.midRising.popCrossed(mid, out);
    this.midFalling.popCrossed(mid, out);
  }

  size(): number {
    return (
      this.bidRising.size + this.bidFalling.size + this.askRising.size + this.askFalling.size + this.midRising.size + this.midFalling.size
    );
  }
}

/**
 * Where an order's trigger lives. A buy closes on the bid: take-profit when it rises to the level,
 * stop-loss when it falls; a sell closes on the ask, mirrored. A pending buy fills on the ask (limit
 * when it falls to the target, stop when it rises); a pending sell fills on the bid, mirrored.
 */
export function placementOf(kind: TriggerKind, orderType: number, pendingKind?: string | null): { side: PriceSide; rising: boolean } {
  const isBuy = orderType === OrderType.BUY;
  if (kind === TriggerKind.TAKE_PROFIT) return isBuy ? { side: 'bid', rising: true } : { side: 'ask', rising: false };
  if (kind === TriggerKind.STOP_LOSS) return isBuy ? { side: 'bid', rising: false } : { side: 'ask', rising: true };
  const limit = pendingKind === 'limit';
  if (isBuy) return { side: 'ask', rising: !limit };
  return { side: 'bid', rising: limit };
}
