/**
 * Swaps as scenario tables, on both databases: rollovers a stopped leader missed are charged when
 * one runs again (each date once, with its own days); the swap is computed on the contract size the
 * position was opened with; a close after the 17:00 New York rollover, before the job ran, pays
 * what the position owed; a partial close gives the closed part its share of the swap so far.
 * Every scenario also checks that the swaps shown per order (open and closed, my_deal) and per
 * statement line add up to the swap entries of the account's ledger.
 *
 * Seeded terms: EURUSD -7.2 / +2.1 points (-7.2 / +2.1 USD a lot), tripled on Wednesday, none at
 * weekends; XAUUSD -45.1 points (0.01 x 100 oz: -45.10 USD a lot); BTCUSDT -18% a year of the open
 * price (95,010: -47.505 USD a lot), every day once. Rollovers in November 2026 are at 22:00 UTC.
 */
import { and, asc, eq } from 'drizzle-orm';
import { dec } from '@tp/contract/decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffSession } from '../../../../test/auth-helpers.ts';
import { call, dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { ledgerAccounts, ledgerEntries, orders } from '../../../platform/db/schema.ts';
import { SwapService } from './swap-service.ts';
import { api, demoTrader, expectAuditClean, submit, symbolId, tick, tradingApp } from '../../../../test/trading/test-kit.ts';

type Step =
  | { tick: [code: string, bid: string, ask: string] }
  /** A market order named `open`, taken as opened at `at` (the rollovers it owes follow from that). */
  | { open: string; code: string; type: 1 | 2; lots: string; at: string; tp?: string; leverage?: number }
  /** The rollover job at `at`, on `servers` servers at once (default one). */
  | { run: string; servers?: number }
  /** The instant a close sees (the job has not run since). */
  | { clock: string }
  /** The trader's close; with `lots`, a partial close whose closed part is named `part`. */
  | { close: string; lots?: string; part?: string }
  /** Close all (batch close, type 0). */
  | { closeAll: true }
  | { staffClose: string }
  /** The trader's close and the rollover job at `jobAt` on two servers, at the same moment. */
  | { closeRacing: string; jobAt: string }
  /** Risk staff edit a symbol's contract size in the back office. */
  | { contractSize: string; code: string };

interface Scenario {
  name: string;
  steps: Step[];
  expect: {
    /** Swap of each named order as the trader's order lists show it. */
    swaps: Record<string, string>;
    /** The account's swap entries: memo (order names for ids) and amount, in order. */
    entries: string[];
    open: string[];
    /** Realised profit of closed orders, where the scenario is about it. */
    profits?: Record<string, string>;
  };
}

const ROLLOVER_SCENARIOS: Scenario[] = [
  {
    name: 'leader down over Wednesday: Tuesday, Wednesday x3 and Thursday, not Tuesday and Thursday',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '1', at: '2026-11-24T12:00:00Z' },
      { run: '2026-11-24T22:30:00Z' },
      { run: '2026-11-26T22:30:00Z' },
    ],
    expect: {
      swaps: { eur: '-36.000000' },
      entries: ['EURUSD #eur 2026-11-24: -7.2', 'EURUSD #eur 2026-11-25 x3: -21.6', 'EURUSD #eur 2026-11-26: -7.2'],
      open: ['eur'],
    },
  },
  {
    name: 'no run at all since the open on Monday: every rollover until Thursday at once',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '1', at: '2026-11-23T12:00:00Z' },
      { run: '2026-11-26T22:30:00Z' },
    ],
    expect: {
      swaps: { eur: '-43.200000' },
      entries: [
        'EURUSD #eur 2026-11-23: -7.2',
        'EURUSD #eur 2026-11-24: -7.2',
        'EURUSD #eur 2026-11-25 x3: -21.6',
        'EURUSD #eur 2026-11-26: -7.2',
      ],
      open: ['eur'],
    },
  },
  {
    name: 'down from Friday to Tuesday: FX owes Friday, Monday and Tuesday, crypto every day',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '1', at: '2026-11-26T12:00:00Z' },
      { open: 'btc', code: 'BTCUSDT', type: 1, lots: '1', at: '2026-11-26T12:00:00Z', leverage: 10 },
      { run: '2026-11-26T22:30:00Z' },
      { run: '2026-12-01T22:30:00Z' },
    ],
    expect: {
      swaps: { eur: '-28.800000', btc: '-285.030000' },
      entries: [
        'EURUSD #eur 2026-11-26: -7.2',
        'BTCUSDT #btc 2026-11-26: -47.505',
        'EURUSD #eur 2026-11-27: -7.2',
        'EURUSD #eur 2026-11-30: -7.2',
        'EURUSD #eur 2026-12-01: -7.2',
        'BTCUSDT #btc 2026-11-27: -47.505',
        'BTCUSDT #btc 2026-11-28: -47.505',
        'BTCUSDT #btc 2026-11-29: -47.505',
        'BTCUSDT #btc 2026-11-30: -47.505',
        'BTCUSDT #btc 2026-12-01: -47.505',
      ],
      open: ['eur', 'btc'],
    },
  },
  {
    name: 'three servers catch up at once after the downtime: each date once',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '1', at: '2026-11-24T12:00:00Z' },
      { open: 'short', code: 'EURUSD', type: 2, lots: '2', at: '2026-11-24T12:00:00Z' },
      { run: '2026-11-26T22:30:00Z', servers: 3 },
      { run: '2026-11-26T22:30:00Z', servers: 2 },
    ],
    expect: {
      swaps: { eur: '-36.000000', short: '21.000000' },
      entries: [
        'EURUSD #eur 2026-11-24: -7.2',
        'EURUSD #eur 2026-11-25 x3: -21.6',
        'EURUSD #eur 2026-11-26: -7.2',
        'EURUSD #short 2026-11-24: 4.2',
        'EURUSD #short 2026-11-25 x3: 12.6',
        'EURUSD #short 2026-11-26: 4.2',
      ],
      open: ['eur', 'short'],
    },
  },
  {
    name: 'a catch-up over the night the clocks go back (1 November)',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { tick: ['BTCUSDT', '94990', '95010'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '1', at: '2026-10-29T12:00:00Z' },
      { open: 'btc', code: 'BTCUSDT', type: 1, lots: '1', at: '2026-10-31T20:30:00Z', leverage: 10 },
      // Saturday's rollover was at 21:00 UTC (New York still on summer time), Monday's at 22:00.
      { run: '2026-11-02T22:30:00Z' },
    ],
    expect: {
      swaps: { eur: '-21.600000', btc: '-142.515000' },
      entries: [
        'EURUSD #eur 2026-10-29: -7.2',
        'EURUSD #eur 2026-10-30: -7.2',
        'EURUSD #eur 2026-11-02: -7.2',
        'BTCUSDT #btc 2026-10-31: -47.505',
        'BTCUSDT #btc 2026-11-01: -47.505',
        'BTCUSDT #btc 2026-11-02: -47.505',
      ],
      open: ['eur', 'btc'],
    },
  },
];

