/**
 * Funding benchmark: withdrawal requests (many users, and many at once against one balance) and
 * staff deposit approvals, through the real routes (app.inject, no network), on PGlite and, when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL is set, on PostgreSQL. Bounded: fixed request counts.
 *
 *   npx tsx bench/funding.ts
 */
import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { dec } from '@tp/contract/decimal';
import { call, createTestApp, type DbTarget, type TestApp } from '../apps/server/test/test-app.ts';
import { depositNetworks, identityVerifications, uploads, withdrawCurrencies } from '../apps/server/src/platform/db/schema.ts';
import { insertUser } from '../apps/server/src/modules/auth/user-repository.ts';
import { auditLedger } from '../apps/server/src/modules/ledger/ledger-service.ts';

const USERS = 50;
const PER_USER = 10;
const CONCURRENCY = 25;
const CONTENDED = 200;
const APPROVALS = 200;
const ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const targets: DbTarget[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timed<T>(jobs: (() => Promise<T>)[], concurrency: number) {
  const latencies: number[] = [];
  const results: T[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const t0 = performance.now();
        results.push(await job());
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { results, perSecond: jobs.length / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95), seconds };
}

async function trader(t: TestApp, currencyId: number, balance: string) {
  const user = await insertUser(t.ctx.db, { email: `b${Math.random().toString(36).slice(2)}@bench.local` });
  await t.ctx.db
    .insert(identityVerifications)
    .values({ userId: user.id, name: 'Bench', cardId: 'B1', frontPic: '/uploads/f.png', reversePic: '/uploads/r.png', reviewStatus: 2 });
  await t.ctx.db.transaction((tx) =>
    t.ctx.services.ledger.post(tx, {
      kind: 'bench_funding',
      isDemo: false,
      postings: [
        { account: { userId: user.id, kind: 'cash' }, amount: balance, type: 'deposit' },
        { account: { house: 'deposit_clearing' }, amount: dec(balance).neg(), type: 'deposit' },
      ],
    }),
  );
  const token = await t.ctx.services.sessions.create({ userId: user.id });
  const bound = await call(t, 'POST', '/api/wallet/bind_draw_method', { type: 1, draw_id: currencyId, dc_address: ADDRESS }, { token });
  return { id: user.id, token, methodId: bound.data.id as number };
}

async function run(target: DbTarget) {
  const t = await createTestApp(target);
  try {
    const [usdt] = await t.ctx.db.select().from(withdrawCurrencies).where(eq(withdrawCurrencies.protocol, 'TRC20'));
    const draw = (u: { token: string; methodId: number }, number: string) =>
      call(t, 'POST', '/api/account/draw', { draw_currency_id: usdt!.id, number, draw_method_id: u.methodId }, { token: u.token });

    const users = await Promise.all(Array.from({ length: USERS }, () => trader(t, usdt!.id, '1000')));
    const spread = await timed(
      users.flatMap((u) => Array.from({ length: PER_USER }, () => () => draw(u, '20'))),
      CONCURRENCY,
    );
    const spreadOk = spread.results.filter((r) => r.code === 1).length;

    const one = await trader(t, usdt!.id, '1000');
    const contended = await timed(
      Array.from({ length: CONTENDED }, () => () => draw(one, '15')),
      CONTENDED,
    );
    const contendedOk = contended.results.filter((r) => r.code === 1).length;
    const left = (await t.ctx.services.ledger.balances(t.ctx.db, one.id)).balance.toString();

    const staff = await call(t, 'POST', '/api/admin/login', { email: 'admin@test.local', password: 'admin-password-1' });
    const [network] = await t.ctx.db.select().from(depositNetworks).limit(1);
    const depositIds: number[] = [];
    for (let i = 0; i < APPROVALS; i++) {
      const u = users[i % users.length]!;
      const key = `bench${randomBytes(12).toString('hex')}.png`;
      await t.ctx.db.insert(uploads).values({ userId: u.id, key, mime: 'image/png', size: 100 });
      const proofImg = await t.ctx.services.uploads.signedUrl(key);
      const res = await call(t, 'POST', '/api/quickCharge/submit', { number: '10', proofImg, charge_id: network!.id }, { token: u.token });
      depositIds.push(res.data.id);
    }
    const approvals = await timed(
      depositIds.map((id) => () => call(t, 'POST', '/api/admin/deposits/approve', { id, amount: '10' }, { token: staff.data.token })),
      CONCURRENCY,
    );
    const audit = await auditLedger(t.ctx.db);

    const fmt = (n: number) => n.toFixed(1);
    console.log(`\n${target}`);
    console.log(
      `  withdrawals, ${USERS} users x ${PER_USER}, concurrency ${CONCURRENCY}: ${fmt(spread.perSecond)} req/s, p50 ${fmt(spread.p50)} ms, p95 ${fmt(spread.p95)} ms, accepted ${spreadOk}/${spread.results.length}`,
    );
    console.log(
      `  ${CONTENDED} withdrawals of 15 at once against one balance of 1000: ${fmt(contended.seconds * 1000)} ms total, accepted ${contendedOk} (expected 66), balance left ${left} (expected 10)`,
    );
    console.log(
      `  deposit approvals, concurrency ${CONCURRENCY}: ${fmt(approvals.perSecond)} req/s, p50 ${fmt(approvals.p50)} ms, p95 ${fmt(approvals.p95)} ms, approved ${approvals.results.filter((r) => r.code === 1).length}/${APPROVALS}`,
    );
    console.log(`  ledger audit: ${audit.ok ? 'ok' : audit.problems.join('; ')} (${audit.transactions} transactions)`);
  } finally {
    await t.close();
  }
}

for (const target of targets) await run(target);
