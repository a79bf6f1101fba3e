/**
 * Operator commands on an open database, as `npm run admin`, `npm run backup` and `npm run restore`
 * run them: a locked-out operator gets back in through the API, and a backup of the embedded
 * database restores the same balances and orders.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbTargets, type TestApp } from '../../test/test-app.ts';
import { loadConfig } from '../config.ts';
import { type Db, openDatabase } from '../platform/db/client.ts';
import { ledgerAccounts, orders } from '../platform/db/schema.ts';
import { demoTrader, submit, symbolId, tick, tradingApp } from '../../test/trading/test-kit.ts';
import { CommandError, restoreFrom, runCommand } from './commands.ts';

const staffLogin = (t: TestApp, email: string, password: string) =>
  call(t, 'POST', '/api/admin/login', { email, password }, { lang: 'en' });
const shownPassword = (out: string) => /New password \(shown once[^:]*\): (\S+)/.exec(out)?.[1];

describe.each(dbTargets)('operator commands on %s', (target) => {
  let t: TestApp;
  const admin = (...argv: string[]) => runCommand(t.database, t.config, argv);
  beforeAll(async () => {
    t = await tradingApp(target);
  });
  afterAll(async () => t?.close());

  it('reset-password lets a locked-out operator back in, and signs out the old sessions', async () => {
    const before = await staffLogin(t, 'admin@test.local', 'admin-password-1');
    expect(before.code).toBe(1);
    expect((await staffLogin(t, 'admin@test.local', 'forgotten-it-1')).code).not.toBe(1);

    const reset = await admin('reset-password', 'Admin@Test.local');
    expect(reset.code).toBe(0);
    const password = shownPassword(reset.out)!;
    expect(password).toMatch(/^[\w-]{16}$/);
    expect((await staffLogin(t, 'admin@test.local', password)).code).toBe(1);
    expect((await staffLogin(t, 'admin@test.local', 'admin-password-1')).code).not.toBe(1);
    expect((await call(t, 'GET', '/api/admin/me', {}, { token: before.data.token })).code).toBe(999);

    expect((await admin('reset-password', 'admin@test.local', '--password', 'chosen-pass-77')).out).toContain('Password: as given.');
    expect((await staffLogin(t, 'admin@test.local', 'chosen-pass-77')).code).toBe(1);
    await expect(admin('reset-password', 'admin@test.local', '--password', 'password')).rejects.toThrow(CommandError);
    await expect(admin('reset-password', 'nobody@test.local')).rejects.toThrow(/No staff account/);
  });

  it('create-staff makes an account with its roles; disable-staff shuts it out; reset-password lets it in again', async () => {
    const created = await admin('create-staff', 'ops@test.local', '--roles', 'finance,support', '--name', 'Ops');
    expect(created.out).toContain('Staff account created: ops@test.local (finance, support)');
    const password = shownPassword(created.out)!;
    const signedIn = await staffLogin(t, 'ops@test.local', password);
    expect(signedIn.data.staff).toMatchObject({ email: 'ops@test.local', name: 'Ops', roles: ['finance', 'support'] });
    await expect(admin('create-staff', 'ops@test.local', '--roles', 'finance')).rejects.toThrow(/already exists/);
    await expect(admin('create-staff', 'x@test.local', '--roles', 'king')).rejects.toThrow(/Roles:/);

    expect((await admin('disable-staff', 'ops@test.local')).code).toBe(0);
    expect((await staffLogin(t, 'ops@test.local', password)).code).not.toBe(1);
    expect((await call(t, 'GET', '/api/admin/me', {}, { token: signedIn.data.token })).code).toBe(999);

    const again = shownPassword((await admin('reset-password', 'ops@test.local')).out)!;
    expect((await staffLogin(t, 'ops@test.local', again)).code).toBe(1);
  });

  it('backup refuses PostgreSQL (pg_dump) and restore refuses a DATABASE_URL', async () => {
    if (target !== 'postgres') return;
    await expect(admin('backup', path.join(os.tmpdir(), 'never.tar.gz'))).rejects.toThrow(/pg_dump/);
    await expect(restoreFrom(loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/x' }), 'x')).rejects.toThrow(/pg_restore/);
  });
});

describe('backup and restore of the embedded database', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-backup-'));
  let t: TestApp;
  beforeAll(async () => {
    t = await tradingApp('pglite');
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const books = async (db: Db) => ({
    accounts: await db
      .select({ id: ledgerAccounts.id, userId: ledgerAccounts.userId, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .orderBy(asc(ledgerAccounts.id)),
    orders: await db.select().from(orders).orderBy(asc(orders.id)),
  });

  // Opens, migrates and restores on-disk databases: slow on a loaded machine.
  it('brings back the same balances and orders, keeping the data directory it replaces', async () => {
    const trader = await demoTrader(t);
    const btc = symbolId(t, 'BTCUSDT');
    await tick(t, 'BTCUSDT', '100000', '100020');
    const open = await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, status: 1, multiple: 10 });
    expect(open.code).toBe(1);
    const pending = await submit(t, trader, { type: 2, cont: '0.2', forex_id: btc, status: 0, target_price: '90000', multiple: 10 });
    expect(pending.code).toBe(1);
    const closing = await submit(t, trader, { type: 1, cont: '0.3', forex_id: btc, status: 1, multiple: 10 });
    await tick(t, 'BTCUSDT', '100500', '100520');
    expect((await call(t, 'GET', '/v1/api/forex/close', { id: closing.data.Id }, { token: trader.token })).code).toBe(1);
    const saved = await books(t.ctx.db);
    expect(saved.orders.length).toBe(3);

    const file = path.join(dir, 'backups', 'one.tar.gz');
    const backup = await runCommand(t.database, t.config, ['backup', file]);
    expect(backup.out).toContain(`Backup written: ${file}`);
    // Work after the backup is not in it.
    await submit(t, trader, { type: 1, cont: '0.1', forex_id: btc, status: 1, multiple: 10 });

    const config = loadConfig({ DATA_DIR: path.join(dir, 'data') });
    const first = await openDatabase({ dataDir: config.DATA_DIR });
    await first.close();
    const restored = await restoreFrom(config, file);
    expect(restored.out).toContain('The previous data directory is kept in');
    expect(fs.readdirSync(config.DATA_DIR).filter((f) => f.startsWith('pglite.before-restore-'))).toHaveLength(1);

    const database = await openDatabase({ dataDir: config.DATA_DIR });
    try {
      expect(await books(database.db)).toEqual(saved);
    } finally {
      await database.close();
    }
  }, 240_000);
});
