import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '@tp/contract/decimal';
import { createTestApp, dbTargets, type TestApp } from '../../../test/test-app.ts';
import { insertUser } from '../auth/user-repository.ts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ledgerAccounts } from '../../platform/db/schema.ts';
import {
  auditLedger,
  DuplicatePostingError,
  HOUSE_SHARDS,
  InsufficientFundsError,
  LeadNotWrittenError,
  type LeadStatement,
  postStatement,
  UnbalancedPostingError,
} from './ledger-service.ts';

describe.each(dbTargets)('ledger on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => t?.close());

  const newUser = async (isDemo = false) => {
    const u = await insertUser(t.ctx.db, { email: `l${Math.random()}@example.com`, isDemo });
    await t.ctx.services.ledger.openUserAccounts(t.ctx.db, u.id, isDemo);
    return u.id;
  };
  const fund = (userId: number, amount: string, idemKey?: string) =>
    t.ctx.db.transaction((tx) =>
      t.ctx.services.ledger.post(tx, {
        kind: 'deposit',
        isDemo: false,
        idemKey,
        postings: [
          { account: { userId, kind: 'cash' }, amount, type: 'deposit' },
          { account: { house: 'deposit_clearing' }, amount: dec(amount).neg(), type: 'deposit' },
        ],
      }),
    );

  it('moves money with entries that sum to zero and balances that match them', async () => {
    const userId = await newUser();
    await fund(userId, '1000.123456');
    const b = await t.ctx.services.ledger.balances(t.ctx.db, userId);
    expect(b.balance.toFixed(6)).toBe('1000.123456');
    expect(b.lockBalance.toFixed(6)).toBe('0.000000');
    expect((await auditLedger(t.ctx.db)).problems).toEqual([]);
  });

  it('refuses postings that do not sum to zero', async () => {
    const userId = await newUser();
    await expect(
      t.ctx.db.transaction((tx) =>
        t.ctx.services.ledger.post(tx, {
          kind: 'x',
          isDemo: false,
          postings: [{ account: { userId, kind: 'cash' }, amount: '1', type: 'x' }],
        }),
      ),
    ).rejects.toBeInstanceOf(UnbalancedPostingError);
  });

  it('never lets a user balance go below zero, and rolls the whole transaction back', async () => {
    const userId = await newUser();
    await fund(userId, '10');
    await expect(
      t.ctx.db.transaction((tx) =>
        t.ctx.services.ledger.post(tx, {
          kind: 'fee',
          isDemo: false,
          postings: [
            { account: { userId, kind: 'cash' }, amount: '-10.000001', type: 'fee' },
            { account: { house: 'fees' }, amount: '10.000001', type: 'fee' },
          ],
        }),
      ),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    expect((await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toFixed(6)).toBe('10.000000');
    expect((await auditLedger(t.ctx.db)).ok).toBe(true);
  });

  /** A fee of `amount` charged to the user with `lead` in the same statement. */
  const chargeWith = (userId: number, amount: string, key: string, lead: LeadStatement) =>
    t.ctx.db.transaction((tx) =>
      t.ctx.services.ledger.post(tx, {
        kind: 'fee',
        isDemo: false,
        idemKey: key,
        duplicateIsError: true,
        lead,
        postings: [
          { account: { userId, kind: 'cash' }, amount: dec(amount).neg(), type: 'fee' },
          { account: { house: 'fees' }, amount, type: 'fee' },
        ],
      }),
    );

  it('writes a lead statement and its posting in one statement, and rolls both back when the lead writes nothing', async () => {
    const userId = await newUser();
    await fund(userId, '100');
    const charge = (key: string, lead: LeadStatement) => chargeWith(userId, '7', key, lead);
    // The lead's row comes back beside the posting.
    const done = await charge(`lead-${userId}-1`, { key: 'test:one', text: 'select $1::int as n', params: [42] });
    expect('lead' in done && Number(done.lead?.n)).toBe(42);
    expect((await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toFixed(2)).toBe('93.00');
    // A lead that writes no row: nothing of the posting stands.
    await expect(
      charge(`lead-${userId}-2`, { key: 'test:none', text: 'select $1::int as n where false', params: [1] }),
    ).rejects.toBeInstanceOf(LeadNotWrittenError);
    expect((await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toFixed(2)).toBe('93.00');
    expect((await auditLedger(t.ctx.db)).problems).toEqual([]);
  });

  it('writes nothing when a lead that may miss writes nothing, and all of it when it does, though a house row moved meanwhile', async () => {
    const userId = await newUser();
    await fund(userId, '100');
    const charge = (key: string, text: string, params: unknown[]) =>
      chargeWith(userId, '3', key, { key: `test:${text}`, text, params, mayMiss: true });
    // Data-modifying leads, as an order's close is (a plain select would be inlined into the statement).
    const miss = 'update settings set value = value where key = $1 returning 1 as n';
    const hit = "insert into settings (key, value) values ($1, '1') returning 1 as n";
    expect(await charge(`miss-${userId}`, miss, [`no-such-key-${userId}`])).toEqual({ missed: true });
    expect((await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toFixed(2)).toBe('100.00');
    const [house] = await t.ctx.db
      .select({ id: ledgerAccounts.id })
      .from(ledgerAccounts)
      .where(
        and(
          isNull(ledgerAccounts.userId),
          eq(ledgerAccounts.kind, 'fees'),
          eq(ledgerAccounts.isDemo, false),
          eq(ledgerAccounts.shard, userId % HOUSE_SHARDS),
        ),
      );
    // Another transaction holds the house row and moves it on while the posting waits for it: the
    // posting's update is checked again on the new row, and must still take place.
    let posted: Promise<unknown> = Promise.resolve();
    await t.ctx.db.transaction(async (tx) => {
      await tx
        .update(ledgerAccounts)
        .set({ balance: sql`${ledgerAccounts.balance}` })
        .where(eq(ledgerAccounts.id, house!.id));
      posted = charge(`hit-${userId}`, hit, [`lead-test-${userId}`]);
      await new Promise((r) => setTimeout(r, t.ctx.dbKind === 'postgres' ? 300 : 0));
    });
    expect(await posted).toMatchObject({ lead: { n: 1 } });
    expect((await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toFixed(2)).toBe('97.00');
    expect((await auditLedger(t.ctx.db)).problems).toEqual([]);
  });

  it('posts once per idempotency key, even when the same key races', async () => {
    const userId = await newUser();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => fund(userId, '5', `dep-race-${userId}`)));
    const posted = results.filter((r) => r.status === 'fulfilled' && 'txId' in r.value).length;
    expect(posted).toBe(1);
    expect((await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toFixed(2)).toBe('5.00');
    expect((await auditLedger(t.ctx.db)).ok).toBe(true);
  });

  it('refuses a repeated key in one-statement posts, and the refused transaction leaves no trace', async () => {
    const userId = await newUser();
    await fund(userId, '100');
    const charge = (key: string) =>
      t.ctx.db.transaction((tx) =>
        t.ctx.services.ledger.post(tx, {
          kind: 'fee',
          isDemo: false,
          idemKey: key,
          duplicateIsError: true,
          postings: [
            { account: { userId, kind: 'cash' }, amount: '-7.5', type: 'fee' },
            { account: { house: 'fees' }, amount: '7.5', type: 'fee' },
          ],
        }),
      );
    await expect(charge(`fee-${userId}`)).resolves.toHaveProperty('txId');
    await expect(charge(`fee-${userId}`)).rejects.toBeInstanceOf(DuplicatePostingError);
    expect((await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toFixed(6)).toBe('92.500000');
    // Racing the same key: exactly one lands.
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => charge(`fee-race-${userId}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toFixed(6)).toBe('85.000000');
    expect((await auditLedger(t.ctx.db)).problems).toEqual([]);
  });

  it('moves each house balance once per post under concurrent first use by many users', async () => {
    const users = await Promise.all(Array.from({ length: 30 }, () => newUser()));
    await Promise.all(users.map((userId) => fund(userId, '3.25')));
    for (const userId of users) expect((await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toFixed(2)).toBe('3.25');
    expect((await auditLedger(t.ctx.db)).problems).toEqual([]);
  });

  it('runs withLockedUser as one transaction: committed on success, nothing left on failure', async () => {
    const userId = await newUser();
    const deposit = (tx: Parameters<Parameters<typeof t.ctx.services.ledger.withLockedUser>[1]>[0], amount: string) =>
      t.ctx.services.ledger.post(tx, {
        kind: 'deposit',
        isDemo: false,
        postings: [
          { account: { userId, kind: 'cash' }, amount, type: 'deposit' },
          { account: { house: 'deposit_clearing' }, amount: dec(amount).neg(), type: 'deposit' },
        ],
      });
    await expect(
      t.ctx.services.ledger.withLockedUser(userId, async (tx, b) => {
        expect(b.balance.toString()).toBe('0');
        await deposit(tx, '12');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toString()).toBe('0');
    const seen = await t.ctx.services.ledger.withLockedUser(userId, async (tx, b) => {
      await deposit(tx, '12');
      return b.balance.toString();
    });
    expect(seen).toBe('0');
    expect((await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toString()).toBe('12');
    // A first statement that fails leaves no connection behind in an aborted transaction.
    await expect(t.database.transactionWith(['select * from no_such_table'], async () => 1)).rejects.toThrow();
    const rounds = await Promise.all(
      Array.from({ length: 40 }, () => t.ctx.services.ledger.withLockedUser(userId, async (_tx, b) => b.balance.toString())),
    );
    expect(new Set(rounds)).toEqual(new Set(['12']));
    expect((await auditLedger(t.ctx.db)).problems).toEqual([]);
  });

  it('spreads a house account over shards by user; the house total is the sum of its shards', async () => {
    const houseRows = () =>
      t.ctx.db
        .select({ shard: ledgerAccounts.shard, balance: ledgerAccounts.balance })
        .from(ledgerAccounts)
        .where(and(isNull(ledgerAccounts.userId), eq(ledgerAccounts.kind, 'deposit_clearing'), eq(ledgerAccounts.isDemo, false)));
    const before = await houseRows();
    expect(before).toHaveLength(HOUSE_SHARDS);
    const users = await Promise.all(Array.from({ length: 3 }, () => newUser()));
    await Promise.all(users.map((userId) => fund(userId, '10')));
    const after = await houseRows();
    const moved = after
      .map((row) => ({ shard: row.shard, delta: dec(row.balance).minus(before.find((b) => b.shard === row.shard)!.balance) }))
      .filter((row) => !row.delta.isZero());
    // Each user's deposit moved the shard of that user only.
    expect(moved.map((row) => row.shard).sort()).toEqual([...new Set(users.map((id) => id % HOUSE_SHARDS))].sort());
    expect(moved.reduce((total, row) => total.plus(row.delta), dec(0)).toString()).toBe('-30');
    expect((await auditLedger(t.ctx.db)).problems).toEqual([]);
  });

  it.runIf(target === 'postgres')(
    "moves balances by the accounts' primary key, not by scanning the accounts table, with the plan every order reuses",
    async () => {
      // A young platform's table of 900 accounts, where a join to the VALUES alone is planned as a scan
      // of the whole table (0.07 ms of each order's statement with 688 accounts). The table is topped up
      // to that size and rewritten in id order before it is analysed, so the plan does not depend on
      // what the tests before left in it (dead rows, a bloated index): a few hundred accounts put the
      // two plans' costs within a few percent of each other, and the choice then followed that churn.
      const accounts = 900;
      const counted = await t.ctx.db.execute(sql.raw('select count(*)::int as n from ledger_accounts'));
      const n = (counted as unknown as { rows: { n: number }[] }).rows[0]!.n;
      await t.ctx.db.execute(
        sql.raw(`insert into ledger_accounts (user_id, kind, is_demo)
          select 1000000 + g, 'cash', false from generate_series(1, ${Math.max(0, accounts - n)}) as g`),
      );
      await t.ctx.db.execute(sql.raw('cluster ledger_accounts using ledger_accounts_pkey'));
      await t.ctx.db.execute(sql.raw('analyze ledger_accounts'));
      const plan = await t.ctx.db.transaction(async (tx) => {
        await tx.execute(sql.raw('set local plan_cache_mode = force_generic_plan'));
        await tx.execute(sql.raw(`prepare ledger_plan_check as ${postStatement(4, 3)}`));
        const args = [
          "'deposit'",
          'false',
          'null',
          'null',
          'null',
          ...Array.from({ length: 4 }, () => ['1', "'0'", "'x'", "''"]).flat(),
          '1',
          "'0'",
          '2',
          "'0'",
          '3',
          "'0'",
        ];
        const rows = await tx.execute(sql.raw(`explain execute ledger_plan_check(${args.join(', ')})`));
        await tx.execute(sql.raw('deallocate ledger_plan_check'));
        return ((rows as unknown as { rows: { 'QUERY PLAN': string }[] }).rows ?? rows)
          .map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN'])
          .join('\n');
      });
      expect(plan).toMatch(/Update on ledger_accounts/);
      expect(plan).not.toMatch(/Seq Scan on ledger_accounts/);
      expect(plan).toMatch(/Index Scan on ledger_accounts_pkey|Index Scan using ledger_accounts_pkey/);
    },
  );

  it('keeps demo and real money apart', async () => {
    const demo = await newUser(true);
    await expect(fund(demo, '1')).rejects.toThrow(/demo and real/);
  });
});
