/**
 * An independent model of one trading account for model.test.ts: TRADING-RULES.md written again
 * in the plainest way, with no code shared with the engine (only exact decimals and rounding).
 */
import { D, type Dec, ZERO, dec, money } from '@tp/contract/decimal';

export type SymKey = 'BTC' | 'LTC';

export const SYMBOLS = {
  BTC: { code: 'BTCUSDT', feePerLot: dec(3), fixedMargin: null as Dec | null, spread: '20', startMid: '95000', minMid: dec(1000) },
  LTC: { code: 'LTCUSDT', feePerLot: dec('0.03'), fixedMargin: dec(10) as Dec | null, spread: '0.10', startMid: '100', minMid: dec(1) },
} as const;

interface Position {
  id: number;
  sym: SymKey;
  type: 1 | 2;
  lots: Dec;
  open: Dec;
  margin: Dec;
  tp: Dec | null;
  sl: Dec | null;
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
}

export class AccountModel {
  positions = new Map<number, Position>();
  pendings = new Map<number, Pending>();
  private prices: Record<SymKey, { bid: Dec; ask: Dec }> = {
    BTC: { bid: dec(94990), ask: dec(95010) },
    LTC: { bid: dec('99.95'), ask: dec('100.05') },
  };
  locked: Dec = ZERO;

  constructor(public cash: Dec) {}

  bid = (s: SymKey) => this.prices[s].bid;
  ask = (s: SymKey) => this.prices[s].ask;
  mid = (s: SymKey) => this.prices[s].bid.plus(this.prices[s].ask).div(2);
  closePrice = (p: { sym: SymKey; type: number }) => (p.type === 1 ? this.bid(p.sym) : this.ask(p.sym));
  private openPrice = (s: SymKey, type: number) => (type === 1 ? this.ask(s) : this.bid(s));
  private profit = (p: Position) =>
    money(
      this.closePrice(p)
        .minus(p.open)
        .mul(p.lots)
        .mul(p.type === 1 ? 1 : -1),
    );
  private marginOf = (s: SymKey, lots: Dec, price: Dec, leverage: number) =>
    money(SYMBOLS[s].fixedMargin ? lots.mul(SYMBOLS[s].fixedMargin!) : lots.mul(price).div(leverage));
  private feeOf = (s: SymKey, lots: Dec) => money(lots.mul(SYMBOLS[s].feePerLot));

  private equity(): Dec {
    let e = this.cash.plus(this.locked);
    for (const p of this.positions.values()) e = e.plus(this.profit(p));
    return e;
  }

  private rate(): Dec | null {
    let m = ZERO;
    for (const p of this.positions.values()) m = m.plus(p.margin);
    return m.isZero() ? null : this.equity().div(m).mul(100).toDecimalPlaces(2, D.ROUND_HALF_EVEN);
  }

