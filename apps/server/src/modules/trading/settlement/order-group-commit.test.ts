/**
 * Group commit of traders' calls: submits and closes of different traders arriving together share
 * one transaction on PostgreSQL; each stays all or nothing for its trader and pays exactly what it
 * would alone. On PGlite the same calls run one transaction each, with the same answers.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { ledgerTransactions, orders } from '../../../platform/db/schema.ts';
import {
  api,
  cashOf,
  demoTrader,
  expectAuditClean,
  pushesOf,
  submit,
  symbolId,
  tick,
  tradingApp,
} from '../../../../test/trading/test-kit.ts';

const BTC = 'BTCUSDT';
/** 0.1 lot of BTC at 95,010 and 1:10: margin 950.10, fee 0.30 (the demo fee is 3 USD a lot). */
const ORDER = { type: 1, cont: '0.1', multiple: 10 };

describe.each(dbTargets)('group commit of orders on %s', (target) => {
  let t: TestApp;
  let btc: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    btc = symbolId(t, BTC);
    await tick(t, BTC, '94990', '95010');
  });
  afterAll(async () => t?.close());

  const traders = (n: number) => Promise.all(Array.from({ length: n }, () => demoTrader(t)));
  /** Committed transactions that wrote more than one call, and all of them, of the orders path. */
  const groups = async () => {
    const text = await t.ctx.metrics.text();
    const count = Number(/tp_group_commit_size_count\{path="orders"\} (\d+)/.exec(text)?.[1] ?? 0);
    const single = Number(/tp_group_commit_size_bucket\{le="1",path="orders"\} (\d+)/.exec(text)?.[1] ?? 0);
    return { shared: count - single, count };
  };
  const ledgerRows = (kind: string, ids: number[]) =>
    t.ctx.db
      .select()
      .from(ledgerTransactions)
      .where(
        and(
          eq(ledgerTransactions.kind, kind),
          inArray(
            ledgerTransactions.refId,
            ids.map((id) => String(id)),
          ),
        ),
      );

  /**
   * Sends `calls` while another transaction holds the house's `kind` rows a moment: the first call
   * of each lane waits for them and the others queue behind it, so groups form however fast the
   * machine is.
   */
  const whileHouseHeld = async <T>(kind: string, calls: () => Promise<T>[]): Promise<T[]> => {
    let sent: Promise<T[]> = Promise.resolve([]);
    await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select id from ledger_accounts where user_id is null and kind = ${kind} for update`);
      sent = Promise.all(calls());
      await new Promise((r) => setTimeout(r, target === 'postgres' ? 200 : 0));
    });
    return sent;
  };

  it('opens and closes 40 traders orders sent at once, each exactly, in shared transactions on PostgreSQL', async () => {
    const before = await groups();
    const all = await traders(40);
    const watched = pushesOf(t, all[7]!.userId);
    const opened = await whileHouseHeld('fees', () => all.map((tr) => submit(t, tr, { ...ORDER, forex_id: btc })));
    expect(opened.map((r) => r.code)).toEqual(all.map(() => 1));
    const ids = opened.map((r) => r.data.Id as number);
    expect(new Set(ids).size).toBe(40);
    for (const tr of all) expect(await cashOf(t, tr.userId)).toEqual({ balance: '99049.6', locked: '950.1' });
    expect(await ledgerRows('order_open', ids)).toHaveLength(40);

    await tick(t, BTC, '95990', '96010');
    const closed = await whileHouseHeld('counterparty', () => all.map((tr, i) => api(t, tr, '/v1/api/forex/close', { id: ids[i] })));
    expect(closed.map((r) => r.code)).toEqual(all.map(() => 1));
    // Bought at 95,010, sold at 95,990: 0.1 x 980 = 98.00, less the fee.
    for (const tr of all) expect(await cashOf(t, tr.userId)).toEqual({ balance: '100097.7', locked: '0' });
    const rows = await t.ctx.db.select().from(orders).where(inArray(orders.id, ids));
    expect(rows.every((r) => r.status === 3 && dec(r.profit!).eq(98))).toBe(true);
    expect(await ledgerRows('order_close', ids)).toHaveLength(40);
    watched.stop();
    const types = watched.messages.map((m) => m.type);
    expect(types).toContain('FOREX_TRADE');
    expect(types).toContain('FOREX_CLOSED');
    await tick(t, BTC, '94990', '95010');
    await expectAuditClean(t);
    const after = await groups();
    if (target === 'postgres') {
      expect(after.shared).toBeGreaterThan(before.shared);
      // Fewer transactions than calls.
      expect(after.count - before.count).toBeLessThan(80);
    }
  });

  it('refuses one trader for margin inside a group and opens the others', async () => {
    const before = await groups();
    const all = await traders(20);
    const results = await whileHouseHeld('fees', () =>
      all.map((tr, i) => submit(t, tr, { ...ORDER, cont: i === 5 ? '3' : ORDER.cont, forex_id: btc, multiple: i === 5 ? 2 : 10 })),
    );
    expect(results[5]!.code).toBe(2002);
    expect(results.filter((_, i) => i !== 5).every((r) => r.code === 1)).toBe(true);
    expect(await cashOf(t, all[5]!.userId)).toEqual({ balance: '100000', locked: '0' });
    for (const tr of all.filter((_, i) => i !== 5)) expect(await cashOf(t, tr.userId)).toEqual({ balance: '99049.6', locked: '950.1' });
    if (target === 'postgres') expect((await groups()).shared).toBeGreaterThan(before.shared);
    await expectAuditClean(t);
  });

  it('takes one trader twice in the same moment one after the other: the second sees the first', async () => {
    const [twice, other] = await traders(2);
    // 0.1 lot at 1:2 needs 4,750.50 margin and 0.30 fee: 21 of them fit in 100,000.
    const results = await Promise.all([
      ...Array.from({ length: 22 }, () => submit(t, twice!, { ...ORDER, forex_id: btc, multiple: 2 })),
      submit(t, other!, { ...ORDER, forex_id: btc }),
    ]);
    expect(results.slice(0, 22).filter((r) => r.code === 1)).toHaveLength(21);
    expect(
      results
        .slice(0, 22)
        .filter((r) => r.code !== 1)
        .map((r) => r.code),
    ).toEqual([2002]);
    expect(results[22]!.code).toBe(1);
    expect(await cashOf(t, twice!.userId)).toEqual({ balance: '233.2', locked: '99760.5' });
    await expectAuditClean(t);
  });

  it('writes each call alone when one fails after writing inside a group: only that one fails, and nothing of it stays', async () => {
    const failures = async () => Number(/tp_group_commit_failures_total\{path="orders"\} (\d+)/.exec(await t.ctx.metrics.text())?.[1] ?? 0);
    const failedBefore = await failures();
    const all = await traders(40);
    const bad = all[4]!;
    const settlement = (t.ctx.services.trading.orders as unknown as { settlement: { open: (...a: unknown[]) => Promise<unknown> } })
      .settlement;
    const open = settlement.open;
    settlement.open = async (...args: unknown[]) => {
      const out = await open.apply(settlement, args);
      if ((args[1] as { userId: number }).userId === bad.userId) throw new Error('injected fault after the posting');
      return out;
    };
    let results: { code: number }[];
    try {
      // The house's fee rows are held a moment, so the first call of each lane waits and the others
      // queue behind it: the faulty one is sent last and goes in a group.
      let sent: Promise<{ code: number }[]> = Promise.resolve([]);
      await t.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select id from ledger_accounts where user_id is null and kind = 'fees' for update`);
        const good = all.filter((tr) => tr !== bad).map((tr) => submit(t, tr, { ...ORDER, forex_id: btc }));
        await new Promise((r) => setTimeout(r, target === 'postgres' ? 150 : 0));
        const last = submit(t, bad, { ...ORDER, forex_id: btc });
        await new Promise((r) => setTimeout(r, target === 'postgres' ? 150 : 0));
        sent = Promise.all([...good.slice(0, 4), last, ...good.slice(4)]);
      });
      results = await sent;
    } finally {
      settlement.open = open;
    }
    expect(results[4]!.code).not.toBe(1);
    expect(results.filter((_, i) => i !== 4).every((r) => r.code === 1)).toBe(true);
    expect(await cashOf(t, bad.userId)).toEqual({ balance: '100000', locked: '0' });
    expect(await t.ctx.db.select().from(orders).where(eq(orders.userId, bad.userId))).toEqual([]);
    for (const tr of all.filter((x) => x !== bad)) expect(await cashOf(t, tr.userId)).toEqual({ balance: '99049.6', locked: '950.1' });
    // Its group was tried and written again call by call.
    if (target === 'postgres') expect(await failures()).toBeGreaterThan(failedBefore);
    await expectAuditClean(t);
  });
});
