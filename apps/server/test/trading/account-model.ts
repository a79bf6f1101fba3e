/**
 * An independent model of one trading account for model.test.ts: TRADING-RULES.md written again
 * in the plainest way, with no code shared with the engine (only exact decimals and rounding).
 */
import { D, type Dec, ZERO, dec, money } from '@tp/contract/decimal';

export type SymKey = 'BTC' | 'LTC' | 'EURGBP' | 'GBPUSD' | 'USDJPY';

interface ModelSymbol {
  code: string;
  precision: number;
  contractSize: Dec;
  feePerLot: Dec;
  fixedMargin: Dec | null;
  /** Full spread of the model's ticks, even at the symbol's precision (the server keeps bid and ask as given). */
  spread: string;
  startMid: string;
  minMid: Dec;
  /** USD per unit of the quote currency: 1, the mid of a symbol, or 1 / that mid. */
  conversion: { sym: SymKey; invert: boolean } | null;
}

const fx = (code: string, precision: number, spread: string, startMid: string, conversion: ModelSymbol['conversion']): ModelSymbol => ({
  code,
  precision,
  contractSize: dec(100_000),
  feePerLot: dec(5),
  fixedMargin: null,
  spread,
  startMid,
  minMid: dec(startMid).div(10),
  conversion,
});

export const SYMBOLS: Record<SymKey, ModelSymbol> = {
  BTC: {
    code: 'BTCUSDT',
    precision: 2,
    contractSize: dec(1),
    feePerLot: dec(3),
    fixedMargin: null,
    spread: '20',
    startMid: '95000',
    minMid: dec(1000),
    conversion: null,
  },
  LTC: {
    code: 'LTCUSDT',
    precision: 2,
    contractSize: dec(1),
    feePerLot: dec('0.03'),
    fixedMargin: dec(10),
    spread: '0.10',
    startMid: '100',
    minMid: dec(1),
    conversion: null,
  },
  EURGBP: fx('EURGBP', 5, '0.00016', '0.85430', { sym: 'GBPUSD', invert: false }),
  GBPUSD: fx('GBPUSD', 5, '0.00016', '1.27000', null),
  USDJPY: fx('USDJPY', 3, '0.014', '150.000', { sym: 'USDJPY', invert: true }),
};

/** A symbol's terms as staff set them now. */
export interface Terms {
  leverages: number[];
  maxLots: Dec;
  tradable: boolean;
}

interface Position {
  id: number;
  sym: SymKey;
  type: 1 | 2;
  lots: Dec;
  leverage: number;
  open: Dec;
  margin: Dec;
  tp: Dec | null;
  sl: Dec | null;
  /** The group's spread markup it opened with (price units), kept for its life. */
  mk: Markup;
}
interface Pending {
  id: number;
  sym: SymKey;
  type: 1 | 2;
  lots: Dec;
  leverage: number;
  target: Dec;
  limit: boolean;
  reserved: Dec;
  tp: Dec | null;
  sl: Dec | null;
  mk: Markup;
}

/** A spread markup in price units: the bid lowered by `bid`, the ask raised by `ask`. */
export interface Markup {
  bid: Dec;
  ask: Dec;
}
const NO_MARKUP: Markup = { bid: ZERO, ask: ZERO };

/** A group's markup of `points` at the symbol's precision: the smaller half below the bid, the rest above the ask. */
export function markupOfPoints(s: SymKey, points: number): Markup {
  const point = dec(10).pow(-SYMBOLS[s].precision);
  const below = Math.floor(points / 2);
  return { bid: point.mul(below), ask: point.mul(points - below) };
}

