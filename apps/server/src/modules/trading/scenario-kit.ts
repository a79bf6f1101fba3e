/**
 * Trading scenarios written as tables (not a test file itself): given ticks and actions of one
 * fresh demo account (100,000 USD), expect its closes, open positions, balances, risk rate and
 * write-offs, and a clean ledger audit.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { staffSession } from '../../../test/auth-helpers.ts';
import { call, type TestApp } from '../../../test/test-app.ts';
import { ledgerAccounts, ledgerEntries } from '../../platform/db/schema.ts';
import { api, cashOf, demoTrader, expectAuditClean, submit, symbolId, tick } from './test-kit.ts';
import type { TriggerExecutor } from './trigger-executor.ts';

export type Step =
  | { tick: [code: string, bid: string, ask: string] }
  /** A market order, named by `open`; `refused` is the expected message when it must be refused. */
  | { open: string; code: string; type: 1 | 2; lots: string; leverage: number; sl?: string; tp?: string; refused?: string }
  | { close: string; refused?: string }
  /** A partial close of `lots` of the position `closePart`; the part closed is named `as`. */
  | { closePart: string; lots: string; as: string; refused?: string }
  /**
   * The engine's triggered jobs wait (hold) until released: what a tick triggers meanwhile races the
   * trader's own actions, as a job queued at a tick and run after the trader's call committed.
   */
  | { engine: 'hold' | 'release' }
  /** A staff balance adjustment (finance role), e.g. "-52000". */
  | { adjust: string }
  /** The symbol's market closes (nothing trades or ticks) or opens again. */
  | { market: 'closed' | 'open'; code: string }
  /** Figures at this point, from the account detail call. */
  | { expectFigures: { balance?: string; risk_rate?: string | null; margin_call?: 0 | 1; equity?: string } };

export interface Scenario {
  name: string;
  steps: Step[];
  expect: {
    /** Closed orders by name: closed_type, close price and realised profit. */
    closed: Record<string, { type: number; price: string; profit: string }>;
    open: string[];
    balance: string;
    locked: string;
    writeOffs: string[];
  };
}

const closedMarkets = new WeakMap<TestApp, Set<number>>();

/** Lets a scenario close a symbol's market: `isOpen` answers false for it (ticks are then refused too). */
export function closedSet(t: TestApp): Set<number> {
  let closed = closedMarkets.get(t);
  if (!closed) {
    const market = t.ctx.services.market;
    const isOpen = market.isOpen.bind(market);
    const set = new Set<number>();
    market.isOpen = (id, at) => !set.has(id) && isOpen(id, at);
    closedMarkets.set(t, (closed = set));
  }
  return closed;
}

const staffTokens = new WeakMap<TestApp, string>();

/** Holds the engine's triggered jobs (they are queued, not run) until the returned function is called. */
export function holdEngineJobs(t: TestApp): () => void {
  const executor = (t.ctx.services.trading.engine as unknown as { executor: TriggerExecutor }).executor;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const run = executor.run.bind(executor);
  const closeAll = executor.closeAll.bind(executor);
  executor.run = async (...args) => {
    await gate;
    return run(...args);
  };
  executor.closeAll = async (jobs) => {
    await gate;
    return closeAll(jobs);
  };
  return () => {
    executor.run = run;
    executor.closeAll = closeAll;
    open();
  };
}

export async function runScenario(t: TestApp, s: Scenario): Promise<void> {
  const trader = await demoTrader(t);
  const ids = new Map<string, number>();
  const closed = closedSet(t);
  let release: (() => void) | null = null;
  try {
    for (const [i, step] of s.steps.entries()) {
      const at = `${s.name}, step ${i + 1}: ${JSON.stringify(step)}`;
      if ('tick' in step) await tick(t, ...step.tick, release === null);
      else if ('engine' in step) {
        if (step.engine === 'hold') release ??= holdEngineJobs(t);
        else {
          release?.();
          release = null;
          await t.ctx.services.trading.engine.idle();
        }
      } else if ('closePart' in step) {
        const res = await api(t, trader, '/v1/api/forex/close', { id: ids.get(step.closePart), cont: step.lots });
        expect({ at, msg: res.msg }).toEqual({ at, msg: step.refused ?? 'Success' });
        if (res.code === 1) ids.set(step.as, res.data.Id);
        if (!release) await t.ctx.services.trading.engine.idle();
      } else if ('open' in step) {
        const res = await submit(t, trader, {
          type: step.type,
          cont: step.lots,
          forex_id: symbolId(t, step.code),
          multiple: step.leverage,
          target_profit_price: step.tp,
          stop_loss_price: step.sl,
        });
        expect({ at, msg: res.msg }).toEqual({ at, msg: step.refused ?? 'Success' });
        if (res.code === 1) ids.set(step.open, res.data.Id);
        await t.ctx.services.trading.engine.idle();
      } else if ('close' in step) {
        const res = await api(t, trader, '/v1/api/forex/close', { id: ids.get(step.close) });
        expect({ at, msg: res.msg }).toEqual({ at, msg: step.refused ?? 'Success' });
        if (!release) await t.ctx.services.trading.engine.idle();
      } else if ('adjust' in step) {
        let token = staffTokens.get(t);
        if (!token) staffTokens.set(t, (token = await staffSession(t, ['finance'])));
        const res = await call(
          t,
          'POST',
          '/api/admin/users/adjust_balance',
          { user_id: trader.userId, amount: step.adjust, reason: 'scenario', key: randomUUID() },
          { token, lang: 'en' },
        );
        expect({ at, code: res.code }).toEqual({ at, code: 1 });
        await t.ctx.services.trading.engine.idle();
      } else if ('market' in step) {
        if (step.market === 'closed') closed.add(symbolId(t, step.code));
        else closed.delete(symbolId(t, step.code));
      } else {
        const detail = await api(t, trader, '/v1/api/main/account/forexDetail');
        expect({ at, figures: detail.data }).toMatchObject({ at, figures: step.expectFigures });
      }
    }
    const nameOf = new Map([...ids].map(([name, id]) => [id, name]));
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    const closes = Object.fromEntries(
      (history.data.data as { Id: number; ClosedType: number; UpdatePrice: string; FactProfits: string }[]).map((o) => [
        nameOf.get(o.Id) ?? o.Id,
        { type: o.ClosedType, price: o.UpdatePrice, profit: o.FactProfits },
      ]),
    );
    const holding = await api(t, trader, '/v1/api/forex/my_deal', { status: 1 });
    const writeOffs = await t.ctx.db
      .select({ amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(and(eq(ledgerAccounts.userId, trader.userId), eq(ledgerEntries.type, 'writeoff')))
      .orderBy(ledgerEntries.id);
    const { balance, locked } = await cashOf(t, trader.userId);
    expect({
      scenario: s.name,
      closed: closes,
      open: (holding.data.data as { Id: number }[]).map((o) => nameOf.get(o.Id)),
      balance,
      locked,
      writeOffs: writeOffs.map((w) => w.amount),
    }).toEqual({ scenario: s.name, ...s.expect });
    await expectAuditClean(t);
  } finally {
    release?.();
    closed.clear();
    await api(t, trader, '/v1/api/main/user/resetForexDemoAccount');
  }
}
