/**
 * Model-based test: random sequences of orders, ticks, closes, cancels, take-profit/stop-loss edits
 * and crashes (stop-outs) against an independent model of the account; after every step the
 * balances and live orders equal the model's and the ledger audit passes.
 */
import fc from 'fast-check';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { D, type Dec, dec } from '@tp/contract/decimal';
import { dbTargets, type TestApp } from '../../../test/test-app.ts';
import { orders, settings } from '../../platform/db/schema.ts';
import { api, demoTrader, expectAuditClean, submit, symbolId, tick, tradingApp, type Trader } from './test-kit.ts';
import { AccountModel, SYMBOLS, type SymKey } from './account-model.ts';

interface Real {
  t: TestApp;
  trader: Trader;
}
type Cmd = fc.AsyncCommand<AccountModel, Real>;

async function expectSameAsModel(m: AccountModel, r: Real, step: string): Promise<void> {
  const b = await r.t.ctx.services.ledger.balances(r.t.ctx.db, r.trader.userId);
  expect({ step, cash: b.balance.toString(), locked: b.lockBalance.toString() }).toEqual({
    step,
    cash: m.cash.toString(),
    locked: m.locked.toString(),
  });
  const live = await r.t.ctx.db
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .where(and(eq(orders.userId, r.trader.userId), inArray(orders.status, [0, 1])));
  const ids = (status: number) =>
    live
      .filter((o) => o.status === status)
      .map((o) => o.id)
      .sort((a, b) => a - b);
  expect({ step, open: ids(1), pending: ids(0) }).toEqual({
    step,
    open: [...m.positions.keys()].sort((a, b) => a - b),
    pending: [...m.pendings.keys()].sort((a, b) => a - b),
  });
  await expectAuditClean(r.t);
}

const price = (v: Dec) => v.toDecimalPlaces(2, D.ROUND_HALF_EVEN);

class SubmitCmd implements Cmd {
  constructor(
    readonly sym: SymKey,
    readonly type: 1 | 2,
    /** Share of the account's 5,000 the margin should take, in percent. */
    readonly share: number,
    readonly leverage: number,
    readonly pendingPct: number | null,
    readonly stops: Stops,
  ) {}
  lots = '';
  check = () => true;
  async run(m: AccountModel, r: Real) {
    const s = SYMBOLS[this.sym];
    const ref = this.type === 1 ? m.ask(this.sym) : m.bid(this.sym);
    const perLot = s.fixedMargin ?? ref.div(this.leverage);
    this.lots = D.max(
      '0.01',
      dec(50 * this.share)
        .div(perLot)
        .toDecimalPlaces(2, D.ROUND_DOWN),
    ).toString();
    const target = this.pendingPct === null ? null : price(ref.mul(1 + this.pendingPct / 100));
    const base = target ?? (this.type === 1 ? m.bid(this.sym) : m.ask(this.sym));
    const { tp, sl } = stopPrices(this.stops, this.type, base);
    const res = await submit(r.t, r.trader, {
      type: this.type,
      cont: this.lots,
      forex_id: symbolId(r.t, s.code),
      status: target ? 0 : 1,
      target_price: target?.toString(),
      multiple: this.leverage,
      target_profit_price: tp?.toString(),
      stop_loss_price: sl?.toString(),
    });
    const expected = m.submit(this.sym, this.type, dec(this.lots), this.leverage, target, tp, sl, res.data?.Id);
    expect({ cmd: this.toString(), accepted: res.code === 1 }).toEqual({ cmd: this.toString(), accepted: expected });
    await expectSameAsModel(m, r, this.toString());
  }
  toString = () =>
    `submit(${this.sym},${this.type},${this.share}% ${this.lots},x${this.leverage},pending ${this.pendingPct},${JSON.stringify(this.stops)})`;
}

/** Take-profit and stop-loss distances in percent, usually on the right side of the price. */
interface Stops {
  tp: number | null;
  sl: number | null;
  wrongSide: boolean;
}
function stopPrices(stops: Stops, type: number, ref: Dec): { tp: Dec | null; sl: Dec | null } {
  const up = (type === 1) !== stops.wrongSide ? 1 : -1;
  return {
    tp: stops.tp === null ? null : price(ref.mul(1 + (up * stops.tp) / 100)),
    sl: stops.sl === null ? null : price(ref.mul(1 - (up * stops.sl) / 100)),
  };
}

class TickCmd implements Cmd {
  constructor(
    readonly sym: SymKey,
    readonly movePct: number,
  ) {}
  check = () => true;
  async run(m: AccountModel, r: Real) {
    const s = SYMBOLS[this.sym];
    const mid = D.max(s.minMid, price(m.mid(this.sym).mul(1 + this.movePct / 100)));
    const half = dec(s.spread).div(2);
    await tick(r.t, s.code, mid.minus(half).toString(), mid.plus(half).toString());
    m.tick(this.sym, mid.minus(half), mid.plus(half));
    await expectSameAsModel(m, r, this.toString());
  }
  toString = () => `tick(${this.sym},${this.movePct}%)`;
}