export class AccountModel {
  positions = new Map<number, Position>();
  pendings = new Map<number, Pending>();
  private prices = Object.fromEntries(
    Object.entries(SYMBOLS).map(([key, s]) => {
      const half = dec(s.spread).div(2);
      return [key, { bid: dec(s.startMid).minus(half), ask: dec(s.startMid).plus(half) }];
    }),
  ) as Record<SymKey, { bid: Dec; ask: Dec }>;
  locked: Dec = ZERO;
  /** The account's group's levels (percent): the demo group takes the house's, 100 and 50. */
  marginCallLevel: Dec = dec(100);
  stopOutLevel: Dec = dec(50);
  /** The account's group's spread markups per symbol (none: the quotes as they are); new orders take them. */
  markups: Partial<Record<SymKey, Markup>> = {};
  /** Symbols whose market is closed: nothing opens, closes or triggers on them. */
  readonly closed = new Set<SymKey>();
  /** Amounts the house wrote off (negative balance protection). */
  readonly writeOffs: Dec[] = [];
  /** Set when a write-off happened while margin was still locked: never allowed. */
  writeOffWhileLocked = false;
  /** Symbols whose last jump the price filter holds as suspect: paused until a tick resolves it. */
  readonly suspect = new Set<SymKey>();
  /** Why each pending order the system cancelled was cancelled. */
  readonly cancelReasons = new Map<number, string>();

  constructor(
    public cash: Dec,
    readonly terms: Record<SymKey, Terms>,
  ) {}

  /** Not traded now: its own jump is held, or that of the pair its profit converts through. */
  paused = (s: SymKey): boolean => {
    const c = SYMBOLS[s].conversion;
    return this.suspect.has(s) || (c !== null && c.sym !== s && this.suspect.has(c.sym));
  };
  private withinLimits = (s: SymKey, lots: Dec, leverage: number) =>
    this.terms[s].leverages.includes(leverage) && lots.lte(this.terms[s].maxLots);

  bid = (s: SymKey) => this.prices[s].bid;
  ask = (s: SymKey) => this.prices[s].ask;
  mid = (s: SymKey) => this.prices[s].bid.plus(this.prices[s].ask).div(2);
  private markupNow = (s: SymKey): Markup => this.markups[s] ?? NO_MARKUP;
  /** The price a position closes at: the bid (buys) or ask (sells) with its markup. */
  closePrice = (p: { sym: SymKey; type: number; mk?: Markup }) => {
    const mk = p.mk ?? this.markupNow(p.sym);
    return p.type === 1 ? this.bid(p.sym).minus(mk.bid) : this.ask(p.sym).plus(mk.ask);
  };
  private openPrice = (s: SymKey, type: number, mk: Markup = this.markupNow(s)) =>
    type === 1 ? this.ask(s).plus(mk.ask) : this.bid(s).minus(mk.bid);
  quoteToUsd = (s: SymKey): Dec => {
    const c = SYMBOLS[s].conversion;
    if (!c) return dec(1);
    return c.invert ? dec(1).div(this.mid(c.sym)) : this.mid(c.sym);
  };
  profit = (p: Position) => {
    const diff = p.type === 1 ? this.closePrice(p).minus(p.open) : p.open.minus(this.closePrice(p));
    return money(diff.mul(p.lots).mul(SYMBOLS[p.sym].contractSize).mul(this.quoteToUsd(p.sym)));
  };
  marginOf = (s: SymKey, lots: Dec, price: Dec, leverage: number) =>
    money(
      SYMBOLS[s].fixedMargin
        ? lots.mul(SYMBOLS[s].fixedMargin!)
        : lots.mul(SYMBOLS[s].contractSize).mul(price).div(leverage).mul(this.quoteToUsd(s)),
    );
  private feeOf = (s: SymKey, lots: Dec) => money(lots.mul(SYMBOLS[s].feePerLot));

  private equity(): Dec {
    let e = this.cash.plus(this.locked);
    for (const p of this.positions.values()) e = e.plus(this.profit(p));
    return e;
  }

  /** Per symbol the larger of the long and the short side's margins. */
  private required(extra?: { sym: SymKey; type: number; margin: Dec }): Dec {
    let total = ZERO;
    const all = [...this.positions.values(), ...(extra ? [extra] : [])];
    for (const s of new Set(all.map((p) => p.sym))) {
      const side = (type: number) => all.filter((p) => p.sym === s && p.type === type).reduce((a, p) => a.plus(p.margin), ZERO);
      total = total.plus(D.max(side(1), side(2)));
    }
    return total;
  }

  rate(): Dec | null {
    const m = this.required();
    return m.isZero() ? null : this.equity().div(m).mul(100).toDecimalPlaces(2, D.ROUND_HALF_EVEN);
  }