const CONTRACT_SIZE_SCENARIOS: Scenario[] = [
  {
    name: 'staff change XAUUSD from 100 oz to 1 while a lot is open: its swap and profit stay on 100 oz',
    steps: [
      { tick: ['XAUUSD', '2650.00', '2650.30'] },
      { open: 'gold', code: 'XAUUSD', type: 1, lots: '1', at: '2026-11-24T12:00:00Z' },
      { contractSize: '1', code: 'XAUUSD' },
      { open: 'after', code: 'XAUUSD', type: 1, lots: '1', at: '2026-11-24T12:00:00Z' },
      { run: '2026-11-24T22:30:00Z' },
      { tick: ['XAUUSD', '2660.00', '2660.30'] },
      { clock: '2026-11-25T22:00:05Z' },
      // Closed after Wednesday's rollover: x3 on the stored 100 oz too.
      { close: 'gold' },
      { close: 'after' },
    ],
    expect: {
      swaps: { gold: '-180.400000', after: '-1.804000' },
      entries: [
        'XAUUSD #gold 2026-11-24: -45.1',
        'XAUUSD #after 2026-11-24: -0.451',
        'XAUUSD #gold 2026-11-25 x3: -135.3',
        'XAUUSD #after 2026-11-25 x3: -1.353',
      ],
      open: [],
      // (2,660.00 - 2,650.30) x 100 oz, and x 1 oz for the one opened after the change.
      profits: { gold: '970.000000', after: '9.700000' },
    },
  },
];

