/**
 * Restart: the real server in a child process is killed (SIGKILL) while ticks flow through the
 * triggers of open and pending orders; after the restart the next tick fires what is left, every
 * crossed trigger has fired exactly once and the ledger audit passes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { fixed } from '@tp/contract/decimal';
import { afterAll, describe, expect, it } from 'vitest';
import { dbTargets } from '../../../../test/test-app.ts';
import { openDatabase } from '../../../platform/db/client.ts';
import { auditLedger } from '../../ledger/ledger-service.ts';
import { request, type ServerProcess, startServer } from '../../../../test/trading/server-process.ts';
import { createScratchDatabase } from '../../../../test/scratch-database.ts';

const rows = <T>(r: unknown) => (r as { rows?: T[] }).rows ?? (r as T[]);

const freshPgDatabase = () => createScratchDatabase(process.env.TEST_DATABASE_URL!, 't_restart');

describe.each(dbTargets)('restart on %s', (target) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('fires every crossed trigger exactly once across a SIGKILL, with the books right', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-restart-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const replay = path.join(dir, 'no-ticks.csv');
    fs.writeFileSync(replay, 'time,code,bid,ask\n');
    const env: Record<string, string> = {
      DATA_DIR: dir,
      PRICE_SOURCE: 'replay',
      REPLAY_FILE: replay,
      MARKET_ALWAYS_OPEN: '1',
      HISTORY_BARS: '0',
      TRADING_TEST_CONTROLS: '1',
      RATE_LIMIT_MAX: '1000000',
      ADMIN_PASSWORD: 'admin-password-1',
      LOG_LEVEL: 'error',
    };
    if (target === 'postgres') {
      const db = await freshPgDatabase();
      cleanups.push(db.drop);
      env.DATABASE_URL = db.url;
    }
    let server: ServerProcess = await startServer(env);
    cleanups.push(() => void server.child.kill('SIGKILL'));
    const call = (method: 'GET' | 'POST', url: string, params: Record<string, unknown> = {}, token?: string) =>
      request(server.url, method, url, params, token ? { authorization: token } : {});
    const btc = (await call('GET', '/v1/api/forex/trade_list', { searchCurrency: 'BTCUSDT' })).data.find(
      (s: { Code: string }) => s.Code === 'BTCUSDT',
    ).Id;
    const tick = (bid: number) => call('POST', '/api/test/trading/tick', { symbol_id: btc, bid: fixed(bid, 2), ask: fixed(bid + 20, 2) });
    expect((await tick(94990)).code).toBe(1);

    const traders: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await call('GET', '/api/user/createAccountDemoForU');
      traders.push((await call('POST', '/api/user/loginForU', { demo_id: created.data.demo_id })).data.token);
    }
    // Take-profits of buys, stop-losses of sells and buy stops, spread from 95,050 to 96,000.
    const expected: { id: number; kind: 'tp' | 'sl' | 'fill'; level: number }[] = [];
    for (const [i, token] of traders.entries()) {
      for (let k = 0; k < 6; k++) {
        const level = 95_050 + (i * 6 + k) * 40;
        const kind = (['tp', 'sl', 'fill'] as const)[k % 3]!;
        const params =
          kind === 'tp'
            ? { type: 1, target_profit_price: level }
            : kind === 'sl'
              ? { type: 2, stop_loss_price: level }
              : { type: 1, status: 0, target_price: level };
        const res = await call('GET', '/v1/api/forex/submit', { cont: '0.1', forex_id: btc, multiple: 10, ...params }, token);
        expect(res.code, res.msg).toBe(1);
        expected.push({ id: res.data.Id, kind, level });
      }
    }

    // Prices climb through every level; the server is killed on the way, without warning.
    for (let bid = 95_000; bid <= 95_600; bid += 10) await tick(bid);
    server.child.kill('SIGKILL');
    await server.exited;

    server = await startServer(env);
    // Some triggers fired before the kill, some are left for the first tick after the restart.
    const closedBefore = (await Promise.all(traders.map((token) => call('GET', '/v1/api/forex/my_deal', { status: 3 }, token)))).reduce(
      (n, r) => n + r.data.total,
      0,
    );
    expect(closedBefore).toBeGreaterThan(0);
    expect(closedBefore).toBeLessThan(expected.filter((e) => e.kind !== 'fill').length);
    expect((await tick(96_100)).code).toBe(1);
    const idle = await call('GET', '/api/test/trading/idle');
    expect(idle.data).toMatchObject({ running: true, positions: expected.filter((e) => e.kind === 'fill').length, pendings: 0 });
    server.child.kill('SIGTERM');
    await server.exited;

    const database = await openDatabase({ url: env.DATABASE_URL, dataDir: dir, poolSize: 2 });
    try {
      const report = await auditLedger(database.db);
      expect(report.problems).toEqual([]);
      const orderRows = rows<{ id: number; status: number; closed_type: number | null; price: string; update_price: string }>(
        await database.db.execute(sql`select id::int as id, status, closed_type, price::text, update_price::text from orders order by id`),
      );
      const txs = rows<{ ref_id: string; kind: string; n: number }>(
        await database.db.execute(
          sql`select ref_id, kind, count(*)::int as n from ledger_transactions where ref_type = 'order' group by ref_id, kind`,
        ),
      );
      const count = (id: number, kind: string) => txs.find((x) => x.ref_id === String(id) && x.kind === kind)?.n ?? 0;
      for (const e of expected) {
        const o = orderRows.find((r) => r.id === e.id)!;
        if (e.kind === 'fill') {
          expect({ id: e.id, status: o.status, fills: count(e.id, 'order_fill') }).toEqual({ id: e.id, status: 1, fills: 1 });
          expect(Number(o.price)).toBeGreaterThanOrEqual(e.level);
        } else {
          const closedType = e.kind === 'tp' ? 3 : 4;
          expect({ id: e.id, status: o.status, closedType: o.closed_type, closes: count(e.id, 'order_close') }).toEqual({
            id: e.id,
            status: 3,
            closedType,
            closes: 1,
          });
          // Closed at the price of a tick that crossed the level (the bid for a buy, the ask for a sell).
          expect(Number(o.update_price)).toBeGreaterThanOrEqual(e.level);
        }
      }
    } finally {
      await database.close();
    }
  }, 300_000);
});