  private raises = (sym: SymKey, type: number, margin: Dec) => this.required({ sym, type, margin }).gt(this.required());

  /** Net lots of the symbol's positions (buys positive). */
  private net(sym: SymKey): Dec {
    let n = ZERO;
    for (const p of this.positions.values()) if (p.sym === sym) n = p.type === 1 ? n.plus(p.lots) : n.minus(p.lots);
    return n;
  }

  /** No margin added, and the net exposure in the symbol goes towards flat, never past it. */
  private hedges(sym: SymKey, type: number, lots: Dec, margin: Dec): boolean {
    const n = this.net(sym);
    return !this.raises(sym, type, margin) && !n.isZero() && n.isPositive() === (type === 2) && lots.lte(n.abs());
  }

  /**
   * The margin rule: a true hedge is paid from the cash; anything else needs no margin call and
   * the free margin (and the cash) to cover its margin and fee. `back`: a reservation that returns.
   */
  private admits(sym: SymKey, type: number, lots: Dec, margin: Dec, fee: Dec, back: Dec = ZERO): boolean {
    const hedge = this.hedges(sym, type, lots, margin);
    const rate = this.rate();
    if (!hedge && rate !== null && rate.lte(this.marginCallLevel)) return false;
    const cash = this.cash.plus(back);
    const funds = hedge ? cash : D.min(cash, this.equity().minus(this.locked).plus(back));
    return funds.gte(margin.plus(fee));
  }

  private stopsOk(type: number, ref: Dec, tp: Dec | null, sl: Dec | null): boolean {
    const buy = type === 1;
    return (tp === null || (buy ? tp.gt(ref) : tp.lt(ref))) && (sl === null || (buy ? sl.lt(ref) : sl.gt(ref)));
  }

  submit(
    s: SymKey,
    type: 1 | 2,
    lots: Dec,
    leverage: number,
    target: Dec | null,
    tp: Dec | null,
    sl: Dec | null,
    id: number | undefined,
  ): boolean {
    if (this.closed.has(s) || this.paused(s) || !this.terms[s].tradable) return false;
    if (!this.withinLimits(s, lots, leverage)) return false;
    if (!this.stopsOk(type, target ?? this.closePrice({ sym: s, type }), tp, sl)) return false;
    const margin = this.marginOf(s, lots, target ?? this.openPrice(s, type), leverage);
    const fee = this.feeOf(s, lots);
    if (!this.admits(s, type, lots, margin, fee)) return false;
    if (id === undefined) throw new Error('accepted by the model but not by the server');
    this.cash = this.cash.minus(margin).minus(fee);
    const mk = this.markupNow(s);
    if (target) {
      const market = this.openPrice(s, type);
      const limit = type === 1 ? target.lte(market) : target.gte(market);
      this.locked = this.locked.plus(margin).plus(fee);
      this.pendings.set(id, { id, sym: s, type, lots, leverage, target, limit, reserved: margin.plus(fee), tp, sl, mk });
    } else {
      this.locked = this.locked.plus(margin);
      this.positions.set(id, { id, sym: s, type, lots, leverage, open: this.openPrice(s, type), margin, tp, sl, mk });
    }
    return true;
  }

  /** Closes the position and opens the same lots the other way, admitted like a new order; refused, nothing changes. */
  reverse(id: number, newId: number | undefined): boolean {
    const p = this.positions.get(id)!;
    if (this.closed.has(p.sym) || this.paused(p.sym) || !this.terms[p.sym].tradable) return false;
    const saved = { cash: this.cash, locked: this.locked };
    this.close(id);
    const type = p.type === 1 ? 2 : 1;
    const open = this.openPrice(p.sym, type);
    const margin = this.marginOf(p.sym, p.lots, open, p.leverage);
    const fee = this.feeOf(p.sym, p.lots);
    if (!this.withinLimits(p.sym, p.lots, p.leverage) || !this.admits(p.sym, type, p.lots, margin, fee)) {
      this.cash = saved.cash;
      this.locked = saved.locked;
      this.positions.set(id, p);
      return false;
    }
    if (newId === undefined) throw new Error('reverse accepted by the model but not by the server');
    this.cash = this.cash.minus(margin).minus(fee);
    this.locked = this.locked.plus(margin);
    this.positions.set(newId, {
      id: newId,
      sym: p.sym,
      type,
      lots: p.lots,
      leverage: p.leverage,
      open,
      margin,
      tp: null,
      sl: null,
      mk: this.markupNow(p.sym),
    });
    return true;
  }