const CLOSE_AFTER_ROLLOVER_SCENARIOS: Scenario[] = [
  {
    name: "closed 5 s after Wednesday's rollover, before the job ran: pays Wednesday x3",
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '10', at: '2026-11-25T12:00:00Z' },
      { clock: '2026-11-25T22:00:05Z' },
      { close: 'eur' },
      { run: '2026-11-25T22:30:00Z' },
    ],
    expect: { swaps: { eur: '-216.000000' }, entries: ['EURUSD #eur 2026-11-25 x3: -216'], open: [] },
  },
  {
    name: '5 s before the rollover: nothing owed, and the job after it leaves the closed position alone',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '10', at: '2026-11-25T12:00:00Z' },
      { clock: '2026-11-25T21:59:55Z' },
      { close: 'eur' },
      { run: '2026-11-25T22:30:00Z' },
    ],
    expect: { swaps: { eur: '0.000000' }, entries: [], open: [] },
  },
  {
    name: 'charged on Tuesday, then closed after Thursday with no run between: Wednesday x3 and Thursday',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '1', at: '2026-11-24T12:00:00Z' },
      { run: '2026-11-24T22:30:00Z' },
      { clock: '2026-11-26T22:00:05Z' },
      { close: 'eur' },
    ],
    expect: {
      swaps: { eur: '-36.000000' },
      entries: ['EURUSD #eur 2026-11-24: -7.2', 'EURUSD #eur 2026-11-25 x3: -21.6', 'EURUSD #eur 2026-11-26: -7.2'],
      open: [],
    },
  },
  {
    name: 'close all after the rollover: each position pays its own',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'long', code: 'EURUSD', type: 1, lots: '10', at: '2026-11-25T12:00:00Z' },
      { open: 'short', code: 'EURUSD', type: 2, lots: '10', at: '2026-11-25T12:00:00Z' },
      { clock: '2026-11-25T22:00:05Z' },
      { closeAll: true },
    ],
    expect: {
      swaps: { long: '-216.000000', short: '63.000000' },
      entries: ['EURUSD #long 2026-11-25 x3: -216', 'EURUSD #short 2026-11-25 x3: 63'],
      open: [],
    },
  },
  {
    name: 'a take-profit hit after the rollover, before the job ran',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '10', at: '2026-11-25T12:00:00Z', tp: '1.08600' },
      { clock: '2026-11-25T22:00:05Z' },
      { tick: ['EURUSD', '1.08600', '1.08612'] },
      { run: '2026-11-25T22:30:00Z' },
    ],
    expect: { swaps: { eur: '-216.000000' }, entries: ['EURUSD #eur 2026-11-25 x3: -216'], open: [], profits: { eur: '880.000000' } },
  },
  {
    name: 'the close and two servers running the job race after the rollover: charged once',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '10', at: '2026-11-24T12:00:00Z' },
      { clock: '2026-11-25T22:00:05Z' },
      { closeRacing: 'eur', jobAt: '2026-11-25T22:00:05Z' },
      { run: '2026-11-25T22:30:00Z', servers: 2 },
    ],
    expect: {
      swaps: { eur: '-288.000000' },
      entries: ['EURUSD #eur 2026-11-24: -72', 'EURUSD #eur 2026-11-25 x3: -216'],
      open: [],
    },
  },
  {
    name: 'a staff close after the rollover, before the job ran',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '10', at: '2026-11-25T12:00:00Z' },
      { clock: '2026-11-25T22:00:05Z' },
      { staffClose: 'eur' },
    ],
    expect: { swaps: { eur: '-216.000000' }, entries: ['EURUSD #eur 2026-11-25 x3: -216'], open: [] },
  },
];

