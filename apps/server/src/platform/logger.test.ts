/**
 * Production logs: no line per request at the default info level, request lines (at debug) carry
 * the path without its query string and the request id, and a verification code never reaches
 * the log, even at trace; it goes to the outbox (no SMTP configured).
 */
import { Writable } from 'node:stream';
import { desc } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-app.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { outbox } from './db/schema.ts';
import { createLogger } from './logger.ts';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  path?: string;
}

const closers: (() => Promise<void>)[] = [];

/** A production server whose log lines are kept (the JSON text, and parsed). */
async function productionServer(level: 'info' | 'trace') {
  const text: string[] = [];
  const lines: Line[] = [];
  const env = { NODE_ENV: 'production', LOG_LEVEL: level, ADMIN_PASSWORD: 'admin-password-1', RATE_LIMIT_MAX: '100000' };
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      text.push(chunk.toString());
      lines.push(JSON.parse(chunk.toString()) as Line);
      done();
    },
  });
  const database = await openTestDatabase('pglite');
  const server = await buildApp({ config: loadConfig(env), database, logger: createLogger(loadConfig(env), sink) });
  await server.app.ready();
  closers.push(async () => {
    await server.close();
    await database.close();
  });
  return { server, database, text, lines };
}

describe('production logs', () => {
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('writes no line for a request at info', async () => {
    const { server, lines } = await productionServer('info');
    lines.length = 0;
    expect((await server.app.inject({ url: '/v1/api/forex/trade_list' })).statusCode).toBe(200);
    expect(lines).toEqual([]);
  });

  it('at debug, one line per request with its request id and path, never its query; never a verification code, which goes to the outbox', async () => {
    const { server, database, lines, text } = await productionServer('trace');
    lines.length = 0;
    await server.app.inject({ url: '/v1/api/forex/trade_list?password=hunter22&code=123456' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 20, msg: 'request', path: '/v1/api/forex/trade_list' });
    expect(lines[0]!.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(lines)).not.toMatch(/hunter22|123456/);

    const res = await server.app.inject({
      method: 'POST',
      url: '/api/notify/send_email',
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
      payload: 'to=code-log%40test.local&type=1',
    });
    expect(res.json()).toMatchObject({ code: 1 });
    const [sent] = await database.db.select().from(outbox).orderBy(desc(outbox.id)).limit(1);
    expect(sent!.destination).toBe('code-log@test.local');
    const code = /\b\d{6}\b/.exec(sent!.body)![0];
    expect(text.join('')).not.toContain(code);
  });
});
