/**
 * Trading scenarios written as tables (not a test file itself): given ticks and actions of one
 * fresh demo account (100,000 USD), expect its closes, open positions, balances, risk rate and
 * write-offs, and a clean ledger audit.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { staffSession } from '../auth-helpers.ts';
import { call, type TestApp } from '../test-app.ts';
import { dec } from '@tp/contract/decimal';
import { ledgerAccounts, ledgerEntries, settings, symbols } from '../../src/platform/db/schema.ts';
import { api, cashOf, demoTrader, expectAuditClean, pushesOf, submit, symbolId, tick } from './test-kit.ts';
import type { TriggerExecutor } from '../../src/modules/trading/engine/trigger-executor.ts';

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
  | { expectFigures: { balance?: string; risk_rate?: string | null; margin_call?: 0 | 1; equity?: string } }
  /** A pending order at `price` (limit or stop, as the price lies), named by `pending`. */
  | { pending: string; code: string; type: 1 | 2; lots: string; leverage: number; price: string; refused?: string }
  /** Reverses the position `reverse`; the new one is named `as`. */
  | { reverse: string; as: string; refused?: string }
  /**
   * One source tick at the bid and ask traders should see (before the spread, like `tick`), which the
   * deviation filter may hold (`held`); `sourceAgeMs`: the source stamped it that long ago.
   */
  | { feed: [code: string, bid: string, ask: string]; held?: boolean; sourceAgeMs?: number }
  /** A staff edit of the symbol through the back office (risk role), e.g. { leverages: '5', max_lots: '1' }; undone after the scenario. */
  | { staff: string; changes: Record<string, string | number> }
  /** A trading setting (max_open_positions, max_pending_orders), restored after the scenario. */
  | { setting: string; value: string }
  /**
   * The trader joins an account group: with `terms`, a new demo group (named `group` and a unique
   * suffix) saved through the back office (risk role) with them, e.g. { stop_out_level: '80', symbols: [...] };
   * without, the group this scenario created under that name earlier.
   */
  | { group: string; terms?: Record<string, unknown> }
  | { wait: number };

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
    /** Pending orders still waiting, by name (checked when given). */
    pending?: string[];
    /** Pending orders the system cancelled, by name, with the reason stored (checked when given). */
    cancelled?: Record<string, string>;
    /** NOTICE pushes to the trader, by kind, in order (checked when given). */
    notices?: string[];
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
  const closeGroup = executor.closeGroup.bind(executor);
  executor.run = async (...args) => {
    await gate;
    return run(...args);
  };
  executor.closeAll = async (jobs) => {
    await gate;
    return closeAll(jobs);
  };
  // Several users' closes crossed by one tick are written together (group commit): held the same.
  executor.closeGroup = async (batches) => {
    await gate;
    return closeGroup(batches);
  };
  return () => {
    executor.run = run;
    executor.closeAll = closeAll;
    executor.closeGroup = closeGroup;
    open();
  };
}

async function staffToken(t: TestApp, role: string): Promise<string> {
  const key = `${role}`;
  let tokens = staffTokensByRole.get(t);
  if (!tokens) staffTokensByRole.set(t, (tokens = new Map()));
  let token = tokens.get(key);
  if (!token) tokens.set(key, (token = await staffSession(t, [role])));
  return token;
}
const staffTokensByRole = new WeakMap<TestApp, Map<string, string>>();

/** A symbol's terms a scenario may change, as the back office saves them. */
async function termsOf(t: TestApp, code: string): Promise<Record<string, string | number>> {
  const sym = t.ctx.services.market.symbolByCode(code)!;
  const [row] = await t.ctx.db.select({ maxQuoteAgeSec: symbols.maxQuoteAgeSec }).from(symbols).where(eq(symbols.id, sym.id));
  return {
    id: sym.id,
    leverages: sym.leverages.map((l) => l.value).join(','),
    min_lots: sym.minLots.toString(),
    max_lots: sym.maxLots.toString(),
    visible: sym.visible ? 1 : 0,
    tradable: sym.tradable ? 1 : 0,
    max_quote_age_sec: row!.maxQuoteAgeSec,
  };
}