const PARTIAL_CLOSE_SCENARIOS: Scenario[] = [
  {
    name: 'a partial close takes its share of the swap so far; the rest keeps its own and goes on',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '2', at: '2026-11-24T12:00:00Z' },
      { run: '2026-11-24T22:30:00Z' },
      { clock: '2026-11-24T23:00:00Z' },
      { close: 'eur', lots: '0.5', part: 'part' },
      { run: '2026-11-25T22:30:00Z' },
    ],
    expect: {
      // -14.40 over 2 lots: -3.60 with the 0.5 lot closed, -10.80 with the 1.5 lots kept, then Wednesday x3 on 1.5 lots.
      swaps: { part: '-3.600000', eur: '-43.200000' },
      entries: ['EURUSD #eur 2026-11-24: -14.4', 'EURUSD #eur 2026-11-25 x3: -32.4'],
      open: ['eur'],
    },
  },
  {
    name: 'a partial close after a rollover the job has not charged: the whole is charged, then shared',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '10', at: '2026-11-25T12:00:00Z' },
      { clock: '2026-11-25T22:00:05Z' },
      { close: 'eur', lots: '4', part: 'part' },
      { run: '2026-11-25T22:30:00Z' },
    ],
    expect: { swaps: { part: '-86.400000', eur: '-129.600000' }, entries: ['EURUSD #eur 2026-11-25 x3: -216'], open: ['eur'] },
  },
  {
    name: 'three thirds closed one after another: each carries a third, nothing lost or counted twice',
    steps: [
      { tick: ['EURUSD', '1.08500', '1.08512'] },
      { open: 'eur', code: 'EURUSD', type: 1, lots: '3', at: '2026-11-24T12:00:00Z' },
      { run: '2026-11-25T22:30:00Z' },
      { clock: '2026-11-25T23:00:00Z' },
      { close: 'eur', lots: '1', part: 'first' },
      { close: 'eur', lots: '1', part: 'second' },
      { close: 'eur' },
    ],
    expect: {
      swaps: { first: '-28.800000', second: '-28.800000', eur: '-28.800000' },
      entries: ['EURUSD #eur 2026-11-24: -21.6', 'EURUSD #eur 2026-11-25 x3: -64.8'],
      open: [],
    },
  },
];

