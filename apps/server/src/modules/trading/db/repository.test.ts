import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, type TestApp } from '../../../../test/test-app.ts';
import { insertUser } from '../../auth/user-repository.ts';
import { findOrder, insertOrder, markClosed, orderFromRaw, ordersWhere, ownOrdersCondition, updateStops } from './repository.ts';
import { tradingApp } from '../../../../test/trading/test-kit.ts';

/**
 * The order statements that bypass the query builder (insert, guarded close, reads that travel
 * with the user's lock) must give exactly the rows the query builder gives.
 */
describe.each(dbTargets)('order statements on %s', (target) => {
  let t: TestApp;
  let userId: number;
  beforeAll(async () => {
    t = await tradingApp(target);
    userId = (await insertUser(t.ctx.db, { email: `repo${Math.random()}@example.com`, isDemo: true })).id;
  });
  afterAll(async () => t?.close());

  const newOrder = (extra: Partial<Parameters<typeof insertOrder>[1]> = {}) =>
    insertOrder(t.ctx.db, {
      userId,
      symbolId: 1,
      isDemo: true,
      orderType: 2,
      status: 1,
      quantity: '0.25',
      leverage: 50,
      contractSize: '100000',
      originPrice: null,
      pendingKind: null,
      price: '1.0845',
      closePrice: '1.0845',
      takeProfit: '1.07',
      stopLoss: null,
      margin: '542.25',
      fee: '3.5',
      clientOrderId: null,
      openedAt: new Date('2026-11-21T10:00:00.123Z'),
      ...extra,
    });

  it('inserts and reads back the same row as the query builder', async () => {
    const row = (await newOrder())!;
    expect(row).toEqual(await findOrder(t.ctx.db, row.id));
    expect(row).toMatchObject({ quantity: '0.250000', price: '1.0845000000', stopLoss: null, profit: '0.000000', status: 1 });
    expect(row.openedAt).toEqual(new Date('2026-11-21T10:00:00.123Z'));
    expect(row.createdAt).toBeInstanceOf(Date);
    const [raw] = await t.database.transactionWith([ordersWhere(ownOrdersCondition(row.userId, [row.id]))], async (_tx, [rows]) => rows!);
    expect(orderFromRaw(raw!)).toEqual(row);
  });

  it('refuses a second order with the same client order id', async () => {
    const first = await newOrder({ clientOrderId: 'c-1' });
    expect(first).not.toBeNull();
    expect(await newOrder({ clientOrderId: 'c-1' })).toBeNull();
  });

  it('closes once, and only the version it read: any update in between (a stop edit) moves the version', async () => {
    const row = (await newOrder())!;
    expect(row.version).toBe(1);
    const set = { closePrice: '1.069', profit: '387.5', closedType: 2 };
    const edited = (await updateStops(t.ctx.db, row.id, row.userId, '1.08', null))!;
    expect(edited.version).toBe(2);
    expect(await markClosed(t.ctx.db, row.id, row.version, set)).toBeNull();
    const closed = (await markClosed(t.ctx.db, row.id, edited.version, set))!;
    expect(closed).toEqual(await findOrder(t.ctx.db, row.id));
    expect(closed).toMatchObject({ status: 3, closePrice: '1.0690000000', profit: '387.500000', closedType: 2, version: 3 });
    expect(closed.completedAt).toBeInstanceOf(Date);
    expect(await markClosed(t.ctx.db, row.id, closed.version, set)).toBeNull();
  });
});
