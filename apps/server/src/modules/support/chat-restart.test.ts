import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { dbTargets, type DbTarget } from '../../../test/test-app.ts';
import { buildApp, type App } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase, type Database } from '../../platform/db/client.ts';
import { staff } from '../../platform/db/schema.ts';
import { insertUser } from '../auth/user-repository.ts';
import { createScratchDatabase } from '../../../test/scratch-database.ts';

/** A database that outlives one server: a PGlite data directory, or a PostgreSQL database. */
async function durableDatabase(target: DbTarget) {
  if (target === 'pglite') {
    const dataDir = path.join(os.tmpdir(), `tp-chat-${randomBytes(4).toString('hex')}`);
    return { open: () => openDatabase({ dataDir }), drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 't_chat');
  return { open: () => openDatabase({ url: scratch.url, poolSize: 5 }), drop: scratch.drop };
}

const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  ADMIN_EMAIL: 'admin@test.local',
  ADMIN_PASSWORD: 'admin-password-1',
  RATE_LIMIT_MAX: '100000',
});

async function start(database: Database): Promise<App> {
  const app = await buildApp({ config, database, logger: pino({ level: 'silent' }) });
  await app.app.ready();
  return app;
}

const inject = async (app: App, method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) =>
  (await app.app.inject({ method, url, headers: { authorization: token }, payload })).json();

describe.each(dbTargets)('support chat across a restart on %s', (target) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('keeps the conversation and unread counts after the server restarts', async () => {
    const durable = await durableDatabase(target);
    cleanups.push(durable.drop);

    let database = await durable.open();
    let app = await start(database);
    const user = await insertUser(database.db, { email: 'restart@example.com' });
    const [desk] = await database.db
      .insert(staff)
      .values({ email: 'desk@staff.test', name: 'Desk', passwordHash: 'x', roles: ['support'] })
      .returning();
    const userToken = await app.ctx.services.sessions.create({ userId: user.id });
    const deskToken = await app.ctx.services.sessions.create({ staffId: desk!.id });
    const question = await inject(app, 'POST', '/api/support/send', userToken, { body: 'Is the market open on Sunday?' });
    const answer = await inject(app, 'POST', '/api/admin/support/send', deskToken, { user_id: user.id, body: 'Crypto is open every day.' });
    expect([question.code, answer.code]).toEqual([1, 1]);
    await app.close();
    await database.close();

    database = await durable.open();
    app = await start(database);
    try {
      expect((await inject(app, 'GET', '/api/support/unread', userToken)).data).toEqual({ count: 1 });
      const history = await inject(app, 'GET', '/api/support/history', userToken);
      expect(history.data.data).toEqual([question.data, answer.data]);
      const convs = await inject(app, 'GET', '/api/admin/support/conversations', deskToken);
      expect(convs.data.data).toEqual([expect.objectContaining({ user_id: user.id, unread: 1, last_message: answer.data })]);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