class CloseCmd implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<AccountModel>) => m.positions.size > 0;
  async run(m: AccountModel, r: Real) {
    const id = [...m.positions.keys()][this.pick % m.positions.size]!;
    const res = await api(r.t, r.trader, '/v1/api/forex/close', { id });
    expect({ id, accepted: res.code === 1 }).toEqual({ id, accepted: m.closeByUser(id) });
    await expectSameAsModel(m, r, this.toString());
  }
  toString = () => `close(#${this.pick})`;
}

class CancelCmd implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<AccountModel>) => m.pendings.size > 0;
  async run(m: AccountModel, r: Real) {
    const id = [...m.pendings.keys()][this.pick % m.pendings.size]!;
    expect((await api(r.t, r.trader, '/v1/api/forex/cancel_trade', { id })).code).toBe(1);
    m.cancel(id, 'user');
    await expectSameAsModel(m, r, this.toString());
  }
  toString = () => `cancel(#${this.pick})`;
}

class StopsCmd implements Cmd {
  constructor(
    readonly pick: number,
    readonly stops: Stops,
  ) {}
  check = (m: Readonly<AccountModel>) => m.positions.size > 0;
  async run(m: AccountModel, r: Real) {
    const id = [...m.positions.keys()][this.pick % m.positions.size]!;
    const p = m.positions.get(id)!;
    const { tp, sl } = stopPrices(this.stops, p.type, m.closePrice(p));
    const res = await api(r.t, r.trader, '/v1/api/forex/set_stop_price', {
      id,
      target_profit_price: tp?.toString() ?? '0',
      stop_loss_price: sl?.toString() ?? '',
    });
    expect({ id, accepted: res.code === 1 }).toEqual({ id, accepted: m.setStops(id, tp, sl) });
    await expectSameAsModel(m, r, this.toString());
  }
  toString = () => `stops(#${this.pick},${JSON.stringify(this.stops)})`;
}

const sym = fc.constantFrom<SymKey>('BTC', 'LTC');
const pct = (max: number) => fc.integer({ min: -max * 10, max: max * 10 }).map((v) => v / 10);
const distance = fc.option(
  fc.integer({ min: 1, max: 60 }).map((v) => v / 10),
  { nil: null },
);
const stops = fc.record({ tp: distance, sl: distance, wrongSide: fc.integer({ min: 0, max: 9 }).map((v) => v < 2) });
const submitCmd = fc
  .tuple(
    sym,
    fc.constantFrom<1 | 2>(1, 2),
    fc.integer({ min: 1, max: 80 }),
    fc.constantFrom(2, 5, 10, 20),
    fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: pct(4) }),
    stops,
  )
  .map(([s, type, share, leverage, pending, st]) => new SubmitCmd(s, type, share, leverage, pending, st));
const tickCmd = fc.tuple(sym, pct(3)).map(([s, move]) => new TickCmd(s, move));
// Submits and ticks weigh more: they make the positions the other commands act on.
const commands = [
  submitCmd,
  submitCmd,
  submitCmd,
  tickCmd,
  tickCmd,
  tickCmd,
  fc.tuple(sym, fc.constantFrom(-45, -30, 30, 60)).map(([s, move]) => new TickCmd(s, move)),
  fc.nat().map((n) => new CloseCmd(n)),
  fc.nat().map((n) => new CancelCmd(n)),
  fc.tuple(fc.nat(), stops).map(([n, st]) => new StopsCmd(n, st)),
];

/** MODEL_RUNS, MODEL_SEED and MODEL_PATH (from a failure report) explore further or replay a failure. */
const RUNS = Number(process.env.MODEL_RUNS ?? 12);

describe.each(dbTargets)('trading model on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp(target);
    // A small account, so that leverage and crashes reach margin calls and stop-outs.
    await t.ctx.db.update(settings).set({ value: '5000' }).where(eq(settings.key, 'demo_initial_balance'));
    await t.ctx.services.trading.settings.reload(t.ctx.db);
  });
  afterAll(async () => t?.close());

  it(
    'keeps balances equal to an independent model through random sequences',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 30, size: 'max' }), async (cmds) => {
          for (const key of Object.keys(SYMBOLS) as SymKey[]) {
            const s = SYMBOLS[key];
            const half = dec(s.spread).div(2);
            await tick(t, s.code, dec(s.startMid).minus(half).toString(), dec(s.startMid).plus(half).toString());
          }
          const trader = await demoTrader(t);
          const model = new AccountModel(dec(5_000));
          await fc.asyncModelRun(() => ({ model, real: { t, trader } }), cmds);
          await api(t, trader, '/v1/api/main/user/resetForexDemoAccount');
        }),
        {
          numRuns: RUNS,
          seed: Number(process.env.MODEL_SEED ?? 20261121),
          endOnFailure: true,
          ...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH } : {}),
        },
      );
    },
    20_000 + RUNS * 4_000,
  );
});
