/**
 * Two real servers on one PostgreSQL and one Redis: a session ended on one server ends its login on
 * a socket held by the other, which is told why and gets none of the user's pushes after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, type WsMessage } from '../src/realtime/ws-test-client.ts';
import { type Cluster, api, startCluster } from './cluster-kit.ts';

const ready = Boolean(process.env.TEST_DATABASE_URL && process.env.REDIS_URL);
const STRONG_PASSWORD = 'Tr4ding-Desk-42';

describe.skipIf(!ready)('a session ends on every server', () => {
  let cluster: Cluster;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    cluster = await startCluster(2);
  }, 180_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await cluster?.close();
  }, 60_000);

  async function register(url: string) {
    const email = `s.${Date.now().toString(36)}${Math.floor(Math.random() * 1e9)}@example.com`;
    expect((await api(url, 'POST', '/api/notify/send_email', { to: email, type: 1 })).code).toBe(1);
    let code: string | undefined;
    for (let i = 0; i < 100 && !code; i++) {
      const [row] = await cluster.query<{ body: string }>('select body from outbox where destination = $1 order by id desc limit 1', [email]);
      code = row && /\b(\d{6})\b/.exec(row.body)?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 50));
    }
    const res = await api(url, 'POST', '/api/user/register', { type: 'email', account: email, password: STRONG_PASSWORD, re_password: STRONG_PASSWORD, sms_code: code });
    expect(res.code).toBe(1);
    return { email, token: res.data.token as string };
  }

  const listening = async (serverUrl: string, token: string) => {
    const c = await TestClient.connect(`${serverUrl.replace('http', 'ws')}/v1/ws?lang=en`);
    clients.push(c);
    expect(await c.request({ type: 'login', params: token }, 'login_result')).toMatchObject({ code: 1 });
    expect(await c.request({ type: 'sub', params: 'CHAT' }, 'sub_result')).toMatchObject({ code: 1 });
    return c;
  };
  const isChat = (body: string) => (m: WsMessage | string) => typeof m === 'object' && m.type === 'CHAT' && m.message.body === body;

  it('logout on server A ends the socket login on server B; the other session keeps its pushes', async () => {
    const [a, b] = cluster.servers.map((s) => s.url) as [string, string];
    const { email, token } = await register(a);
    const second = (await api(a, 'POST', '/api/user/loginForU', { account: email, password: STRONG_PASSWORD, login_type: 'email' })).data.token as string;
    const ended = await listening(b, token);
    const kept = await listening(b, second);

    expect((await api(a, 'POST', '/api/support/send', { body: 'before' }, second)).code).toBe(1);
    await ended.next(isChat('before'));

    expect((await api(a, 'POST', '/api/user/logout', {}, token)).code).toBe(1);
    expect(await ended.next((m) => typeof m === 'object' && m.type === 'session_ended', 5_000)).toMatchObject({ reason: 'logout', msg: 'You have logged out.' });

    const from = ended.messages.length;
    expect((await api(a, 'POST', '/api/support/send', { body: 'after' }, second)).code).toBe(1);
    await kept.next(isChat('after'), 5_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(ended.ofType('CHAT', from)).toEqual([]);
  }, 60_000);
});
