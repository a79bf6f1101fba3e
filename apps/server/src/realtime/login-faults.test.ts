import { describe, expect, it } from 'vitest';
import { dbTargets } from '../../test/test-app.ts';
import { insertUser } from '../modules/auth/user-repository.ts';
import { useLiveGateway } from './ws-test-client.ts';

describe.each(dbTargets)('a socket login while the database is away on %s', (target) => {
  const live = useLiveGateway(target, {});

  it('answers login_result with an error (not silence), and the same login passes once the database is back', async () => {
    const user = await insertUser(live.t.ctx.db, { email: `wsdown${Date.now()}@example.com` });
    const token = await live.t.ctx.services.sessions.create({ userId: user.id });
    const sessions = live.t.ctx.services.sessions as unknown as { resolveUser: (token: string) => Promise<unknown> };
    const resolveUser = sessions.resolveUser;
    sessions.resolveUser = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    const c = await live.connect();
    try {
      const answer = await c.request({ type: 'login', params: token }, 'login_result');
      // Not "session expired": the client keeps its token and tries again.
      expect(answer).toMatchObject({ code: 500, msg: 'Could not log in right now. Retrying…' });
    } finally {
      sessions.resolveUser = resolveUser;
    }
    expect(await c.request({ type: 'login', params: token }, 'login_result')).toMatchObject({ code: 1 });
  });
});
