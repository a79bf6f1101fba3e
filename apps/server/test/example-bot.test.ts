import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { draw, drawList } from '@tp/contract/endpoints/funding';
import { myDeal } from '@tp/contract/endpoints/trading';
import { ApiCallError, createClient, splitApiKey } from '@tp/contract/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callFrom, randomIp } from './auth-helpers.ts';
import type { TestApp } from './test-app.ts';
import { demoTrader, tick, tradingApp } from './trading/test-kit.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BOT = path.join(ROOT, 'examples/bot/bot.ts');

/** Runs the example bot as its README says (tsx), with the same Node as the tests; answers its output. */
function runBot(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', BOT], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The example bot in examples/bot, run against a test server with a trade key made for it. */
describe('example bot', () => {
  let t: TestApp;
  let baseUrl = '';
  beforeAll(async () => {
    t = await tradingApp('pglite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => t?.close());

  it('trades with a trade key: quote, market buy with TP/SL, its FOREX_TRADE, close, FOREX_CLOSED; the key cannot withdraw', async () => {
    const trader = await demoTrader(t);
    const made = await callFrom(
      t,
      randomIp(),
      'POST',
      '/api/user/api_keys/create',
      { name: 'example bot', scopes: 'trade' },
      { token: trader.token },
    );
    expect(made.code).toBe(1);
    const key = made.data.key as string;

    // Prices move while the bot runs, and the engine's sweep pushes the account snapshot to holders.
    let up = false;
    const market = setInterval(() => {
      up = !up;
      void tick(t, 'BTCUSDT', up ? '95000' : '95010', up ? '95020' : '95030')
        .then(() => t.ctx.services.trading.engine.sweep())
        .catch(() => undefined);
    }, 250);
    const run = await runBot({ TP_BASE_URL: baseUrl, TP_API_KEY: key, TP_SYMBOL: 'BTCUSDT' }).finally(() => clearInterval(market));

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.map((l) => /^\[(\d)\]/.exec(l)?.[1])).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(lines[0]).toMatch(/^\[1\] logged in with key \d+ as UID \S+: balance [\d.]+ USD$/);
    expect(lines[1]).toMatch(/^\[2\] socket logged in; BTCUSDT quote bid [\d.]+ ask [\d.]+$/);
    const bought = /^\[3\] bought [\d.]+ lots of BTCUSDT at [\d.]+ \(order (\d+), x\d+\), TP ([\d.]+), SL ([\d.]+)$/.exec(lines[2]!);
    expect(bought).not.toBeNull();
    const orderId = bought![1]!;
    expect(Number(bought![2])).toBeGreaterThan(95_000);
    expect(Number(bought![3])).toBeLessThan(95_000);
    expect(lines[3]).toContain(`FOREX_TRADE: order ${orderId} open`);
    expect(lines[4]).toMatch(new RegExp(`^\\[5\\] closed order ${orderId} at [\\d.]+: profit -?[\\d.]+$`));
    expect(lines[5]).toBe(`[6] FOREX_CLOSED: orders ${orderId}`);

    // The order is in the account's history, read with the same key.
    const { keyId, secret } = splitApiKey(key);
    const client = createClient({ baseUrl, keyId, secret });
    const history = await client.call(myDeal, { status: 3 });
    expect(history.data.map((o) => o.Id)).toContain(Number(orderId));

    // The same key can never withdraw nor reach the withdrawal pages.
    const refused = { code: 1003, message: 'API keys cannot make this call' };
    const withdraw = await client.call(draw, { draw_currency_id: 1, number: '10' }).catch((e: unknown) => e);
    expect(withdraw).toBeInstanceOf(ApiCallError);
    expect(withdraw).toMatchObject(refused);
    expect(await client.call(drawList, {}).catch((e: unknown) => e)).toMatchObject(refused);
    expect(
      await createClient({ baseUrl, apiKey: key })
        .call(draw, { draw_currency_id: 1, number: '10' })
        .catch((e: unknown) => e),
    ).toMatchObject(refused);
  });
});