  private available = () => D.min(this.cash, this.equity().minus(this.locked));

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
    if (!this.stopsOk(type, target ?? this.closePrice({ sym: s, type }), tp, sl)) return false;
    const rate = this.rate();
    if (rate !== null && rate.lte(100)) return false;
    const margin = this.marginOf(s, lots, target ?? this.openPrice(s, type), leverage);
    const fee = this.feeOf(s, lots);
    if (this.available().lt(margin.plus(fee))) return false;
    if (id === undefined) throw new Error('accepted by the model but not by the server');
    this.cash = this.cash.minus(margin).minus(fee);
    if (target) {
      const market = this.openPrice(s, type);
      const limit = type === 1 ? target.lte(market) : target.gte(market);
      this.locked = this.locked.plus(margin).plus(fee);
      this.pendings.set(id, { id, sym: s, type, lots, leverage, target, limit, reserved: margin.plus(fee), tp, sl });
    } else {
      this.locked = this.locked.plus(margin);
      this.positions.set(id, { id, sym: s, type, lots, open: this.openPrice(s, type), margin, tp, sl });
    }
    return true;
  }

  private close(id: number): void {
    const p = this.positions.get(id)!;
    this.cash = this.cash.plus(p.margin).plus(this.profit(p));
    this.locked = this.locked.minus(p.margin);
    this.positions.delete(id);
  }

  cancel(id: number, _reason: string): void {
    const o = this.pendings.get(id)!;
    this.cash = this.cash.plus(o.reserved);
    this.locked = this.locked.minus(o.reserved);
    this.pendings.delete(id);
  }

  /** Cash never stays negative: pending reservations back, the most profitable positions closed, then the write-off. */
  private cover(): void {
    if (!this.cash.isNegative()) return;
    for (const id of [...this.pendings.keys()].sort((a, b) => a - b)) if (this.cash.isNegative()) this.cancel(id, 'stop_out');
    const byProfit = [...this.positions.values()]
      .map((p) => ({ p, profit: this.profit(p) }))
      .sort((a, b) => b.profit.comparedTo(a.profit) || a.p.id - b.p.id);
    for (const { p } of byProfit) if (this.cash.isNegative()) this.close(p.id);
    if (this.cash.isNegative()) this.cash = ZERO;
  }

  closeByUser(id: number): boolean {
    const p = this.positions.get(id)!;
    const after = this.cash.plus(p.margin).plus(this.profit(p));
    if (after.isNegative() && this.positions.size > 1) return false;
    this.close(id);
    this.cover();
    return true;
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
    const here = <T extends { sym: SymKey; type: number }>(list: Iterable<T>, type: number) =>
      [...list].filter((o) => o.sym === s && o.type === type);
    const byLevel =
      <T extends { id: number }>(level: (o: T) => Dec, rising: boolean) =>
      (a: T, b: T) =>
        (rising ? level(a).comparedTo(level(b)) : level(b).comparedTo(level(a))) || a.id - b.id;
    // The engine's order: per book side, nearest level first; closes before fills, then the stop-out check.
    const closes = [
      ...here(this.positions.values(), 1)
        .filter((p) => p.tp && bid.gte(p.tp))
        .sort(byLevel((p) => p.tp!, true)),
      ...here(this.positions.values(), 1)
        .filter((p) => p.sl && bid.lte(p.sl))
        .sort(byLevel((p) => p.sl!, false)),
      ...here(this.positions.values(), 2)
        .filter((p) => p.sl && ask.gte(p.sl))
        .sort(byLevel((p) => p.sl!, true)),
      ...here(this.positions.values(), 2)
        .filter((p) => p.tp && ask.lte(p.tp))
        .sort(byLevel((p) => p.tp!, false)),
    ];
    const fills = [
      ...here(this.pendings.values(), 2)
        .filter((o) => o.limit && bid.gte(o.target))
        .sort(byLevel((o) => o.target, true)),
      ...here(this.pendings.values(), 2)
        .filter((o) => !o.limit && bid.lte(o.target))
        .sort(byLevel((o) => o.target, false)),
      ...here(this.pendings.values(), 1)
        .filter((o) => !o.limit && ask.gte(o.target))
        .sort(byLevel((o) => o.target, true)),
      ...here(this.pendings.values(), 1)
        .filter((o) => o.limit && ask.lte(o.target))
        .sort(byLevel((o) => o.target, false)),
    ];
    for (const p of closes) {
      if (!this.positions.has(p.id)) continue;
      this.close(p.id);
      this.cover();
    }
    for (const o of fills) if (this.pendings.has(o.id)) this.fill(o);
    this.stopOut();
  }

  private fill(o: Pending): void {
    const price = this.openPrice(o.sym, o.type);
    const margin = this.marginOf(o.sym, o.lots, price, o.leverage);
    const fee = this.feeOf(o.sym, o.lots);
    if (this.available().plus(o.reserved).lt(margin.plus(fee))) return this.cancel(o.id, 'insufficient_margin');
    this.cash = this.cash.plus(o.reserved).minus(margin).minus(fee);
    this.locked = this.locked.minus(o.reserved).plus(margin);
    this.pendings.delete(o.id);
    this.positions.set(o.id, { id: o.id, sym: o.sym, type: o.type, lots: o.lots, open: price, margin, tp: o.tp, sl: o.sl });
  }

  private stopOut(): void {
    const below = () => {
      const r = this.rate();
      return r !== null && r.lte(50);
    };
    if (!below()) return;
    while (below()) {
      const worst = [...this.positions.values()]
        .map((p) => ({ p, profit: this.profit(p) }))
        .sort((a, b) => a.profit.comparedTo(b.profit) || a.p.id - b.p.id)[0];
      if (!worst) break;
      this.close(worst.p.id);
    }
    this.cover();
  }
}