  private close(id: number): void {
    const p = this.positions.get(id)!;
    this.cash = this.cash.plus(p.margin).plus(this.profit(p));
    this.locked = this.locked.minus(p.margin);
    this.positions.delete(id);
  }

  cancel(id: number, reason: string): void {
    const o = this.pendings.get(id)!;
    if (reason !== 'user') this.cancelReasons.set(id, reason);
    this.cash = this.cash.plus(o.reserved);
    this.locked = this.locked.minus(o.reserved);
    this.pendings.delete(id);
  }

  /** Negative balance protection: with no position left and the cash below zero, reservations back, then the write-off. */
  private protect(): void {
    if (!this.cash.isNegative() || this.positions.size) return;
    for (const id of [...this.pendings.keys()].sort((a, b) => a - b)) this.cancel(id, 'stop_out');
    if (!this.cash.isNegative()) return;
    if (!this.locked.isZero()) this.writeOffWhileLocked = true;
    this.writeOffs.push(this.cash.neg());
    this.cash = ZERO;
  }

  /**
   * Staff reverse a closed trade of `lots` lots of `s` (an off-market fill): its realised `profit` goes
   * back to the house and its fee back to the trader, refused when that would leave the cash below
   * zero; then the account is looked at on its new cash (a profit taken back can stop it out).
   */
  reverseTrade(s: SymKey, lots: Dec, profit: Dec): boolean {
    const cash = this.cash.minus(profit).plus(this.feeOf(s, lots));
    if (cash.isNegative()) return false;
    this.cash = cash;
    this.stopOut();
    return true;
  }

  /** Never refused for money; only a closed market refuses it. */
  closeByUser(id: number): boolean {
    const p = this.positions.get(id)!;
    if (this.closed.has(p.sym) || this.paused(p.sym)) return false;
    this.close(id);
    this.protect();
    return true;
  }

  /** Sets a quote without acting on it (the engine's jobs of that tick are held back). */
  quote(s: SymKey, bid: Dec, ask: Dec): void {
    this.prices[s] = { bid, ask };
  }

  /**
   * Closes `lots` of a position at the current quote (the part takes its share of the margin at 6
   * places, the rest keeps the remainder); false when refused (closed or paused market, below the minimum lot).
   */
  closePart(id: number, lots: Dec, minLots: Dec): boolean {
    const p = this.positions.get(id)!;
    if (this.closed.has(p.sym) || this.paused(p.sym) || lots.gte(p.lots) || lots.lt(minLots) || p.lots.minus(lots).lt(minLots))
      return false;
    const part = { ...p, lots, margin: money(p.margin.mul(lots).div(p.lots)) };
    this.cash = this.cash.plus(part.margin).plus(this.profit(part));
    this.locked = this.locked.minus(part.margin);
    p.margin = p.margin.minus(part.margin);
    p.lots = p.lots.minus(lots);
    this.protect();
    return true;
  }

  cancelByUser(id: number): void {
    this.cancel(id, 'user');
    this.protect();
  }

  setStops(id: number, tp: Dec | null, sl: Dec | null): boolean {
    const p = this.positions.get(id)!;
    if (!this.stopsOk(p.type, this.closePrice(p), tp, sl)) return false;
    p.tp = tp;
    p.sl = sl;
    return true;
  }