describe.each(dbTargets)('swap scenarios on %s', (target) => {
  let t: TestApp;
  let risk: string;
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await tradingApp(target);
    risk = await staffSession(t, ['risk']);
  });
  afterAll(async () => t?.close());

  const setContractSize = async (code: string, size: string) => {
    const saved = await call(t, 'POST', '/api/admin/symbols/save', { id: symbolId(t, code), contract_size: size }, { token: risk });
    expect(saved.code).toBe(1);
    await t.ctx.services.market.reloadSymbols();
    expect(t.ctx.services.market.symbolByCode(code)!.contractSize.toString()).toBe(size);
  };

  async function run(s: Scenario): Promise<void> {
    const trader = await demoTrader(t);
    const swaps = t.ctx.services.trading.swaps;
    const servers = [swaps, new SwapService(t.ctx, () => undefined), new SwapService(t.ctx, () => undefined)];
    const ids = new Map<string, number>();
    const sizes = new Map<string, string>();
    let latest = 0;
    try {
      for (const [i, step] of s.steps.entries()) {
        const at = `${s.name}, step ${i + 1}: ${JSON.stringify(step)}`;
        if ('tick' in step) await tick(t, ...step.tick);
        else if ('open' in step) {
          const res = await submit(t, trader, {
            type: step.type,
            cont: step.lots,
            forex_id: symbolId(t, step.code),
            multiple: step.leverage ?? 100,
            target_profit_price: step.tp,
          });
          expect({ at, msg: res.msg }).toEqual({ at, msg: 'Success' });
          ids.set(step.open, res.data.Id);
          const [row] = await t.ctx.db
            .update(orders)
            .set({ openedAt: new Date(step.at) })
            .where(eq(orders.id, res.data.Id))
            .returning();
          // Committed behind the engine's back: its book follows the row as every committed change makes it.
          t.ctx.services.trading.engine.apply([{ type: 'sync', orderId: res.data.Id, order: row }]);
        } else if ('run' in step) {
          latest = Math.max(latest, Date.parse(step.run));
          await Promise.all(servers.slice(0, step.servers ?? 1).map((server) => server.charge(Date.parse(step.run))));
          await t.ctx.services.trading.engine.idle();
        } else if ('clock' in step) {
          latest = Math.max(latest, Date.parse(step.clock));
          swaps.clock = () => Date.parse(step.clock);
        } else if ('close' in step) {
          const res = await api(t, trader, '/v1/api/forex/close', { id: ids.get(step.close), cont: step.lots });
          expect({ at, msg: res.msg }).toEqual({ at, msg: 'Success' });
          if (step.part) ids.set(step.part, res.data.Id);
          await t.ctx.services.trading.engine.idle();
        } else if ('closeAll' in step) {
          const res = await api(t, trader, '/v1/api/forex/batch_Close_by_type', { type: 0 });
          expect({ at, code: res.code }).toEqual({ at, code: 1 });
          await t.ctx.services.trading.engine.idle();
        } else if ('closeRacing' in step) {
          const [res] = await Promise.all([
            api(t, trader, '/v1/api/forex/close', { id: ids.get(step.closeRacing) }),
            swaps.charge(Date.parse(step.jobAt)),
            servers[1]!.charge(Date.parse(step.jobAt)),
          ]);
          expect({ at, msg: res.msg }).toEqual({ at, msg: 'Success' });
          await t.ctx.services.trading.engine.idle();
        } else if ('staffClose' in step) {
          await t.ctx.services.trading.closeOrderByStaff(ids.get(step.staffClose)!);
          await t.ctx.services.trading.engine.idle();
        } else {
          if (!sizes.has(step.code)) sizes.set(step.code, t.ctx.services.market.symbolByCode(step.code)!.contractSize.toString());
          await setContractSize(step.code, step.contractSize);
        }
      }

      const nameOf = new Map([...ids].map(([name, id]) => [id, name]));
      const all = await api(t, trader, '/v1/api/forex/my_deal', { status: -1, page: 1, limit: 100 });
      const rows = all.data.data as { Id: number; Status: number; Swap: string; FactProfits: string }[];
      const named = rows.filter((o) => nameOf.has(o.Id));
      const entries = await t.ctx.db
        .select({ memo: ledgerEntries.memo, amount: ledgerEntries.amount })
        .from(ledgerEntries)
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
        .where(and(eq(ledgerAccounts.userId, trader.userId), eq(ledgerEntries.type, 'swap')))
        .orderBy(asc(ledgerEntries.id));
      const memo = (m: string) => m.replace(/#(\d+)/, (_, id: string) => `#${nameOf.get(Number(id)) ?? id}`);
      const got = {
        scenario: s.name,
        swaps: Object.fromEntries(named.map((o) => [nameOf.get(o.Id), o.Swap])),
        entries: entries.map((e) => `${memo(e.memo)}: ${dec(e.amount).toString()}`),
        open: named.filter((o) => o.Status === 1).map((o) => nameOf.get(o.Id)),
        ...(s.expect.profits
          ? { profits: Object.fromEntries(named.filter((o) => o.Status === 3).map((o) => [nameOf.get(o.Id), o.FactProfits])) }
          : {}),
      };
      expect({ ...got, open: [...got.open].sort() }).toEqual({ scenario: s.name, ...s.expect, open: [...s.expect.open].sort() });

      // What the order lists show adds up to what the ledger charged, and the statement shows the same per closed position.
      const ledgerTotal = entries.reduce((sum, e) => sum.plus(e.amount), dec(0));
      expect(rows.reduce((sum, o) => sum.plus(o.Swap), dec(0)).toString()).toBe(ledgerTotal.toString());
      const statement = await api(t, trader, '/v1/api/main/account/statement', { start: yesterday, end: today });
      expect(statement.code).toBe(1);
      expect(dec(statement.data.totals.swap).toString()).toBe(ledgerTotal.toString());
      const closedRows = rows.filter((o) => o.Status === 3);
      expect(Object.fromEntries((statement.data.positions as { Id: number; Swap: string }[]).map((p) => [p.Id, p.Swap]))).toEqual(
        Object.fromEntries(closedRows.map((o) => [o.Id, o.Swap])),
      );
      await expectAuditClean(t);
    } finally {
      for (const [code, size] of sizes) await setContractSize(code, size);
      // The reset closes what is open as of the scenario's last instant, not of the clock of the run.
      if (latest) swaps.clock = () => latest;
      await api(t, trader, '/v1/api/main/user/resetForexDemoAccount');
      swaps.clock = () => Date.now();
    }
  }

  it.each(ROLLOVER_SCENARIOS.map((s) => [s.name, s] as const))('missed rollovers: %s', async (_, s) => run(s));
  it.each(CONTRACT_SIZE_SCENARIOS.map((s) => [s.name, s] as const))('stored contract size: %s', async (_, s) => run(s));
  it.each(CLOSE_AFTER_ROLLOVER_SCENARIOS.map((s) => [s.name, s] as const))('close after the rollover: %s', async (_, s) => run(s));
  it.each(PARTIAL_CLOSE_SCENARIOS.map((s) => [s.name, s] as const))('partial close: %s', async (_, s) => run(s));
});