export async function runScenario(t: TestApp, s: Scenario): Promise<void> {
  const trader = await demoTrader(t);
  const ids = new Map<string, number>();
  const closed = closedSet(t);
  let release: (() => void) | null = null;
  const restoreTerms = new Map<string, Record<string, string | number>>();
  const restoreSettings = new Map<string, string | null>();
  const pushes = pushesOf(t, trader.userId);
  const saveSymbol = async (changes: Record<string, string | number>) => {
    const res = await call(t, 'POST', '/api/admin/symbols/save', changes, { token: await staffToken(t, 'risk'), lang: 'en' });
    expect({ changes, code: res.code, msg: res.msg }).toMatchObject({ changes, code: 1 });
  };
  const groups = new Map<string, number>();
  try {
    for (const [i, step] of s.steps.entries()) {
      const at = `${s.name}, step ${i + 1}: ${JSON.stringify(step)}`;
      if ('tick' in step)
        await tick(t, ...step.tick, release === null).catch((e) => {
          throw new Error(`${at}: ${String(e)}`);
        });
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
      } else if ('pending' in step) {
        const res = await submit(t, trader, {
          type: step.type,
          cont: step.lots,
          forex_id: symbolId(t, step.code),
          multiple: step.leverage,
          status: 0,
          target_price: step.price,
        });
        expect({ at, msg: res.msg }).toEqual({ at, msg: step.refused ?? 'Success' });
        if (res.code === 1) ids.set(step.pending, res.data.Id);
        await t.ctx.services.trading.engine.idle();
      } else if ('reverse' in step) {
        const res = await api(t, trader, '/v1/api/forex/reverse', { id: ids.get(step.reverse) });
        expect({ at, msg: res.msg }).toEqual({ at, msg: step.refused ?? 'Success' });
        if (res.code === 1) ids.set(step.as, res.data.Id);
        await t.ctx.services.trading.engine.idle();
      } else if ('feed' in step) {
        const [code, bid, ask] = step.feed;
        const market = t.ctx.services.market;
        const sym = market.symbolByCode(code)!;
        const half = sym.spread.div(2);
        const now = Date.now();
        const accepted = market.publishTick({
          symbolId: sym.id,
          bid: dec(bid).plus(half).toString(),
          ask: dec(ask).minus(half).toString(),
          time: now,
          ...(step.sourceAgeMs === undefined ? {} : { sourceTime: now - step.sourceAgeMs }),
        });
        expect({ at, accepted }).toEqual({ at, accepted: !step.held });
        await t.ctx.services.trading.engine.idle();
      } else if ('staff' in step) {
        if (!restoreTerms.has(step.staff)) restoreTerms.set(step.staff, await termsOf(t, step.staff));
        await saveSymbol({ id: symbolId(t, step.staff), ...step.changes });
      } else if ('setting' in step) {
        const [row] = await t.ctx.db.select().from(settings).where(eq(settings.key, step.setting));
        if (!restoreSettings.has(step.setting)) restoreSettings.set(step.setting, row?.value ?? null);
        await t.ctx.db
          .insert(settings)
          .values({ key: step.setting, value: step.value })
          .onConflictDoUpdate({ target: settings.key, set: { value: step.value } });
        await t.ctx.services.trading.settings.reload(t.ctx.db);
      } else if ('group' in step) {
        const token = await staffToken(t, 'risk');
        if (step.terms) {
          const name = `${step.group} ${randomUUID().slice(0, 8)}`;
          const res = await call(
            t,
            'POST',
            '/api/admin/groups/save',
            { name, kind: 'demo', ...step.terms },
            { token, json: true, lang: 'en' },
          );
          expect({ at, code: res.code, msg: res.msg }).toMatchObject({ at, code: 1 });
          groups.set(step.group, res.data.id);
        }
        const moved = await call(
          t,
          'POST',
          '/api/admin/users/set_group',
          { user_id: trader.userId, group_id: groups.get(step.group) },
          { token, lang: 'en' },
        );
        expect({ at, code: moved.code, msg: moved.msg }).toMatchObject({ at, code: 1 });
        await t.ctx.services.trading.engine.idle();
      } else if ('wait' in step) {
        await new Promise((r) => setTimeout(r, step.wait));
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
    // A part the system closed off a position (a partial stop-out) has no name: 'part 1', 'part 2', ... oldest first.
    const parts = new Map<number, string>();
    const partName = (id: number) => {
      if (!parts.has(id)) parts.set(id, `part ${parts.size + 1}`);
      return parts.get(id)!;
    };
    const history = await api(t, trader, '/v1/api/forex/my_deal', { status: 3 });
    const closes = Object.fromEntries(
      (history.data.data as { Id: number; ClosedType: number; UpdatePrice: string; FactProfits: string }[]).map((o) => [
        nameOf.get(o.Id) ?? partName(o.Id),
        { type: o.ClosedType, price: o.UpdatePrice, profit: o.FactProfits },
      ]),
    );
    const cancelled = Object.fromEntries(
      (history.data.data as { Id: number; Status: number; CancelReason: string }[])
        .filter((o) => o.Status === 4 && o.CancelReason !== 'user')
        .map((o) => [nameOf.get(o.Id) ?? o.Id, o.CancelReason]),
    );
    for (const name of Object.keys(cancelled)) delete closes[name];
    const waiting = await api(t, trader, '/v1/api/forex/my_deal', { status: 0 });
    const holding = await api(t, trader, '/v1/api/forex/my_deal', { status: 1 });
    const writeOffs = await t.ctx.db
      .select({ amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(and(eq(ledgerAccounts.userId, trader.userId), eq(ledgerEntries.type, 'writeoff')))
      .orderBy(ledgerEntries.id);
    const { balance, locked } = await cashOf(t, trader.userId);
    const notices = pushes.messages.filter((m) => m.type === 'NOTICE').map((m) => m.kind as string);
    expect({
      scenario: s.name,
      closed: closes,
      open: (holding.data.data as { Id: number }[]).map((o) => nameOf.get(o.Id)),
      balance,
      locked,
      writeOffs: writeOffs.map((w) => w.amount),
      ...(s.expect.pending ? { pending: (waiting.data.data as { Id: number }[]).map((o) => nameOf.get(o.Id)) } : {}),
      ...(s.expect.cancelled ? { cancelled } : {}),
      ...(s.expect.notices ? { notices } : {}),
    }).toEqual({ scenario: s.name, ...s.expect });
    if (!s.expect.cancelled) expect({ scenario: s.name, cancelled }).toEqual({ scenario: s.name, cancelled: {} });
    await expectAuditClean(t);
  } finally {
    release?.();
    pushes.stop();
    for (const terms of restoreTerms.values()) await saveSymbol(terms);
    for (const [key, value] of restoreSettings) {
      if (value === null) await t.ctx.db.delete(settings).where(eq(settings.key, key));
      else await t.ctx.db.update(settings).set({ value }).where(eq(settings.key, key));
    }
    if (restoreSettings.size) await t.ctx.services.trading.settings.reload(t.ctx.db);
    closed.clear();
    await api(t, trader, '/v1/api/main/user/resetForexDemoAccount');
  }
}