  tick(s: SymKey, bid: Dec, ask: Dec): void {
    this.prices[s] = { bid, ask };
    this.suspect.delete(s);
    // A conversion move triggers nothing by itself but the stop-out check.
    const here = <T extends { sym: SymKey; type: number }>(list: Iterable<T>, type: number) =>
      [...list].filter((o) => o.sym === s && o.type === type);
    const byLevel =
      <T extends { id: number }>(level: (o: T) => Dec, rising: boolean) =>
      (a: T, b: T) =>
        (rising ? level(a).comparedTo(level(b)) : level(b).comparedTo(level(a))) || a.id - b.id;
    // The engine's order: per book side, nearest level first; closes before fills, then the stop-out check.
    // An order sees the bid less its markup and the ask plus it; a level on the bid side is reached
    // when the market's bid reaches the level plus the markup (the ask side's: less it), and the
    // engine's books order them by those market levels.
    const onBid = (o: { mk: Markup }, level: Dec) => level.plus(o.mk.bid);
    const onAsk = (o: { mk: Markup }, level: Dec) => level.minus(o.mk.ask);
    const closes = [
      ...here(this.positions.values(), 1)
        .filter((p) => p.tp && bid.gte(onBid(p, p.tp)))
        .sort(byLevel((p) => onBid(p, p.tp!), true)),
      ...here(this.positions.values(), 1)
        .filter((p) => p.sl && bid.lte(onBid(p, p.sl)))
        .sort(byLevel((p) => onBid(p, p.sl!), false)),
      ...here(this.positions.values(), 2)
        .filter((p) => p.sl && ask.gte(onAsk(p, p.sl)))
        .sort(byLevel((p) => onAsk(p, p.sl!), true)),
      ...here(this.positions.values(), 2)
        .filter((p) => p.tp && ask.lte(onAsk(p, p.tp)))
        .sort(byLevel((p) => onAsk(p, p.tp!), false)),
    ];
    const fills = [
      ...here(this.pendings.values(), 2)
        .filter((o) => o.limit && bid.gte(onBid(o, o.target)))
        .sort(byLevel((o) => onBid(o, o.target), true)),
      ...here(this.pendings.values(), 2)
        .filter((o) => !o.limit && bid.lte(onBid(o, o.target)))
        .sort(byLevel((o) => onBid(o, o.target), false)),
      ...here(this.pendings.values(), 1)
        .filter((o) => !o.limit && ask.gte(onAsk(o, o.target)))
        .sort(byLevel((o) => onAsk(o, o.target), true)),
      ...here(this.pendings.values(), 1)
        .filter((o) => o.limit && ask.lte(onAsk(o, o.target)))
        .sort(byLevel((o) => onAsk(o, o.target), false)),
    ];
    // One transaction for the closes crossed together, then each fill, then the stop-out check.
    for (const p of closes) if (this.positions.has(p.id)) this.close(p.id);
    this.protect();
    for (const o of fills) {
      if (!this.pendings.has(o.id)) continue;
      this.fill(o);
      this.protect();
    }
    this.stopOut();
  }

  /** Admitted again as of now, like a new order: halted, out of the current limits or not covered, it is cancelled. */
  private fill(o: Pending): void {
    const price = this.openPrice(o.sym, o.type, o.mk);
    const margin = this.marginOf(o.sym, o.lots, price, o.leverage);
    const fee = this.feeOf(o.sym, o.lots);
    if (!this.terms[o.sym].tradable) return this.cancel(o.id, 'symbol_not_tradable');
    if (!this.withinLimits(o.sym, o.lots, o.leverage)) return this.cancel(o.id, 'limits_changed');
    if (!this.admits(o.sym, o.type, o.lots, margin, fee, o.reserved)) return this.cancel(o.id, 'insufficient_margin');
    this.cash = this.cash.plus(o.reserved).minus(margin).minus(fee);
    this.locked = this.locked.minus(o.reserved).plus(margin);
    this.pendings.delete(o.id);
    this.positions.set(o.id, {
      id: o.id,
      sym: o.sym,
      type: o.type,
      lots: o.lots,
      leverage: o.leverage,
      open: price,
      margin,
      tp: o.tp,
      sl: o.sl,
      mk: o.mk,
    });
  }

  stopOut(): void {
    const below = () => {
      const r = this.rate();
      return r !== null && r.lte(this.stopOutLevel);
    };
    if (!below()) return;
    while (below()) {
      const worst = [...this.positions.values()]
        .filter((p) => !this.closed.has(p.sym) && !this.paused(p.sym))
        .map((p) => ({ p, profit: this.profit(p) }))
        .sort((a, b) => a.profit.comparedTo(b.profit) || a.p.id - b.p.id)[0];
      if (!worst) break;
      this.close(worst.p.id);
    }
    this.protect();
  }
}
