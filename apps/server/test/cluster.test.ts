/**
 * Three real servers on one PostgreSQL and one Redis: throttles hold across servers; quotes and
 * order pushes reach a client on any server; one server leads (price feed and engine), a trigger
 * fires once (also when the bus message of the order is lost: the leader reads the change log), and
 * another server takes over within 5 s when the leader is killed, with nothing fired twice or missed (take-profits, a trailing stop, a price alert) and the ledger audit clean.
 */
import { fixed } from '@tp/contract/decimal';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/modules/auth/password.ts';
import { auditLedger } from '../src/modules/ledger/ledger-service.ts';
import { CONFIRM_TICKS } from '../src/modules/market/quote-pipeline.ts';
import { openDatabase } from '../src/platform/db/client.ts';
import { TestClient } from '../src/realtime/ws-test-client.ts';
import { type Cluster, type ClusterServer, api, startCluster } from './cluster-kit.ts';

const ready = Boolean(process.env.TEST_DATABASE_URL && process.env.REDIS_URL);
if (!ready) console.warn('cluster.test.ts skipped: set TEST_DATABASE_URL (PostgreSQL) and REDIS_URL (Redis) to run the three-server tests');

const STRONG_PASSWORD = 'Tr4ding-Desk-42';
const uniqueEmail = () => `c.${Date.now().toString(36)}${Math.floor(Math.random() * 1e9)}@example.com`;

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs: number, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Sends a jump in BTC through a server's test tick control, as a feed would: a jump beyond the deviation
 * threshold (from wherever the simulator's last accepted price is) is held until the next ticks confirm it.
 */
async function jump(url: string, symbolId: number, high: number): Promise<number> {
  let code = 0;
  for (let i = 0; i <= CONFIRM_TICKS && code !== 1; i++)
    code = (await api(url, 'POST', '/api/test/trading/tick', { symbol_id: symbolId, bid: fixed(high, 2), ask: fixed(high + 10, 2) })).code;
  return code;
}

describe.skipIf(!ready)('three servers on PostgreSQL and Redis', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster(3, { PRICE_SOURCE: 'simulator', MARKET_ALWAYS_OPEN: '1', HISTORY_BARS: '10', TRADING_TEST_CONTROLS: '1' });
  }, 180_000);
  afterAll(async () => cluster?.close(), 60_000);

  /** Registers by emailed code: the code is asked on one server, the account created on another. */
  async function register(sendOn: string, registerOn: string) {
    const email = uniqueEmail();
    expect((await api(sendOn, 'POST', '/api/notify/send_email', { to: email, type: 1 })).code).toBe(1);
    const code = await until(
      'the code in the outbox',
      async () => {
        const rows = await cluster.query<{ body: string }>('select body from outbox where destination = $1 order by id desc limit 1', [
          email,
        ]);
        return rows[0] && /\b(\d{6})\b/.exec(rows[0].body)?.[1];
      },
      5_000,
    );
    const res = await api(registerOn, 'POST', '/api/user/register', {
      type: 'email',
      account: email,
      password: STRONG_PASSWORD,
      re_password: STRONG_PASSWORD,
      sms_code: code,
    });
    expect(res.code).toBe(1);
    return email;
  }

  it('holds the login throttle when wrong passwords are spread over the servers', async () => {
    const [a, b, c] = cluster.servers.map((s) => s.url) as [string, string, string];
    const email = await register(a, b);
    // Three failures on servers A and B; server C, which saw none, asks for the captcha too.
    const spread = [a, b, a];
    for (const [i, url] of spread.entries()) {
      const res = await api(url, 'POST', '/api/user/loginForU', { account: email, password: `Guess-${i}-wrong`, login_type: 'email' });
      expect(res.msg).toBe('Incorrect account or password');
    }
    const fourth = await api(c, 'POST', '/api/user/loginForU', { account: email, password: STRONG_PASSWORD, login_type: 'email' });
    expect(fourth.code).toBe(1022);
    expect(fourth.msg).toBe('Please enter the characters shown in the picture to log in');
    // Every server asks for the captcha now, the one that saw no failure too.
    expect((await api(a, 'POST', '/api/user/loginForU', { account: email, password: STRONG_PASSWORD, login_type: 'email' })).msg).toBe(
      fourth.msg,
    );
    // The counts (and the API rate limits) live in Redis under this cluster's prefix.
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      expect((await redis.keys(`${cluster.redisPrefix}throttle:*`)).length).toBeGreaterThan(0);
      expect((await redis.keys(`${cluster.redisPrefix}rate-limit:*`)).length).toBeGreaterThan(0);
    } finally {
      await redis.quit();
    }
  });

  it('locks a staff member after five wrong passwords spread over the servers, the right one too; one e-mail', async () => {
    const [a, b, c] = cluster.servers.map((s) => s.url) as [string, string, string];
    const email = uniqueEmail();
    await cluster.query(`insert into staff (email, name, password_hash, roles) values ($1, 'S', $2, '{support}')`, [
      email,
      await hashPassword('staff-password-1'),
    ]);
    const signIn = (url: string, password: string) => api(url, 'POST', '/api/admin/login', { email, password });
    // Five failures over three servers: none of them saw five.
    for (const [i, url] of [a, b, c, a, b].entries()) expect((await signIn(url, `wrong-password-${i}`)).code).toBe(0);
    for (const url of [a, b, c])
      expect(await signIn(url, 'staff-password-1')).toMatchObject({
        code: 0,
        msg: expect.stringMatching(/^Too many failed attempts\. Please try again in 1[45] minutes\.$/),
      });
    const mails = await until(
      'the lock e-mail',
      async () => {
        const rows = await cluster.query<{ body: string }>(
          `select body from outbox where destination = $1 and subject = 'Failed logins to your account'`,
          [email],
        );
        return rows.length ? rows : null;
      },
      5_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(
      await cluster.query(`select id from outbox where destination = $1 and subject = 'Failed logins to your account'`, [email]),
    ).toHaveLength(1);
    expect(mails[0]!.body).toMatch(/locked for 15 minutes/);
  });

  /** The leader and the two followers, as the database's lock says. */
  async function roles(): Promise<{ leader: ClusterServer; a: ClusterServer; b: ClusterServer }> {
    const port = await until('a leader', () => cluster.leaderPort(), 10_000);
    const alive = cluster.servers.filter((s) => s.child.exitCode === null && s.child.signalCode === null);
    const [a, b] = alive.filter((s) => s.port !== port) as [ClusterServer, ClusterServer];
    return { leader: alive.find((s) => s.port === port)!, a, b };
  }

  async function trader(base: string) {
    const created = await api(base, 'GET', '/api/user/createAccountDemoForU');
    const login = await api(base, 'POST', '/api/user/loginForU', { demo_id: created.data.demo_id });
    expect(login.code).toBe(1);
    return { token: login.data.token as string, userId: login.data.user.id as number };
  }

  const btcOf = async (base: string) => {
    const list = await api(base, 'GET', '/v1/api/forex/trade_list');
    const row = (list.data as { Id: number; Code: string; LastPrice: string }[]).find((s) => s.Code === 'BTCUSDT')!;
    return { id: row.Id, last: Number(row.LastPrice) };
  };

  const closesOf = async (orderId: number) =>
    (
      await cluster.query<{ n: number }>(
        `select count(*)::int as n from ledger_transactions where ref_type = 'order' and ref_id = $1 and kind = 'order_close'`,
        [String(orderId)],
      )
    )[0]!.n;

  it('shows a client on server A the quotes, and its own pushes for orders made through server B', async () => {
    const { a, b } = await roles();
    const me = await trader(b.url);
    const socket = await TestClient.connect(`${a.url.replace('http', 'ws')}/v1/ws`);
    try {
      expect((await socket.request({ type: 'login', params: me.token }, 'login_result')).code).toBe(1);
      for (const topic of ['DAY_MARKET', 'FOREX_TRADE', 'FOREX_CLOSED'])
        expect((await socket.request({ type: 'sub', params: topic }, 'sub_result')).code).toBe(1);
      // Quotes come from the leader's feed.
      const from = socket.messages.length;
      await socket.next((m) => typeof m === 'object' && m.type === 'DAY_MARKET', 5_000, from);

      const btc = await btcOf(b.url);
      const opened = await api(b.url, 'GET', '/v1/api/forex/submit', { type: 1, cont: '0.01', forex_id: btc.id, multiple: 10 }, me.token);
      expect(opened.code, opened.msg).toBe(1);
      const id = opened.data.Id as number;
      const trade = await socket.next(
        (m) => typeof m === 'object' && m.type === 'FOREX_TRADE' && m.TransOrder.some((o: { Id: number }) => o.Id === id),
        5_000,
      );
      expect(trade).toMatchObject({ To: me.userId });

      const closed = await api(b.url, 'GET', '/v1/api/forex/close', { id }, me.token);
      expect(closed.code, closed.msg).toBe(1);
      await socket.next((m) => typeof m === 'object' && m.type === 'FOREX_CLOSED' && m.id.includes(id), 5_000);
      expect(await closesOf(id)).toBe(1);
    } finally {
      socket.close();
    }
  });

  it('fires a take-profit set through one server on a tick sent through another, exactly once', async () => {
    const { leader, a, b } = await roles();
    const me = await trader(b.url);
    const btc = await btcOf(b.url);
    const tp = fixed(btc.last * 1.05, 2);
    const opened = await api(
      b.url,
      'GET',
      '/v1/api/forex/submit',
      { type: 1, cont: '0.01', forex_id: btc.id, multiple: 10, target_profit_price: tp },
      me.token,
    );
    expect(opened.code, opened.msg).toBe(1);
    const id = opened.data.Id as number;
    // The leader's books learn of the order over the bus; then a tick through A crosses the level.
    await new Promise((r) => setTimeout(r, 300));
    const high = btc.last * 1.06;
    expect(await jump(a.url, btc.id, high)).toBe(1);
    await until(
      'the take-profit',
      async () => (await cluster.query<{ status: number }>('select status from orders where id = $1', [id]))[0]!.status === 3,
      5_000,
    );
    await api(leader.url, 'GET', '/api/test/trading/idle');
    const [row] = await cluster.query<{ closed_type: number; update_price: string }>(
      'select closed_type, update_price::text from orders where id = $1',
      [id],
    );
    expect(row!.closed_type).toBe(3);
    expect(Number(row!.update_price)).toBeGreaterThanOrEqual(Number(tp));
    expect(await closesOf(id)).toBe(1);
  });

  it('answers ready on every server, with its role (one leader) and the bus on Redis, and exposes the role as a metric', async () => {
    const leaderPort = await cluster.leaderPort();
    for (const server of cluster.servers) {
      const res = await fetch(`${server.url}/health/ready`);
      const body = (await res.json()) as { status: string; role: string; checks: Record<string, { ok: boolean; kind?: string }> };
      expect(res.status, JSON.stringify(body)).toBe(200);
      const role = server.port === leaderPort ? 'leader' : 'follower';
      expect(body).toMatchObject({
        status: 'ready',
        role,
        checks: { database: { ok: true, kind: 'postgres' }, migrations: { ok: true }, feed: { ok: true } },
      });
      expect(body.checks.bus).toEqual({ ok: true, kind: 'redis', detail: { publisher: 'ready', subscriber: 'ready' } });
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(new RegExp(`^tp_leader ${role === 'leader' ? 1 : 0}$`, 'm'));
    }
  });

  it('hands the engine over within 5 s when the leader is killed; nothing fires twice or is missed', async () => {
    const { leader, a, b } = await roles();
    const me = await trader(a.url);
    const btc = await btcOf(a.url);
    // Take-profits the next leader must fire after rebuilding its books from the database.
    const tp = fixed(btc.last * 1.05, 2);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api(
        i % 2 ? a.url : b.url,
        'GET',
        '/v1/api/forex/submit',
        { type: 1, cont: '0.01', forex_id: btc.id, multiple: 10, target_profit_price: tp },
        me.token,
      );
      expect(res.code, res.msg).toBe(1);
      ids.push(res.data.Id);
    }

    // A trailing stop and a price alert set through the followers before the failover: the next leader
    // must keep following the one and fire the other, once.
    const trailed = await api(b.url, 'GET', '/v1/api/forex/submit', { type: 1, cont: '0.01', forex_id: btc.id, multiple: 10 }, me.token);
    expect(trailed.code, trailed.msg).toBe(1);
    expect((await api(a.url, 'GET', '/v1/api/forex/set_trailing', { id: trailed.data.Id, points: 1000 }, me.token)).code).toBe(1);
    const alert = await api(b.url, 'GET', '/v1/api/forex/alert/add', { forex_id: btc.id, price: fixed(btc.last * 1.03, 2) }, me.token);
    expect(alert.code, alert.msg).toBe(1);

    const leaderPort = leader.port;
    const killedAt = Date.now();
    leader.child.kill('SIGKILL');
    const next = await until(
      'another leader',
      async () => {
        const port = await cluster.leaderPort();
        return port !== null && port !== leaderPort ? port : null;
      },
      5_000,
      20,
    );
    const handoverMs = Date.now() - killedAt;
    console.log(`leader on port ${leaderPort} killed; port ${next} took over after ${handoverMs} ms`);
    expect(handoverMs).toBeLessThan(5_000);
    const successor = cluster.servers.find((s) => s.port === next)!;
    await until(
      'the engine on the new leader',
      async () => (await api(successor.url, 'GET', '/api/test/trading/idle')).data?.running,
      5_000,
    );

    const other = successor === a ? b : a;
    const high = btc.last * 1.06;
    expect(await jump(other.url, btc.id, high)).toBe(1);
    await until(
      'every take-profit',
      async () =>
        (await cluster.query<{ n: number }>('select count(*)::int as n from orders where id = any($1) and status = 3', [ids]))[0]!.n ===
        ids.length,
      5_000,
    );
    await api(successor.url, 'GET', '/api/test/trading/idle');
    for (const id of ids) expect(await closesOf(id)).toBe(1);
    // The trailing stop followed the tick on the new leader: 10.00 behind the bid, past the entry ...
    const trailedStop = await until(
      'the trailing stop on the new leader',
      async () =>
        (
          await cluster.query<{ sl: string | null }>('select target_loss_price::text as sl from orders where id = $1', [trailed.data.Id])
        )[0]!.sl,
      5_000,
    );
    expect(Number(trailedStop)).toBeGreaterThan(Number(trailed.data.Price));
    expect(Number(trailedStop)).toBeLessThan(high);
    // ... and the alert fired, once.
    const fired = await until(
      'the alert on the new leader',
      async () =>
        (
          await cluster.query<{ fired_price: string | null }>('select fired_price::text from price_alerts where id = $1', [alert.data.id])
        )[0]!.fired_price,
      5_000,
    );
    expect(Number(fired)).toBeGreaterThanOrEqual(btc.last * 1.03);
    const twice = await cluster.query(
      `select ref_id from ledger_transactions where ref_type = 'order' and kind in ('order_close', 'order_fill') group by ref_id, kind having count(*) > 1`,
    );
    expect(twice).toEqual([]);

    const database = await openDatabase({ url: cluster.databaseUrl, poolSize: 2 });
    try {
      expect((await auditLedger(database.db)).problems).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('fires a take-profit placed on a server whose change notifications are lost, from the change log', async () => {
    const { leader, a } = await roles();
    // A fourth server whose change notifications are all lost, as in a bus outage.
    const deaf = await cluster.start({ TRADING_TEST_LOSE_CHANGE_NOTICES: '1' });
    try {
      const me = await trader(deaf.url);
      const btc = await btcOf(a.url);
      const tp = fixed(btc.last * 1.05, 2);
      const opened = await api(
        deaf.url,
        'GET',
        '/v1/api/forex/submit',
        { type: 1, cont: '0.01', forex_id: btc.id, multiple: 10, target_profit_price: tp },
        me.token,
      );
      expect(opened.code, opened.msg).toBe(1);
      const id = opened.data.Id as number;
      // Within a polling interval of the change log the leader's books hold the order.
      await new Promise((r) => setTimeout(r, 600));
      expect(await jump(a.url, btc.id, btc.last * 1.06)).toBe(1);
      await until(
        'the take-profit',
        async () => (await cluster.query<{ status: number }>('select status from orders where id = $1', [id]))[0]!.status === 3,
        5_000,
      );
      await api(leader.url, 'GET', '/api/test/trading/idle');
      const [row] = await cluster.query<{ closed_type: number }>('select closed_type from orders where id = $1', [id]);
      expect(row!.closed_type).toBe(3);
      expect(await closesOf(id)).toBe(1);
    } finally {
      deaf.child.kill('SIGTERM');
      await Promise.race([deaf.exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
  });
});
